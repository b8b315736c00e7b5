package dev.forge.memory.graph.internal;

import java.time.Duration;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.TransactionConfig;
import org.neo4j.driver.TransactionContext;
import org.neo4j.driver.Value;
import org.neo4j.driver.exceptions.Neo4jException;
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
import dev.forge.memory.Direction;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.GraphPath;
import dev.forge.memory.Hit;
import dev.forge.memory.IndexModelMismatchException;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.Query;
import dev.forge.memory.Reindexing;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StorageException;
import dev.forge.memory.Traversal;
import dev.forge.memory.EntryRules;
import dev.forge.memory.support.EntryWrite;
import dev.forge.memory.support.GraphWalker;
import dev.forge.memory.KeyPattern;
import dev.forge.memory.Keys;
import dev.forge.memory.support.KeywordScorer;
import dev.forge.memory.support.SemanticScorer;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.SearchMode;
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
public final class GraphStore {

    private static final Logger LOG = LoggerFactory.getLogger(GraphStore.class);

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_LONG_FOR_INTS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .build();
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };
    private static final Comparator<Hit> RANKING = Comparator.comparingDouble(Hit::score).reversed()
            .thenComparing(h -> h.entry().ref());

    /** Matches the key's node; parameters {@code store, project, session, scope, key}. */
    private static final String KEY_PROPS = "{store: $store, project: $project, session: $session, scope: $scope, key: $key}";

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
    private volatile boolean closed;

    /**
     * A store {@code store} on {@code driver} for {@code project} and {@code session}; {@code model} (null for none)
     * makes the vectors of entries. With a model, call {@link #prepareVectors} before use.
     */
    public GraphStore(String provider, Drivers.Shared driver, Clock clock, String store, String project, String session,
                      Limits limits, Duration queryTimeout, EmbeddingModel model) {
        this.model = model;
        this.provider = provider;
        this.driver = driver;
        this.clock = clock;
        this.store = store;
        this.project = project;
        this.session = session;
        this.limits = limits;
        this.transactionConfig = TransactionConfig.builder().withTimeout(queryTimeout).build();
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
    private List<List<String>> namespaces(Set<Scope> scopes) {
        List<List<String>> triples = new ArrayList<>();
        for (Scope scope : scopes) {
            Map<String, Object> ns = namespace(scope);
            triples.add(List.of((String) ns.get("project"), (String) ns.get("session"), scope.id()));
        }
        return triples;
    }

    private static final String VISIBLE = "[%1$s.project, %1$s.session, %1$s.scope] IN $visible";

    private Map<String, Object> visibleParams() {
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

    private static String describe(String key, Scope scope) {
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

    private Optional<MemoryEntry> readable(Node node) {
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

    /** Reads what is stored of the key, in {@code tx}. */
    Current current(TransactionContext tx, Scope scope, String key) {
        Record row = tx.run("OPTIONAL MATCH (m:Memory " + KEY_PROPS + ") WHERE m.version > 0"
                + " OPTIONAL MATCH (v:MemoryVersion " + KEY_PROPS + ")"
                + " WITH m, v ORDER BY v.version DESC LIMIT 1"
                + " RETURN m, v.version AS last, v.rev AS head", keyParams(scope, key)).single();
        Optional<MemoryEntry> live = row.get("m").isNull() ? Optional.empty() : Optional.of(entry(row.get("m").asNode()));
        long last = row.get("last").isNull() ? 0 : row.get("last").asLong();
        String revision = live.isPresent() ? revision(row.get("m").asNode())
                : row.get("head").isNull() ? "" : row.get("head").asString();
        return new Current(live, Math.max(last, live.map(MemoryEntry::version).orElse(0L)), revision);
    }

    /** The revision of a live node, read from its snapshot so that it belongs to the entry read with it. */
    private static String revision(org.neo4j.driver.types.Node node) {
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

    /** Takes the write lock of the key's node, creating a placeholder (version 0) when there is none. */
    void lock(TransactionContext tx, Scope scope, String key) {
        tx.run("MERGE (m:Memory " + KEY_PROPS + ") ON CREATE SET m.version = 0 SET m.lock = true REMOVE m.lock",
                keyParams(scope, key)).consume();
    }

    /** Removes a placeholder left by {@link #lock} that no write filled. */
    void unlockUnused(TransactionContext tx, Scope scope, String key) {
        tx.run("MATCH (m:Memory " + KEY_PROPS + ") WHERE m.version = 0 DETACH DELETE m", keyParams(scope, key)).consume();
    }

    /**
     * Turns the live state of the key's {@code :Memory} node into a {@code :MemoryVersion} node at the head of the
     * key's {@code SUPERSEDES} chain; the {@code :Memory} node then points at it.
     */
    private void retire(TransactionContext tx, Scope scope, String key) {
        tx.run("MATCH (m:Memory " + KEY_PROPS + ") WHERE m.version > 0"
                + " CREATE (p:MemoryVersion) SET p = properties(m), p.tombstone = false"
                + " WITH m, p FOREACH (k IN [k IN keys(p) WHERE k STARTS WITH 'embedding' OR k = 'zeroVector'] | REMOVE p[k])"
                + " WITH m, p OPTIONAL MATCH (m)-[s:SUPERSEDES]->(older:MemoryVersion)"
                + " FOREACH (o IN CASE WHEN older IS NULL THEN [] ELSE [older] END | CREATE (p)-[:SUPERSEDES]->(o))"
                + " DELETE s CREATE (m)-[:SUPERSEDES]->(p)", keyParams(scope, key)).consume();
    }

    /**
     * Writes {@code entry} over what {@code current} says is stored; the key's node must be locked. {@code vector} is
     * the entry's {@link #embedding}: with a model it is stored as {@link #vectorProperty()} and tagged with the model's
     * fingerprint ({@code embeddingModel}; a zero vector is a tag without a vector); without a model, null, which
     * removes a vector and tag an earlier model left. Vectors of other dimensions are removed either way.
     */
    void apply(TransactionContext tx, MemoryEntry entry, Current current, List<Double> vector) {
        Scope scope = entry.scope();
        if (current.live().isPresent()) {
            retire(tx, scope, entry.key());
        }
        Map<String, Object> params = entryProperties(entry);
        params.put("fresh", current.live().isEmpty());
        params.put("embedding", vector);
        params.put("embeddingModel", model == null ? null : model.fingerprint());
        params.put("vectorProperty", model == null ? "" : vectorProperty());
        tx.run("MERGE (m:Memory " + KEY_PROPS + ")"
                + " SET m.value = $value, m.tags = $tags, m.tagText = $tagText, m.metadata = $metadata,"
                + " m.createdAt = $createdAt, m.updatedAt = $updatedAt, m.version = $version, m.rev = $rev,"
                + " m.snapshot = $snapshot, m.embeddingModel = $embeddingModel"
                + (model == null ? "" : ", m." + vectorProperty() + " = $embedding")
                + " WITH m" + REMOVE_OTHER_VECTORS
                + " WITH m WHERE $fresh"
                + " OPTIONAL MATCH (h:MemoryVersion " + KEY_PROPS + ") WITH m, h ORDER BY h.version DESC LIMIT 1"
                + " FOREACH (x IN CASE WHEN h IS NULL THEN [] ELSE [h] END | CREATE (m)-[:SUPERSEDES]->(x))", params).consume();
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

    /** Replaces the live entry by a tombstone version; its relations go with it. */
    void deleteLive(TransactionContext tx, Scope scope, String key, Current current, Instant now) {
        retire(tx, scope, key);
        Map<String, Object> params = keyParams(scope, key);
        params.put("version", EntryWrite.nextVersion(new EntryRef(key, scope), current.lastVersion()));
        params.put("updatedAt", now.toEpochMilli());
        params.put("rev", UUID.randomUUID().toString());
        tx.run("MATCH (m:Memory " + KEY_PROPS + ")"
                + " OPTIONAL MATCH (m)-[:SUPERSEDES]->(p:MemoryVersion)"
                + " CREATE (t:MemoryVersion " + KEY_PROPS + ") SET t.version = $version, t.tombstone = true,"
                + " t.updatedAt = $updatedAt, t.rev = $rev"
                + " FOREACH (x IN CASE WHEN p IS NULL THEN [] ELSE [p] END | CREATE (t)-[:SUPERSEDES]->(x))"
                + " DETACH DELETE m", params).consume();
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
        return write("store " + describe(write.key(), write.scope()), tx -> {
            lock(tx, write.scope(), write.key());
            Current current = current(tx, write.scope(), write.key());
            MemoryEntry entry = write.toEntry(current.live(), current.lastVersion(), clock.instant());
            apply(tx, entry, current, vector);
            return entry;
        });
    }

    /**
     * Replaces everything stored of the key of {@code chain} (checked by {@link EntryRules#checkChain}) with exactly
     * its versions, in one transaction: the key's node is locked (created when missing), every version and tombstone
     * node of the key is deleted, the earlier versions become new {@code :MemoryVersion} nodes chained as
     * {@link #retire} chains them, and the last becomes the node's live entry through {@link #apply}. The node itself
     * stays, and with it the key's relations. {@code apply} gives it a new revision, so an optimistic transaction that
     * read the key before conflicts, and a reindex batch that read the replaced entry leaves the restored entry's vector
     * alone; that vector is made before the transaction, as {@link #set} makes it.
     */
    public MemoryEntry restore(List<MemoryEntry> chain) {
        MemoryEntry last = chain.get(chain.size() - 1);
        List<Double> vector = embedding(last);
        return write("restore " + describe(last.key(), last.scope()), tx -> {
            Scope scope = last.scope();
            lock(tx, scope, last.key());
            tx.run("MATCH (v:MemoryVersion " + KEY_PROPS + ") DETACH DELETE v", keyParams(scope, last.key())).consume();
            List<Map<String, Object>> earlier = new ArrayList<>();
            for (MemoryEntry version : chain.subList(0, chain.size() - 1)) {
                Map<String, Object> props = entryProperties(version);
                props.put("tombstone", false);
                earlier.add(props);
            }
            // each version supersedes the one before it, as retire() leaves them; apply() links the live node to the newest
            tx.run("UNWIND $versions AS props CREATE (v:MemoryVersion) SET v = props"
                    + " WITH v ORDER BY v.version WITH collect(v) AS chain"
                    + " UNWIND range(1, size(chain) - 1) AS i WITH chain[i] AS newer, chain[i - 1] AS older"
                    + " CREATE (newer)-[:SUPERSEDES]->(older)", Map.of("versions", earlier)).consume();
            apply(tx, last, new Current(Optional.empty(), 0, ""), vector);
            return last;
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
            Current current = current(tx, scope, key);
            deleteLive(tx, scope, key, current, clock.instant());
            return true;
        });
    }

    /** Deletes every live entry of the scope's namespace, each leaving a tombstone: one transaction. */
    public int clear(Scope scope) {
        Objects.requireNonNull(scope, "scope");
        return write("clear the " + scope.id() + " scope", tx -> {
            Map<String, Object> ns = namespace(scope);
            List<String> keys = tx.run("MATCH (m:Memory) WHERE m.store = $store AND m.project = $project"
                    + " AND m.session = $session AND m.scope = $scope AND m.version > 0"
                    + " SET m.lock = true REMOVE m.lock RETURN m.key AS key", ns).list(r -> r.get("key").asString());
            Instant now = clock.instant();
            for (String key : keys) {
                deleteLive(tx, scope, key, current(tx, scope, key), now);
            }
            return keys.size();
        });
    }

    /** Erases the session's keys for good, histories included; returns how many were live. */
    public int endSession() {
        return write("end the session", tx -> {
            Map<String, Object> ns = namespace(Scope.SESSION);
            int live = tx.run("MATCH (m:Memory) WHERE m.store = $store AND m.project = $project AND m.session = $session"
                    + " AND m.scope = $scope AND m.version > 0 RETURN count(m) AS n", ns).single().get("n").asInt();
            purgeNamespace(tx, Scope.SESSION);
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

    /**
     * Keyword search through the full-text index: each term quoted (user text is never Lucene syntax), any of them
     * matching. Lucene's score {@code s > 0} becomes {@code s / (1 + s)}, in (0, 1) and in the same order.
     */
    public List<Hit> search(SearchRequest request) {
        List<String> terms = KeywordScorer.terms(request.text());
        if (terms.isEmpty()) {
            return List.of();
        }
        StringBuilder lucene = new StringBuilder();
        for (String term : terms) {
            if (lucene.length() > 0) {
                lucene.append(" OR ");
            }
            lucene.append('"').append(term.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
        }
        Map<String, Object> params = new HashMap<>();
        params.put("store", store);
        params.put("visible", namespaces(request.scopes()));
        params.put("text", lucene.toString());
        params.put("index", Drivers.Schema.FULLTEXT_INDEX);
        List<Hit> hits = read("search", tx -> {
            List<Hit> found = new ArrayList<>();
            tx.run("CALL db.index.fulltext.queryNodes($index, $text) YIELD node, score"
                    + " WHERE node.store = $store AND " + String.format(VISIBLE, "node") + " AND node.version > 0"
                    + " RETURN node, score", params).forEachRemaining(r -> {
                        double raw = r.get("score").asDouble();
                        double score = raw <= 0 ? 0 : Math.min(1.0, raw / (1 + raw));
                        if (score > 0 && score >= request.threshold()) {
                            readable(r.get("node").asNode()).filter(request.filter()::matches)
                                    .ifPresent(e -> found.add(new Hit(e, score)));
                        }
                    });
            return found;
        });
        hits.sort(RANKING);
        return hits.size() > request.limit() ? List.copyOf(hits.subList(0, request.limit())) : List.copyOf(hits);
    }

    // ------------------------------------------------------------------ vectors and semantic search

    /**
     * The prefix of the vector indexes, one per dimension and database ({@code forge_memory_vectors_384} on
     * {@code :Memory(embedding_384)}), each shared by every store of the database whose model has that dimension.
     */
    public static final String VECTOR_INDEX_PREFIX = "forge_memory_vectors_";

    /** The prefix of the vector properties: a node's vector of dimension {@code d} is {@code embedding_d}. */
    static final String VECTOR_PROPERTY_PREFIX = "embedding_";

    /**
     * Removes from {@code m} every vector property but {@code $vectorProperty} (empty: all of them), and properties of
     * earlier layouts ({@code embedding}, {@code zeroVector}); follow with {@code WITH m}.
     */
    private static final String REMOVE_OTHER_VECTORS = " FOREACH (k IN [k IN keys(m) WHERE (k STARTS WITH '"
            + VECTOR_PROPERTY_PREFIX + "' AND k <> $vectorProperty) OR k IN ['embedding', 'zeroVector']] | REMOVE m[k])";

    /** How far Neo4j's single-precision index scores may stray from the exact cosine computed here. */
    private static final double SLACK = 1e-4;

    /** Writes and reads of vectors in batches of this many entries. */
    private static final int BATCH = 500;

    /** How often a reindex sweeps entries that other writers gave another model's vector before it gives up. */
    private static final int MAX_SWEEPS = 10;

    /**
     * Whether this store's vectors are its model's: false only when opened with
     * {@link dev.forge.memory.spi.ProviderContext#openForReindex()} on vectors of another model, until {@link #reindex}
     * has run. Semantic search is refused while false.
     */
    private volatile boolean vectorsCurrent = true;
    /** The fingerprint recorded with the store when it was found to be another model's; for messages. */
    private volatile String recordedFingerprint = "";
    /** Where the embedding block was configured, for {@link IndexModelMismatchException}; may be null. */
    private String configSource;
    private String configField;
    /** One reindex at a time per provider. */
    private final ReentrantLock reindexLock = new ReentrantLock();

    /** The node property this store's model's vectors are kept in; needs a model. */
    String vectorProperty() {
        return VECTOR_PROPERTY_PREFIX + model.dimension();
    }

    /** The vector index of this store's model's dimension; needs a model. */
    String vectorIndex() {
        return VECTOR_INDEX_PREFIX + model.dimension();
    }

    /** The vector of {@code entry}'s {@link SemanticScorer#embeddingText} as stored, or null without a model or for a zero vector. */
    List<Double> embedding(MemoryEntry entry) {
        return model == null ? null : stored(model.embed(SemanticScorer.embeddingText(entry)));
    }

    /** The vectors of {@code entries} as {@link #embedding} makes them, in one call of the model. */
    List<List<Double>> embeddings(List<MemoryEntry> entries) {
        List<List<Double>> vectors = new ArrayList<>(entries.size());
        if (model == null || entries.isEmpty()) {
            entries.forEach(e -> vectors.add(null));
            return vectors;
        }
        for (float[] vector : model.embed(entries.stream().map(SemanticScorer::embeddingText).toList())) {
            vectors.add(stored(vector));
        }
        return vectors;
    }

    /** A vector as a Neo4j list property; null for all zeros, which a cosine index cannot hold and which matches nothing. */
    private static List<Double> stored(float[] vector) {
        List<Double> list = new ArrayList<>(vector.length);
        boolean zero = true;
        for (float component : vector) {
            zero &= component == 0f;
            list.add((double) component);
        }
        return zero ? null : list;
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

    /**
     * Makes the store ready for vectors: creates the vector index of the model's dimension when missing (checked once
     * per driver), then compares the fingerprint recorded in the store's {@code :ForgeMemoryStore} node with the model's.
     * <ul>
     *   <li>The same: entries whose vector is not this model's (written without a model, or by another model's provider
     *       after a reindex) get theirs now.</li>
     *   <li>None recorded, or no live entry holds another model's vector: the store adopts the model, and every entry
     *       gets its vector now, so semantic search never silently misses entries written before.</li>
     *   <li>Otherwise the store's vectors are another model's: {@link IndexModelMismatchException}, unless
     *       {@code forReindex}; then the provider opens, refuses semantic search and waits for {@link #reindex}.</li>
     * </ul>
     *
     * @param forReindex whether the caller opens the store to rebuild it
     * @param source     the config file of the embedding block, or null
     * @param field      the dotted path of the embedding block, or null
     * @throws IndexModelMismatchException if the store's vectors were made by a model of another fingerprint
     * @throws ConfigurationException      if the database's vector index of this dimension has another dimension
     */
    public void prepareVectors(boolean forReindex, String source, String field) {
        this.configSource = source;
        this.configField = field;
        String fingerprint = model.fingerprint();
        int dimension = model.dimension();
        try (Session s = driver.driver().session(driver.sessionConfig())) {
            if (!driver.hasVectorIndex(dimension)) {
                createVectorIndex(s, dimension);
            }
            String recorded = s.executeWrite(tx -> {
                String recordedThere = tx.run("MERGE (s:ForgeMemoryStore {store: $store}) RETURN s.fingerprint AS fingerprint",
                        Map.of("store", store)).single().get("fingerprint").asString("");
                String known = recordedThere.equals(fingerprint) ? recordedThere
                        : EarlierFingerprints.adopt(tx, store, model, recordedThere);
                if (known.equals(fingerprint)) {
                    return known;
                }
                // a store holding no vector of another model (new, or written without a model) takes this one
                long foreign = tx.run("MATCH (m:Memory) WHERE m.store = $store AND m.version > 0"
                        + " AND m.embeddingModel IS NOT NULL AND m.embeddingModel <> $fingerprint RETURN count(m) AS n",
                        Map.of("store", store, "fingerprint", fingerprint)).single().get("n").asLong();
                if (foreign > 0) {
                    return known;
                }
                recordFingerprint(tx);
                return fingerprint;
            }, transactionConfig);
            if (!recorded.equals(fingerprint)) {
                recordedFingerprint = recorded;
                if (!forReindex) {
                    throw mismatch();
                }
                vectorsCurrent = false;
                LOG.info("Store '{}' at {} holds vectors of model '{}'; opened to reindex with '{}'", store, location(),
                        model.describe(recorded), fingerprint);
                return;
            }
        } catch (MemoryException e) {
            throw e;
        } catch (Neo4jException e) {
            if (unavailable(e)) {
                throw new BackendUnavailableException("Cannot prepare the vector index: the Neo4j server at "
                        + location() + " is unreachable (" + e.getMessage() + ").", e);
            }
            throw new StorageException("Cannot prepare the vector index in Neo4j at " + location() + ": " + e.getMessage(), e);
        }
        sweep(n -> { });
    }

    private IndexModelMismatchException mismatch() {
        return new IndexModelMismatchException(provider, location(), recordedFingerprint.isEmpty() ? "(none)"
                : model.describe(recordedFingerprint), model.fingerprint(), configSource, configField);
    }

    /** Records this model as the one that made the store's vectors, in {@code tx}. */
    private void recordFingerprint(TransactionContext tx) {
        tx.run("MERGE (s:ForgeMemoryStore {store: $store}) SET s.fingerprint = $fingerprint, s.dimension = $dimension,"
                + " s.model = $model", Map.of("store", store, "fingerprint", model.fingerprint(),
                "dimension", model.dimension(), "model", model.name())).consume();
    }

    /** Creates the vector index of {@code dimension} when missing (once per driver and dimension) and checks it. */
    private void createVectorIndex(Session s, int dimension) {
        String index = vectorIndex();
        s.run("CREATE VECTOR INDEX " + index + " IF NOT EXISTS FOR (m:Memory) ON m." + vectorProperty()
                + " OPTIONS {indexConfig: {`vector.dimensions`: " + dimension + ", `vector.similarity_function`: 'cosine'}}").consume();
        s.run("CALL db.awaitIndex($name, 60)", Map.of("name", index)).consume();
        List<Record> found = s.run("SHOW VECTOR INDEXES YIELD name, options WHERE name = $name RETURN options",
                Map.of("name", index)).list();
        Object dimensions = found.isEmpty() ? null
                : ((Map<?, ?>) found.get(0).get("options").asMap().get("indexConfig")).get("vector.dimensions");
        if (!(dimensions instanceof Number n) || n.intValue() != dimension) {
            throw new ConfigurationException("The vector index '" + index + "' of the Neo4j database at " + location()
                    + " was made for vectors of " + dimensions + " dimensions, not " + dimension + " as its name says;"
                    + " drop it (DROP INDEX " + index + ") and open the store again to have it made anew.");
        }
        driver.vectorIndexReady(dimension);
    }

    /**
     * Gives every live entry whose vector is not this model's (none, or another model's) this model's, in batches;
     * an entry changed meanwhile keeps the vector its writer made (and is looked at again if that is another model's).
     *
     * @param done told how many entries got a vector, after each batch
     * @return how many entries got a vector
     */
    private long sweep(java.util.function.LongConsumer done) {
        long count = 0;
        while (true) {
            List<Node> nodes = read("find entries without vectors", tx -> tx.run("MATCH (m:Memory) WHERE m.store = $store"
                    + " AND m.version > 0 AND coalesce(m.embeddingModel, '') <> $fingerprint RETURN m LIMIT $batch",
                    Map.of("store", store, "fingerprint", model.fingerprint(), "batch", BATCH)).list(r -> r.get("m").asNode()));
            if (nodes.isEmpty()) {
                return count;
            }
            embedNodes(nodes);
            count += nodes.size();
            done.accept(nodes.size());
        }
    }

    /**
     * Embeds the entries of {@code nodes} with the model and stores the vectors, unless an entry was written since it
     * was read (its writer's vector stands). Vectors of other dimensions go.
     */
    private void embedNodes(List<Node> nodes) {
        List<String> texts = new ArrayList<>(nodes.size());
        for (Node node : nodes) {
            texts.add(readable(node).map(SemanticScorer::embeddingText).orElse(""));
        }
        List<float[]> vectors = model.embed(texts);
        List<Map<String, Object>> updates = new ArrayList<>(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            Node node = nodes.get(i);
            Map<String, Object> update = new HashMap<>();
            update.put("id", node.elementId());
            update.put("rev", embeddedRevision(node));
            update.put("embedding", stored(vectors.get(i)));
            updates.add(update);
        }
        Map<String, Object> params = new HashMap<>();
        params.put("rows", updates);
        params.put("fingerprint", model.fingerprint());
        params.put("vectorProperty", vectorProperty());
        // only the vector changes: the entry, its revision and its snapshot stay, so optimistic transactions are unaffected.
        // The node's lock is taken before its revision is compared: read-committed, a check made first could pass while
        // a writer holding the lock is about to commit, and the vector of the old entry would then overwrite the writer's.
        write("store vectors", tx -> tx.run("UNWIND $rows AS r MATCH (m:Memory) WHERE elementId(m) = r.id"
                + " SET m.lock = true REMOVE m.lock"
                + " WITH m, r WHERE m.version > 0 AND coalesce(m.rev, '') = r.rev"
                + " SET m." + vectorProperty() + " = r.embedding, m.embeddingModel = $fingerprint"
                + " WITH m" + REMOVE_OTHER_VECTORS, params).consume());
        LOG.debug("Stored the vectors of {} entries of store '{}'", updates.size(), store);
    }

    /**
     * The revision of the entry {@link #embedNodes} embeds: the snapshot's, which belongs to the entry read with it
     * (the {@code rev} property may come from another commit), or the property's when the snapshot is unreadable.
     */
    private static String embeddedRevision(Node node) {
        try {
            return revision(node);
        } catch (CorruptEntryException e) {
            return node.get("rev").asString("");
        }
    }

    /**
     * Re-embeds every live entry of the store (every project and session) with the model, in batches of {@value #BATCH}
     * (each one short Neo4j transaction, so readers never wait and a writer of a key waits at most for one batch), then
     * sweeps entries other writers gave another model's vector meanwhile, and only then records the model's fingerprint,
     * in a transaction that first checks no live entry is left with another model's vector. A reindex that stops part
     * way leaves the old fingerprint recorded: the store still counts as the old model's, so opening it with the new
     * model still asks for a reindex, and opening it with the old model re-embeds what was already rebuilt.
     */
    public Reindexing.ReindexResult reindex(Reindexing.Progress progress) {
        Objects.requireNonNull(progress, "progress");
        checkOpen();
        reindexLock.lock();
        try {
            long started = System.nanoTime();
            List<String> ids = read("list the entries to reindex", tx -> tx.run("MATCH (m:Memory) WHERE m.store = $store"
                    + " AND m.version > 0 RETURN elementId(m) AS id", Map.of("store", store)).list(r -> r.get("id").asString()));
            long[] counts = {0, ids.size()}; // done, total
            progress.update(0, counts[1]);
            for (int from = 0; from < ids.size(); from += BATCH) {
                List<String> slice = ids.subList(from, Math.min(ids.size(), from + BATCH));
                List<Node> nodes = read("read entries to reindex", tx -> tx.run("UNWIND $ids AS id MATCH (m:Memory)"
                        + " WHERE elementId(m) = id AND m.store = $store AND m.version > 0 RETURN m",
                        Map.of("ids", slice, "store", store)).list(r -> r.get("m").asNode()));
                if (!nodes.isEmpty()) {
                    embedNodes(nodes);
                }
                counts[0] += nodes.size();
                counts[1] -= slice.size() - nodes.size(); // deleted meanwhile
                progress.update(counts[0], counts[1]);
            }
            for (int round = 0; ; round++) {
                sweep(n -> {
                    counts[0] += n;
                    counts[1] += n;
                    progress.update(counts[0], counts[1]);
                });
                boolean recorded = write("record the embedding model of the store", tx -> {
                    long stale = tx.run("MATCH (m:Memory) WHERE m.store = $store AND m.version > 0"
                            + " AND coalesce(m.embeddingModel, '') <> $fingerprint RETURN count(m) AS n",
                            Map.of("store", store, "fingerprint", model.fingerprint())).single().get("n").asLong();
                    if (stale > 0) {
                        return false;
                    }
                    recordFingerprint(tx);
                    return true;
                });
                if (recorded) {
                    break;
                }
                if (round >= MAX_SWEEPS) {
                    throw new StorageException("Cannot finish reindexing store '" + store + "' at " + location()
                            + ": other writers keep storing vectors of another embedding model. Stop the processes that"
                            + " still use the old model, then run forge-memory reindex again.");
                }
            }
            vectorsCurrent = true;
            recordedFingerprint = model.fingerprint();
            progress.update(counts[0], counts[0]);
            LOG.info("Reindexed {} entries of store '{}' with model '{}'", counts[0], store, model.fingerprint());
            return new Reindexing.ReindexResult(counts[0], model.fingerprint(), Duration.ofNanos(System.nanoTime() - started));
        } finally {
            reindexLock.unlock();
        }
    }

    /**
     * A SEMANTIC or HYBRID search; needs a model. Candidates come from the vector index, fetched in growing numbers
     * until enough visible ones are found; their scores are then computed exactly from the stored vectors and ranked by
     * {@link SemanticScorer}. HYBRID fuses that semantic ranking with this store's keyword ranking ({@link #search})
     * by {@link SemanticScorer}'s reciprocal rank fusion.
     */
    public List<Hit> semanticSearch(SearchRequest request) {
        if (!vectorsCurrent) {
            throw mismatch();
        }
        float[] query = model.embed(request.text());
        EmbeddingModel known = new QueryVector(model, request.text(), query);
        if (request.mode() == SearchMode.SEMANTIC) {
            Map<MemoryEntry, float[]> candidates = nearest(request, query, request.limit());
            return SemanticScorer.rank(request, List.copyOf(candidates.keySet()), known, candidates::get);
        }
        // Both rankings are fused to a depth of ten times the limit (at least 100): deeper ranks add almost nothing to
        // reciprocal rank fusion, and reading them all would read the whole index on a large database.
        int depth = Math.min(SearchRequest.MAX_LIMIT, Math.max(request.limit() * 10, 100));
        SearchRequest semanticOnly = new SearchRequest(request.text(), request.scopes(), SearchMode.SEMANTIC,
                depth, 0.0, request.filter());
        Map<MemoryEntry, float[]> candidates = nearest(semanticOnly, query, depth);
        List<Hit> semantic = SemanticScorer.rank(semanticOnly, List.copyOf(candidates.keySet()), known, candidates::get);
        List<Hit> keyword = search(new SearchRequest(request.text(), request.scopes(), SearchMode.KEYWORD,
                depth, 0.0, request.filter()));
        return SemanticScorer.fuse(request, keyword, semantic);
    }

    /**
     * The visible live entries (with their vectors) among the index's nearest neighbours of {@code query}: the index
     * answers over every store of the database, so it is asked for more and more neighbours until {@code wanted}
     * entries pass the request's filter and threshold with a score no later neighbour can reach or tie, the
     * neighbours' scores fall below what could still be a hit, or the index has no more.
     */
    /** The most neighbours one semantic search asks the vector index for. */
    static final long MAX_NEIGHBOURS = 40_000;

    private Map<MemoryEntry, float[]> nearest(SearchRequest request, float[] query, int wanted) {
        Map<MemoryEntry, float[]> found = new LinkedHashMap<>();
        List<Double> vector = stored(query);
        if (vector == null) {
            return found;
        }
        double floor = Math.max(request.threshold(), 0.0);
        Map<String, Object> params = new HashMap<>();
        params.put("store", store);
        params.put("visible", namespaces(request.scopes()));
        params.put("index", vectorIndex());
        params.put("fingerprint", model.fingerprint());
        params.put("vector", vector);
        long k = Math.max(100L, Math.min((long) wanted * 10, 10_000L));
        while (true) {
            params.put("k", k);
            Record row = read("search by meaning", tx -> tx.run("CALL db.index.vector.queryNodes($index, $k, $vector)"
                    + " YIELD node, score"
                    + " WITH collect(CASE WHEN node.store = $store AND " + String.format(VISIBLE, "node")
                    + " AND node.version > 0 AND node.embeddingModel = $fingerprint THEN node END) AS nodes, count(*) AS total, min(score) AS lowest"
                    + " RETURN nodes, total, lowest", params).single());
            found.clear();
            List<Double> scores = new ArrayList<>();
            for (Value value : row.get("nodes").values()) {
                Node node = value.asNode();
                float[] stored = vector(node.get(vectorProperty()));
                Optional<MemoryEntry> entry = readable(node);
                if (stored == null || stored.length != query.length || entry.isEmpty()) {
                    continue;
                }
                found.put(entry.get(), stored);
                double cosine = SemanticScorer.dot(query, stored);
                if (cosine > 0 && cosine >= request.threshold() && request.filter().matches(entry.get())) {
                    scores.add(cosine);
                }
            }
            long total = row.get("total").asLong();
            if (total < k) {
                return found;
            }
            // Neo4j scores a cosine index by (1 + cosine) / 2
            double lowest = 2 * row.get("lowest").asDouble() - 1;
            if (lowest < floor - SLACK) {
                return found;
            }
            if (scores.size() >= wanted) {
                scores.sort(Comparator.reverseOrder());
                if (scores.get(wanted - 1) > lowest + SLACK) {
                    return found;
                }
            }
            if (k >= MAX_NEIGHBOURS) {
                // Best effort: a filter that keeps few of the nearest entries would otherwise read the whole index.
                return found;
            }
            k = Math.min(k * 4, MAX_NEIGHBOURS);
        }
    }

    /** The model, except that it knows the vector of the query already. */
    private record QueryVector(EmbeddingModel model, String text, float[] vector) implements EmbeddingModel {

        @Override
        public String name() {
            return model.name();
        }

        @Override
        public int dimension() {
            return model.dimension();
        }

        @Override
        public String fingerprint() {
            return model.fingerprint();
        }

        @Override
        public List<float[]> embed(List<String> texts) {
            List<float[]> vectors = new ArrayList<>(texts.size());
            for (String t : texts) {
                vectors.add(t.equals(text) ? vector : model.embed(t));
            }
            return vectors;
        }
    }

    // ------------------------------------------------------------------ history

    /** Every version of the key, oldest first, tombstones left out. */
    public List<MemoryEntry> versions(String key, Scope scope) {
        Objects.requireNonNull(scope, "scope");
        Keys.validate(key);
        return read("read the history of " + describe(key, scope), tx -> {
            List<MemoryEntry> versions = new ArrayList<>();
            Map<String, Object> params = keyParams(scope, key);
            tx.run("MATCH (v:MemoryVersion " + KEY_PROPS + ") WHERE NOT v.tombstone RETURN v ORDER BY v.version", params)
                    .forEachRemaining(r -> versions.add(entry(r.get("v").asNode())));
            tx.run("MATCH (m:Memory " + KEY_PROPS + ") WHERE m.version > 0 RETURN m", params)
                    .forEachRemaining(r -> versions.add(entry(r.get("m").asNode())));
            return List.copyOf(versions);
        });
    }

    /** Erases the key: entry, versions, tombstones and relations. */
    public boolean purge(String key, Scope scope) {
        Objects.requireNonNull(scope, "scope");
        Keys.validate(key);
        return write("purge " + describe(key, scope), tx -> {
            Map<String, Object> params = keyParams(scope, key);
            long removed = tx.run("MATCH (m:Memory " + KEY_PROPS + ") WHERE m.version > 0 DETACH DELETE m RETURN count(*) AS n",
                    params).single().get("n").asLong();
            removed += tx.run("MATCH (v:MemoryVersion " + KEY_PROPS + ") DETACH DELETE v RETURN count(*) AS n", params)
                    .single().get("n").asLong();
            return removed > 0;
        });
    }

    /** Erases every key of the scope's namespace; returns how many keys. */
    public int purge(Scope scope) {
        Objects.requireNonNull(scope, "scope");
        return write("purge the " + scope.id() + " scope", tx -> purgeNamespace(tx, scope));
    }

    private int purgeNamespace(TransactionContext tx, Scope scope) {
        Map<String, Object> ns = namespace(scope);
        String where = " WHERE n.store = $store AND n.project = $project AND n.session = $session AND n.scope = $scope";
        List<String> keys = new ArrayList<>(tx.run("MATCH (n:Memory)" + where + " AND n.version > 0 RETURN n.key AS key", ns)
                .list(r -> r.get("key").asString()));
        keys.addAll(tx.run("MATCH (n:MemoryVersion)" + where + " RETURN DISTINCT n.key AS key", ns).list(r -> r.get("key").asString()));
        tx.run("MATCH (n:Memory)" + where + " AND n.version > 0 DETACH DELETE n", ns).consume();
        tx.run("MATCH (n:MemoryVersion)" + where + " DETACH DELETE n", ns).consume();
        return new LinkedHashSet<>(keys).size();
    }

    // ------------------------------------------------------------------ graph

    private static EntryRef checked(EntryRef ref) {
        Objects.requireNonNull(ref, "entry");
        Keys.validate(ref.key());
        return ref;
    }

    private Map<String, Object> endParams(String prefix, EntryRef ref, Map<String, Object> into) {
        Map<String, Object> ns = keyParams(ref.scope(), ref.key());
        for (String name : List.of("project", "session", "scope", "key")) {
            into.put(prefix + name, ns.get(name));
        }
        into.put("store", store);
        return into;
    }

    private static String end(String prefix) {
        return "{store: $store, project: $" + prefix + "project, session: $" + prefix + "session, scope: $" + prefix
                + "scope, key: $" + prefix + "key}";
    }

    /** Relates two live entries; again returns the stored relation. The type is checked, then used as a dynamic type. */
    public Relation relate(EntryRef from, EntryRef to, String type) {
        checked(from);
        checked(to);
        EntryRules.checkRelationType(type);
        return write("relate " + from + " to " + to, tx -> {
            Map<String, Object> params = endParams("to", to, endParams("from", from, new HashMap<>()));
            params.put("type", type);
            params.put("now", clock.instant().toEpochMilli());
            List<Record> ends = tx.run("OPTIONAL MATCH (a:Memory " + end("from") + ") WHERE a.version > 0"
                    + " OPTIONAL MATCH (b:Memory " + end("to") + ") WHERE b.version > 0"
                    + " RETURN a IS NOT NULL AS a, b IS NOT NULL AS b", params).list();
            boolean a = ends.get(0).get("a").asBoolean();
            boolean b = ends.get(0).get("b").asBoolean();
            if (!a || !b) {
                throw new EntryNotFoundException("Cannot relate " + from + " to " + to + ": there is no entry "
                        + (!a ? from : to) + " that this provider can see. Store it first.");
            }
            long createdAt = tx.run("MATCH (a:Memory " + end("from") + ") MATCH (b:Memory " + end("to") + ")"
                    + " SET a.lock = true REMOVE a.lock SET b.lock = true REMOVE b.lock"
                    + " MERGE (a)-[r:$($type)]->(b) ON CREATE SET r.createdAt = $now RETURN r.createdAt AS createdAt", params)
                    .single().get("createdAt").asLong();
            return new Relation(from, type, to, Instant.ofEpochMilli(createdAt));
        });
    }

    /** Removes one relation. */
    public boolean unrelate(EntryRef from, EntryRef to, String type) {
        checked(from);
        checked(to);
        EntryRules.checkRelationType(type);
        return write("unrelate " + from + " from " + to, tx -> {
            Map<String, Object> params = endParams("to", to, endParams("from", from, new HashMap<>()));
            params.put("type", type);
            return tx.run("MATCH (a:Memory " + end("from") + ")-[r:$($type)]->(b:Memory " + end("to") + ")"
                    + " WHERE a.version > 0 AND b.version > 0 DELETE r RETURN count(r) AS n", params)
                    .single().get("n").asLong() > 0;
        });
    }

    private static String arrow(Direction direction, String inner) {
        return switch (direction) {
            case OUTGOING -> "-[" + inner + "]->";
            case INCOMING -> "<-[" + inner + "]-";
            case BOTH -> "-[" + inner + "]-";
        };
    }

    private static final String RELATION_ROW = " RETURN startNode(r) AS f, type(r) AS type, endNode(r) AS t, r.createdAt AS createdAt";

    private Relation relation(Record row) {
        Node f = row.get("f").asNode();
        Node t = row.get("t").asNode();
        return new Relation(EntryRef.of(f.get("key").asString(), Scope.parse(f.get("scope").asString())), row.get("type").asString(),
                EntryRef.of(t.get("key").asString(), Scope.parse(t.get("scope").asString())),
                Instant.ofEpochMilli(row.get("createdAt").asLong(0)));
    }

    /** The visible relations of an entry, ordered by type, from, to. */
    public List<Relation> relations(EntryRef entry, Direction direction) {
        checked(entry);
        Objects.requireNonNull(direction, "direction");
        return read("read the relations of " + entry, tx -> {
            Map<String, Object> params = endParams("a", entry, visibleParams());
            Set<Relation> found = new TreeSet<>();
            tx.run("MATCH (a:Memory " + end("a") + ")" + arrow(direction, "r") + "(b:Memory)"
                    + " WHERE a.version > 0 AND b.store = $store AND b.version > 0 AND " + String.format(VISIBLE, "b")
                    + RELATION_ROW, params).forEachRemaining(r -> found.add(relation(r)));
            return List.copyOf(found);
        });
    }

    /**
     * Walks from {@code start}: the relations it may follow come from one variable-length match bounded by the depth
     * (a validated integer), and {@link GraphWalker} orders the walk exactly as the contract says.
     */
    public List<GraphPath> traverse(EntryRef start, Traversal traversal) {
        checked(start);
        Objects.requireNonNull(traversal, "traversal");
        List<Relation> edges = read("traverse from " + start, tx -> {
            Map<String, Object> params = endParams("a", start, visibleParams());
            params.put("types", List.copyOf(traversal.types()));
            List<Record> exists = tx.run("MATCH (a:Memory " + end("a") + ") WHERE a.version > 0 RETURN a.key", params).list();
            if (exists.isEmpty()) {
                return null;
            }
            String hop = arrow(traversal.direction(), "rels*1.." + traversal.maxDepth());
            List<Relation> found = new ArrayList<>();
            tx.run("MATCH p = (a:Memory " + end("a") + ")" + hop + "(b:Memory)"
                    + " WHERE a.version > 0 AND all(n IN nodes(p) WHERE n:Memory AND n.store = $store AND n.version > 0"
                    + " AND " + String.format(VISIBLE, "n") + ")"
                    + " AND (size($types) = 0 OR all(x IN rels WHERE type(x) IN $types))"
                    + " UNWIND rels AS r WITH DISTINCT r" + RELATION_ROW, params).forEachRemaining(r -> found.add(relation(r)));
            return found;
        });
        if (edges == null) {
            return List.of();
        }
        return GraphWalker.traverse(start, traversal, edges);
    }
}
