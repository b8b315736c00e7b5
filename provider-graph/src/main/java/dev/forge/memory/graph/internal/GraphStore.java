package dev.forge.memory.graph.internal;

import java.time.Duration;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.SimpleQueryRunner;
import org.neo4j.driver.TransactionConfig;
import org.neo4j.driver.TransactionContext;
import org.neo4j.driver.Value;
import org.neo4j.driver.exceptions.Neo4jException;
import org.neo4j.driver.exceptions.RetryableException;
import org.neo4j.driver.exceptions.ServiceUnavailableException;
import org.neo4j.driver.exceptions.SessionExpiredException;
import org.neo4j.driver.types.Node;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.Hit;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StorageException;
import dev.forge.memory.EntryRules;
import dev.forge.memory.support.EntryStore;
import dev.forge.memory.support.EntryWrite;
import dev.forge.memory.KeyPattern;
import dev.forge.memory.Keys;
import dev.forge.memory.support.SearchText;
import dev.forge.memory.embedding.EmbeddingModel;

/**
 * The operations of one provider on a Neo4j database: what its store, project and session see, and the Cypher of
 * each call. Every write is one Neo4j write transaction (retried by the driver on transient errors such as deadlocks);
 * every read one read transaction.
 *
 * <p>A write first takes the write lock of the key's {@code :Memory} node, creating it with version 0 (a placeholder
 * no reader sees) when missing: the uniqueness constraint makes creators of one key queue, and the lock makes
 * read-modify-write of the version safe across threads and processes.
 */
public final class GraphStore implements EntryStore {

    private static final Logger LOG = LoggerFactory.getLogger(GraphStore.class);

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_LONG_FOR_INTS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .build();
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    /** Matches the key's node; parameters {@code store, project, session, scope, key}. */
    static final String KEY_PROPS = "{store: $store, project: $project, session: $session, scope: $scope, key: $key}";

    private final String provider;
    private final Drivers.Shared driver;
    private final Clock clock;
    private final String store;
    private final String project;
    private final String session;
    private final Limits limits;
    private final TransactionConfig transactionConfig;
    /** The embedding model, or null: then entries get no vector and semantic search is not offered. */
    private final EmbeddingModel model;
    /** The write statements, batched. */
    private final GraphWrites writes;
    /** What keyword search indexes of an entry ({@code search_fields}). */
    private final SearchText searchText;
    private final GraphKeywordSearch keywordSearch;
    private volatile boolean closed;

    /**
     * A store {@code store} on {@code driver} for {@code project} and {@code session}; {@code model} (null for none)
     * makes the vectors of entries, {@code searchText} the text keyword search indexes. Call
     * {@link #prepareSearchText()} before use, and with a model {@link GraphVectors#prepareVectors}.
     */
    public GraphStore(String provider, Drivers.Shared driver, Clock clock, String store, String project, String session,
                      Limits limits, Duration queryTimeout, EmbeddingModel model, SearchText searchText) {
        this.model = model;
        this.searchText = Objects.requireNonNull(searchText, "searchText");
        this.provider = provider;
        this.driver = driver;
        this.clock = clock;
        this.store = store;
        this.project = project;
        this.session = session;
        this.limits = limits;
        this.transactionConfig = TransactionConfig.builder().withTimeout(queryTimeout).build();
        this.writes = new GraphWrites(this);
        this.keywordSearch = new GraphKeywordSearch(this);
    }

    /** The limits writes are checked against. */
    public Limits limits() {
        return limits;
    }

    /** Where this store is, for messages. */
    public String location() {
        return driver.settings() + ", store '" + store + "'";
    }

    /** Throws {@link BackendUnavailableException} once closed. */
    public void checkOpen() {
        if (closed) {
            throw new BackendUnavailableException("This " + provider + " provider on " + location() + " is closed; open a new one.");
        }
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed;
    }

    /** Closes this store and its embedding model; the driver closes with its last user. Idempotent. */
    public synchronized void close() {
        if (!closed) {
            closed = true;
            try {
                if (model != null) {
                    model.close();
                }
            } finally {
                driver.release();
            }
        }
    }

