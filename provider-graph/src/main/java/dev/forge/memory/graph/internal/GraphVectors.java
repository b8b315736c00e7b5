package dev.forge.memory.graph.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.TransactionConfig;
import org.neo4j.driver.TransactionContext;
import org.neo4j.driver.Value;
import org.neo4j.driver.exceptions.Neo4jException;
import org.neo4j.driver.types.Node;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.Hit;
import dev.forge.memory.IndexModelMismatchException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.Reindexing;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StorageException;
import dev.forge.memory.support.FusionMethod;
import dev.forge.memory.support.QueryEmbedding;
import dev.forge.memory.support.SearchText;
import dev.forge.memory.support.SemanticScorer;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.SearchMode;
import dev.forge.memory.embedding.EmbeddingModel;

/**
 * The semantic side of a {@link GraphStore} with an embedding model: the vector index, the model's fingerprint
 * recorded with the store, sweeps and reindexing, and searches by meaning.
 */
public final class GraphVectors {

    private static final Logger LOG = LoggerFactory.getLogger(GraphVectors.class);

    private final GraphStore graph;
    private final Drivers.Shared driver;
    private final String store;
    private final String provider;
    private final EmbeddingModel model;
    private final TransactionConfig transactionConfig;
    private final FusionMethod fusion;
    private final int rrfK;
    private final double keywordWeight;