    /** The driver this store runs on. */
    Drivers.Shared driver() {
        return driver;
    }

    /** The name of the store within the database ({@code store} of every node). */
    String storeName() {
        return store;
    }

    /** The embedding model, or null. */
    EmbeddingModel model() {
        return model;
    }

    /** The project this store serves. */
    String project() {
        return project;
    }

    /** The session this store serves. */
    String session() {
        return session;
    }

    /** The name of the provider, for messages. */
    String provider() {
        return provider;
    }

    /** The settings of every Neo4j transaction (the query timeout). */
    TransactionConfig transactionConfig() {
        return transactionConfig;
    }

    /** The clock writes are stamped with. */
    Clock clock() {
        return clock;
    }

    /** The write statements of this store. */
    GraphWrites writes() {
        return writes;
    }

    /** What keyword search indexes of an entry. */
    SearchText searchText() {
        return searchText;
    }

    /**
     * Gives every live entry of the store whose indexed text was made with other {@code search_fields} (or by an
     * earlier version, without any) its text of this store's setting; see {@link GraphKeywordSearch#prepare}.
     */
    public void prepareSearchText() {
        keywordSearch.prepare();
    }

    // ------------------------------------------------------------------ plumbing

    /** The namespace of {@code scope}: GLOBAL nodes have project and session {@code ''}, PROJECT nodes session {@code ''}. */
    public Map<String, Object> namespace(Scope scope) {
        Objects.requireNonNull(scope, "scope");
        Map<String, Object> ns = new HashMap<>();
        ns.put("store", store);
        ns.put("project", scope == Scope.GLOBAL ? "" : project);
        ns.put("session", scope == Scope.SESSION ? session : "");
        ns.put("scope", scope.id());
        return ns;
    }

    Map<String, Object> keyParams(Scope scope, String key) {
        Map<String, Object> params = namespace(scope);
        params.put("key", key);
        return params;
    }

    /** The [project, session, scope] triples of {@code scopes}, for {@code [m.project, m.session, m.scope] IN $namespaces}. */
    List<List<String>> namespaces(Set<Scope> scopes) {
        List<List<String>> triples = new ArrayList<>();
        for (Scope scope : scopes) {
            Map<String, Object> ns = namespace(scope);
            triples.add(List.of((String) ns.get("project"), (String) ns.get("session"), scope.id()));
        }
        return triples;
    }

    static final String VISIBLE = "[%1$s.project, %1$s.session, %1$s.scope] IN $visible";

    Map<String, Object> visibleParams() {
        Map<String, Object> params = new HashMap<>();
        params.put("store", store);
        params.put("visible", namespaces(Set.of(Scope.values())));
        return params;
    }

    /**
     * Whether {@code e} means the server cannot serve us now, so the caller may retry once it is back: unreachable,
     * the session gone, or the database itself unavailable (Neo4j answers {@value #DATABASE_UNAVAILABLE} while it
     * starts or shuts down).
     */
    public static boolean unavailable(Neo4jException e) {
        return e instanceof ServiceUnavailableException || e instanceof SessionExpiredException
                || DATABASE_UNAVAILABLE.equals(e.code());
    }

    /** Neo4j's status code for a database that is starting, stopping or stopped. */
    static final String DATABASE_UNAVAILABLE = "Neo.TransientError.General.DatabaseUnavailable";

    <T> T write(String what, Function<TransactionContext, T> work) {
        checkOpen();
        try (Session s = driver.driver().session(driver.sessionConfig())) {
            return s.executeWrite(work::apply, transactionConfig);
        } catch (MemoryException e) {
            throw e;
        } catch (Neo4jException e) {
            if (unavailable(e)) {
                throw new BackendUnavailableException("Cannot " + what + ": the Neo4j server at " + location()
                        + " is unreachable (" + e.getMessage() + "). Nothing was changed; retry when it is back.", e);
            }
            throw new StorageException("Cannot " + what + " in Neo4j at " + location() + ": " + e.getMessage(), e);
        }
    }

    <T> T read(String what, Function<TransactionContext, T> work) {
        checkOpen();
        try (Session s = driver.driver().session(driver.sessionConfig())) {
            return s.executeRead(work::apply, transactionConfig);
        } catch (MemoryException e) {
            throw e;
        } catch (Neo4jException e) {
            if (unavailable(e)) {
                throw new BackendUnavailableException("Cannot " + what + ": the Neo4j server at " + location()
                        + " is unreachable (" + e.getMessage() + ").", e);
            }
            throw new StorageException("Cannot " + what + " in Neo4j at " + location() + ": " + e.getMessage(), e);
        }
    }

    /**
     * A read of one statement as an auto-commit query: one round trip to the server where a managed transaction takes
     * two, for the per-key reads of optimistic transactions. A failure the server marks as retryable (a leader
     * change, a deadlock) is retried as {@link #read} retries it.
     */
    <T> T readOnce(String what, Function<SimpleQueryRunner, T> work) {
        checkOpen();
        try (Session s = driver.driver().session(driver.sessionConfig())) {
            return work.apply(s);
        } catch (MemoryException e) {
            throw e;
        } catch (Neo4jException e) {
            if (e instanceof RetryableException) {
                return read(what, work::apply);
            }
            if (unavailable(e)) {
                throw new BackendUnavailableException("Cannot " + what + ": the Neo4j server at " + location()
                        + " is unreachable (" + e.getMessage() + ").", e);
            }
            throw new StorageException("Cannot " + what + " in Neo4j at " + location() + ": " + e.getMessage(), e);
        }
    }

    static String describe(String key, Scope scope) {
        return "key '" + Keys.abbreviate(key) + "' (" + scope.id() + ")";
    }

    /**
     * The whole entry as one JSON property, which is what readers read: Neo4j reads committed data property by
     * property, so a reader racing a writer could otherwise combine one version's value with another's number.
     */
    static String snapshot(MemoryEntry entry, String revision) {
        Map<String, Object> snapshot = new LinkedHashMap<>();
        // The revision travels with the entry, so that an optimistic read never pairs one write's entry with
        // another write's revision (properties read one by one can come from two commits).
        snapshot.put("rev", revision);
        snapshot.put("value", entry.value());
        snapshot.put("tags", entry.tags());
        snapshot.put("metadata", entry.metadata());
        snapshot.put("createdAt", entry.createdAt().toEpochMilli());
        snapshot.put("updatedAt", entry.updatedAt().toEpochMilli());
        snapshot.put("version", entry.version());
        try {
            return JSON.writeValueAsString(snapshot);
        } catch (JsonProcessingException e) {
            throw new InvalidEntryException("Cannot write the entry of key '" + Keys.abbreviate(entry.key()) + "' as JSON: "
                    + e.getOriginalMessage(), e);
        }
    }