    /**
     * The vectors of {@code graph}'s entries, made by its model (which it must have); HYBRID search fuses by
     * {@code fusion} with {@code rrfK} and {@code keywordWeight} (see {@link SemanticScorer#fuse(SearchRequest, List,
     * List, FusionMethod, int, double)}).
     */
    public GraphVectors(GraphStore graph, FusionMethod fusion, int rrfK, double keywordWeight) {
        this.fusion = Objects.requireNonNull(fusion, "fusion");
        this.rrfK = rrfK;
        this.keywordWeight = keywordWeight;
        this.graph = graph;
        this.driver = graph.driver();
        this.store = graph.storeName();
        this.provider = graph.provider();
        this.model = Objects.requireNonNull(graph.model(), "model");
        this.transactionConfig = graph.transactionConfig();
    }

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
                LOG.info("Store '{}' at {} holds vectors of model '{}'; opened to reindex with '{}'", store, graph.location(),
                        model.describe(recorded), fingerprint);
                return;
            }
        } catch (MemoryException e) {
            throw e;
        } catch (Neo4jException e) {
            if (GraphStore.unavailable(e)) {
                throw new BackendUnavailableException("Cannot prepare the vector index: the Neo4j server at "
                        + graph.location() + " is unreachable (" + e.getMessage() + ").", e);
            }
            throw new StorageException("Cannot prepare the vector index in Neo4j at " + graph.location() + ": " + e.getMessage(), e);
        }
        sweep(n -> { });
    }

    private IndexModelMismatchException mismatch() {
        return new IndexModelMismatchException(provider, graph.location(), recordedFingerprint.isEmpty() ? "(none)"
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
        String index = graph.vectorIndex();
        s.run("CREATE VECTOR INDEX " + index + " IF NOT EXISTS FOR (m:Memory) ON m." + graph.vectorProperty()
                + " OPTIONS {indexConfig: {`vector.dimensions`: " + dimension + ", `vector.similarity_function`: 'cosine'}}").consume();
        s.run("CALL db.awaitIndex($name, 60)", Map.of("name", index)).consume();
        List<Record> found = s.run("SHOW VECTOR INDEXES YIELD name, options WHERE name = $name RETURN options",
                Map.of("name", index)).list();
        Object dimensions = found.isEmpty() ? null
                : ((Map<?, ?>) found.get(0).get("options").asMap().get("indexConfig")).get("vector.dimensions");
        if (!(dimensions instanceof Number n) || n.intValue() != dimension) {
            throw new ConfigurationException("The vector index '" + index + "' of the Neo4j database at " + graph.location()
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
            List<Node> nodes = graph.read("find entries without vectors", tx -> tx.run("MATCH (m:Memory) WHERE m.store = $store"
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
            texts.add(graph.readable(node).map(SearchText.DEFAULT::text).orElse(""));
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
        params.put("vectorProperty", graph.vectorProperty());
        // only the vector changes: the entry, its revision and its snapshot stay, so optimistic transactions are unaffected.
        // The node's lock is taken before its revision is compared: read-committed, a check made first could pass while
        // a writer holding the lock is about to commit, and the vector of the old entry would then overwrite the writer's.
        graph.write("store vectors", tx -> tx.run("UNWIND $rows AS r MATCH (m:Memory) WHERE elementId(m) = r.id"
                + " SET m.lock = true REMOVE m.lock"
                + " WITH m, r WHERE m.version > 0 AND coalesce(m.rev, '') = r.rev"
                + " SET m." + graph.vectorProperty() + " = r.embedding, m.embeddingModel = $fingerprint"
                + " WITH m" + GraphStore.REMOVE_OTHER_VECTORS, params).consume());
        LOG.debug("Stored the vectors of {} entries of store '{}'", updates.size(), store);
    }

    /**
     * The revision of the entry {@link #embedNodes} embeds: the snapshot's, which belongs to the entry read with it
     * (the {@code rev} property may come from another commit), or the property's when the snapshot is unreadable.
     */
    private static String embeddedRevision(Node node) {
        try {
            return GraphStore.revision(node);
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
        graph.checkOpen();
        reindexLock.lock();
        try {
            long started = System.nanoTime();
            List<String> ids = graph.read("list the entries to reindex", tx -> tx.run("MATCH (m:Memory) WHERE m.store = $store"
                    + " AND m.version > 0 RETURN elementId(m) AS id", Map.of("store", store)).list(r -> r.get("id").asString()));
            long[] counts = {0, ids.size()}; // done, total
            progress.update(0, counts[1]);
            for (int from = 0; from < ids.size(); from += BATCH) {
                List<String> slice = ids.subList(from, Math.min(ids.size(), from + BATCH));
                List<Node> nodes = graph.read("read entries to reindex", tx -> tx.run("UNWIND $ids AS id MATCH (m:Memory)"
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
                boolean recorded = graph.write("record the embedding model of the store", tx -> {
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
                    throw new StorageException("Cannot finish reindexing store '" + store + "' at " + graph.location()
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
     * {@link SemanticScorer}. HYBRID fuses that semantic ranking with this store's keyword ranking ({@link GraphStore#search})
     * by the configured {@link FusionMethod}, as the other providers do.
     */
    public List<Hit> semanticSearch(SearchRequest request) {
        if (!vectorsCurrent) {
            throw mismatch();
        }
        float[] query = QueryEmbedding.vectorOfQuery(model, request.text());
        EmbeddingModel known = new QueryVector(model, request.text(), query);
        if (request.mode() == SearchMode.SEMANTIC) {
            Map<MemoryEntry, float[]> candidates = nearest(request, query, request.limit());
            return SemanticScorer.rank(request, List.copyOf(candidates.keySet()), known, candidates::get);
        }
        // Both rankings are fused to a depth of ten times the limit (at least 100): deeper ranks add almost nothing to
        // the fused top, and reading them all would read the whole index on a large database.
        int depth = Math.min(SearchRequest.MAX_LIMIT, Math.max(request.limit() * 10, 100));
        SearchRequest semanticOnly = new SearchRequest(request.text(), request.scopes(), SearchMode.SEMANTIC,
                depth, 0.0, request.filter());
        Map<MemoryEntry, float[]> candidates = nearest(semanticOnly, query, depth);
        List<Hit> semantic = SemanticScorer.rank(semanticOnly, List.copyOf(candidates.keySet()), known, candidates::get);
        List<Hit> keyword = graph.search(new SearchRequest(request.text(), request.scopes(), SearchMode.KEYWORD,
                depth, 0.0, request.filter()));
        return SemanticScorer.fuse(request, keyword, semantic, fusion, rrfK, keywordWeight);
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
        params.put("visible", graph.namespaces(request.scopes()));
        params.put("index", graph.vectorIndex());
        params.put("fingerprint", model.fingerprint());
        params.put("vector", vector);
        long k = Math.max(100L, Math.min((long) wanted * 10, 10_000L));
        while (true) {
            params.put("k", k);
            Record row = graph.read("search by meaning", tx -> tx.run("CALL db.index.vector.queryNodes($index, $k, $vector)"
                    + " YIELD node, score"
                    + " WITH collect(CASE WHEN node.store = $store AND " + String.format(GraphStore.VISIBLE, "node")
                    + " AND node.version > 0 AND node.embeddingModel = $fingerprint THEN node END) AS nodes, count(*) AS total, min(score) AS lowest"
                    + " RETURN nodes, total, lowest", params).single());
            found.clear();
            List<Double> scores = new ArrayList<>();
            for (Value value : row.get("nodes").values()) {
                Node node = value.asNode();
                float[] stored = GraphStore.vector(node.get(graph.vectorProperty()));
                Optional<MemoryEntry> entry = graph.readable(node);
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

    /** The vectors of {@code entries} as {@link GraphStore#embedding} makes them; none without a model, in one call of the model. */
    static List<List<Double>> embeddings(EmbeddingModel model, List<MemoryEntry> entries) {
        List<List<Double>> vectors = new ArrayList<>(entries.size());
        if (model == null || entries.isEmpty()) {
            entries.forEach(e -> vectors.add(null));
            return vectors;
        }
        for (float[] vector : model.embed(entries.stream().map(SearchText.DEFAULT::text).toList())) {
            vectors.add(stored(vector));
        }
        return vectors;
    }

    /** A vector as a Neo4j list property; null for all zeros, which a cosine index cannot hold and which matches nothing. */
    static List<Double> stored(float[] vector) {
        List<Double> list = new ArrayList<>(vector.length);
        boolean zero = true;
        for (float component : vector) {
            zero &= component == 0f;
            list.add((double) component);
        }
        return zero ? null : list;
    }
}