    static String metadataJson(Map<String, Object> metadata) {
        try {
            return JSON.writeValueAsString(metadata);
        } catch (JsonProcessingException e) {
            throw new InvalidEntryException("Cannot write metadata as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** The entry a {@code :Memory} or {@code :MemoryVersion} node holds. */
    MemoryEntry entry(Node node) {
        return entry(node.asMap(v -> v));
    }

    MemoryEntry entry(Map<String, Value> props) {
        String key = props.containsKey("key") ? props.get("key").asString() : null;
        String scope = props.containsKey("scope") ? props.get("scope").asString() : null;
        try {
            if (props.containsKey("snapshot")) {
                Map<String, Object> snapshot = JSON.readValue(props.get("snapshot").asString(), MAP);
                @SuppressWarnings("unchecked")
                List<String> tags = (List<String>) snapshot.get("tags");
                @SuppressWarnings("unchecked")
                Map<String, Object> metadata = (Map<String, Object>) snapshot.get("metadata");
                return new MemoryEntry(key, (String) snapshot.get("value"), Scope.parse(scope), tags, metadata,
                        Instant.ofEpochMilli(((Number) snapshot.get("createdAt")).longValue()),
                        Instant.ofEpochMilli(((Number) snapshot.get("updatedAt")).longValue()),
                        ((Number) snapshot.get("version")).longValue());
            }
            List<String> tags = props.get("tags").asList(Value::asString);
            Map<String, Object> metadata = JSON.readValue(props.get("metadata").asString(), MAP);
            return new MemoryEntry(key, props.get("value").asString(), Scope.parse(scope), tags, metadata,
                    Instant.ofEpochMilli(props.get("createdAt").asLong()), Instant.ofEpochMilli(props.get("updatedAt").asLong()),
                    props.get("version").asLong());
        } catch (JsonProcessingException | RuntimeException e) {
            throw new CorruptEntryException("The node of key '" + (key == null ? "(null)" : Keys.abbreviate(key)) + "' (" + scope
                    + ") in " + location() + " cannot be read: " + e.getMessage() + " Fix or delete the node, or purge the key.", e);
        }
    }

    Optional<MemoryEntry> readable(Node node) {
        try {
            return Optional.of(entry(node));
        } catch (CorruptEntryException e) {
            LOG.warn("Skipping an unreadable node: {}", e.getMessage());
            return Optional.empty();
        }
    }

    // ------------------------------------------------------------------ what is stored of a key

    /**
     * What is stored of a key: its live entry, the highest version number it took (tombstones included) and its
     * revision, which changes with every write, deletion and purge.
     */
    public record Current(Optional<MemoryEntry> live, long lastVersion, String revision) {
    }

    /** The revision of a live node, read from its snapshot so that it belongs to the entry read with it. */
    static String revision(org.neo4j.driver.types.Node node) {
        if (node.containsKey("snapshot")) {
            try {
                Object rev = JSON.readValue(node.get("snapshot").asString(), MAP).get("rev");
                if (rev instanceof String text) {
                    return text;
                }
            } catch (java.io.IOException e) {
                throw new CorruptEntryException("The snapshot of a node cannot be read: " + e.getMessage());
            }
        }
        return node.get("rev").asString("");
    }

    /**
     * The properties of a node holding {@code entry}, vectors aside: its key and namespace, the entry's fields, a new
     * revision and the {@link #snapshot} made with it. {@code :Memory} and {@code :MemoryVersion} nodes hold the same.
     */
    Map<String, Object> entryProperties(MemoryEntry entry) {
        Map<String, Object> props = keyParams(entry.scope(), entry.key());
        props.put("value", entry.value());
        props.put("tags", entry.tags());
        props.put("tagText", String.join(" ", entry.tags()));
        props.put("metadata", metadataJson(entry.metadata()));
        props.put("createdAt", entry.createdAt().toEpochMilli());
        props.put("updatedAt", entry.updatedAt().toEpochMilli());
        props.put("version", entry.version());
        String revision = UUID.randomUUID().toString();
        props.put("rev", revision);
        props.put("snapshot", snapshot(entry, revision));
        return props;
    }

    // ------------------------------------------------------------------ entries

    /** The live entry of {@code key}. */
    public Optional<MemoryEntry> get(String key, Scope scope) {
        Objects.requireNonNull(scope, "scope");
        Keys.validate(key);
        return read("read " + describe(key, scope), tx -> {
            List<Record> rows = tx.run("MATCH (m:Memory " + KEY_PROPS + ") WHERE m.version > 0 RETURN m",
                    keyParams(scope, key)).list();
            return rows.isEmpty() ? Optional.<MemoryEntry>empty() : Optional.of(entry(rows.get(0).get("m").asNode()));
        });
    }

    /** Stores a validated write: one transaction. */
    public MemoryEntry set(EntryWrite write) {
        // the vector depends on key, tags and value only, so it is made once, before the (retried) transaction
        List<Double> vector = embedding(write.toEntry(Optional.empty(), clock.instant()));
        EntryRef ref = new EntryRef(write.key(), write.scope());
        return write("store " + describe(write.key(), write.scope()), tx -> {
            Current current = writes.lockAndRead(tx, List.of(ref)).get(ref);
            MemoryEntry entry = write.toEntry(current.live(), current.lastVersion(), clock.instant());
            GraphWrites.Plan plan = writes.plan(Map.of(ref, current));
            plan.set(entry, vector);
            plan.apply(tx);
            return entry;
        });
    }

    /**
     * Replaces everything stored of the key of {@code chain} (checked by {@link EntryRules#checkChain}) with exactly
     * its versions, in one transaction: the key's node is locked (created when missing), every version and tombstone
     * node of the key is deleted, the earlier versions become new {@code :MemoryVersion} nodes chained newest to
     * oldest, and the last becomes the node's live entry. The node itself stays, and with it the key's relations. It
     * gets a new revision, so an optimistic transaction that read the key before conflicts, and a reindex batch that
     * read the replaced entry leaves the restored entry's vector alone; that vector is made before the transaction, as
     * {@link #set} makes it.
     */
    public MemoryEntry restore(List<MemoryEntry> chain) {
        return restoreAll(List.of(chain)).get(0);
    }

    /**
     * Restores {@code chains} as {@link #restore} does, all in one transaction of a few statements
     * ({@link GraphWrites#restore}), their vectors made in one model call.
     */
    @Override
    public List<MemoryEntry> restoreAll(List<List<MemoryEntry>> chains) {
        List<MemoryEntry> lasts = chains.stream().map(chain -> chain.get(chain.size() - 1)).toList();
        List<List<Double>> vectors = embeddings(lasts);
        return write(lasts.size() == 1 ? "restore " + describe(lasts.get(0).key(), lasts.get(0).scope())
                : "restore " + lasts.size() + " keys", tx -> {
            writes.restore(tx, chains, vectors);
            return lasts;
        });
    }

    /** Deletes the live entry, leaving a tombstone version. */
    public boolean delete(String key, Scope scope) {
        Objects.requireNonNull(scope, "scope");
        Keys.validate(key);
        return write("delete " + describe(key, scope), tx -> {
            Map<String, Object> params = keyParams(scope, key);
            if (tx.run("MATCH (m:Memory " + KEY_PROPS + ") WHERE m.version > 0 SET m.lock = true REMOVE m.lock RETURN m.key",
                    params).list().isEmpty()) {
                return false;
            }
            deleteLive(tx, List.of(new EntryRef(key, scope)));
            return true;
        });
    }

    /** Deletes every live entry of the scope's namespace, each leaving a tombstone: one transaction. */
    public int clear(Scope scope) {
        Objects.requireNonNull(scope, "scope");
        return write("clear the " + scope.id() + " scope", tx -> {
            Map<String, Object> ns = namespace(scope);
            List<EntryRef> refs = tx.run("MATCH (m:Memory) WHERE m.store = $store AND m.project = $project"
                    + " AND m.session = $session AND m.scope = $scope AND m.version > 0"
                    + " SET m.lock = true REMOVE m.lock RETURN m.key AS key", ns)
                    .list(r -> new EntryRef(r.get("key").asString(), scope));
            deleteLive(tx, refs);
            return refs.size();
        });
    }

    /** Replaces the live entries of {@code refs}, whose nodes are locked, by tombstones; relations go with them. */
    private void deleteLive(TransactionContext tx, List<EntryRef> refs) {
        GraphWrites.Plan plan = writes.plan(writes.currents(tx, refs));
        Instant now = clock.instant();
        refs.forEach(ref -> plan.delete(ref, now));
        plan.apply(tx);
    }

    /** Erases the session's keys for good, histories included; returns how many were live. */
    public int endSession() {
        return write("end the session", tx -> {
            Map<String, Object> ns = namespace(Scope.SESSION);
            int live = tx.run("MATCH (m:Memory) WHERE m.store = $store AND m.project = $project AND m.session = $session"
                    + " AND m.scope = $scope AND m.version > 0 RETURN count(m) AS n", ns).single().get("n").asInt();
            GraphHistory.purgeNamespace(this, tx, Scope.SESSION);
            return live;
        });
    }

    // ------------------------------------------------------------------ queries and search

    /** The entries {@code query} selects: the namespaces of its scopes from the database, then the API's matcher. */
    public List<MemoryEntry> query(Query query) {
        Objects.requireNonNull(query, "query");
        Map<String, Object> params = new HashMap<>();
        params.put("store", store);
        params.put("visible", namespaces(query.scopes()));
        StringBuilder cypher = new StringBuilder("MATCH (m:Memory) WHERE m.store = $store AND ")
                .append(String.format(VISIBLE, "m")).append(" AND m.version > 0");
        KeyPattern pattern = query.pattern();
        if (pattern.kind() == KeyPattern.Kind.EXACT || pattern.kind() == KeyPattern.Kind.PREFIX) {
            cypher.append(" AND m.key STARTS WITH $prefix");
            params.put("prefix", pattern.literalPrefix());
        } else if (pattern.kind() == KeyPattern.Kind.TAG) {
            cypher.append(" AND $tag IN m.tags");
            params.put("tag", pattern.tagName());
        }
        cypher.append(" RETURN m");
        List<MemoryEntry> candidates = read("run the query '" + pattern + "'", tx -> {
            List<MemoryEntry> found = new ArrayList<>();
            tx.run(cypher.toString(), params).forEachRemaining(r -> readable(r.get("m").asNode()).ifPresent(found::add));
            return found;
        });
        return query.apply(candidates);
    }

    /** Keyword search through the full-text index; see {@link GraphKeywordSearch#search}. */
    public List<Hit> search(SearchRequest request) {
        return keywordSearch.search(request);
    }

    // ------------------------------------------------------------------ vectors and semantic search

    /**
     * The prefix of the vector indexes, one per dimension and database ({@code forge_memory_vectors_384} on
     * {@code :Memory(embedding_384)}), each shared by every store of the database whose model has that dimension.
     */
    public static final String VECTOR_INDEX_PREFIX = "forge_memory_vectors_";

    /** The full-text index of keyword search, over {@code :Memory(searchText)}; shared by every store of the database. */
    public static final String SEARCH_INDEX = Drivers.Schema.FULLTEXT_INDEX;

    /** The prefix of the vector properties: a node's vector of dimension {@code d} is {@code embedding_d}. */
    static final String VECTOR_PROPERTY_PREFIX = "embedding_";

    /**
     * Removes from {@code m} every vector property but {@code $vectorProperty} (empty: all of them), and properties of
     * earlier layouts ({@code embedding}, {@code zeroVector}); follow with {@code WITH m}.
     */
    static final String REMOVE_OTHER_VECTORS = " FOREACH (k IN [k IN keys(m) WHERE (k STARTS WITH '"
            + VECTOR_PROPERTY_PREFIX + "' AND k <> $vectorProperty) OR k IN ['embedding', 'zeroVector']] | REMOVE m[k])";

    /** The node property this store's model's vectors are kept in; needs a model. */
    String vectorProperty() {
        return VECTOR_PROPERTY_PREFIX + model.dimension();
    }

    /** The vector index of this store's model's dimension; needs a model. */
    String vectorIndex() {
        return VECTOR_INDEX_PREFIX + model.dimension();
    }

    /** The vector of {@code entry}'s {@link SearchText#text} as stored, or null without a model or for a zero vector. */
    List<Double> embedding(MemoryEntry entry) {
        return model == null ? null : GraphVectors.stored(model.embed(SearchText.DEFAULT.text(entry)));
    }

    /** The vectors of {@code entries} as {@link #embedding} makes them, in one call of the model. */
    List<List<Double>> embeddings(List<MemoryEntry> entries) {
        return GraphVectors.embeddings(model, entries);
    }

    /** A vector as Neo4j stores it (a list of numbers), or null for none. */
    public static float[] vector(Value value) {
        if (value == null || value.isNull()) {
            return null;
        }
        List<Object> list = value.asList();
        float[] vector = new float[list.size()];
        for (int i = 0; i < vector.length; i++) {
            vector[i] = ((Number) list.get(i)).floatValue();
        }
        return vector;
    }
}
