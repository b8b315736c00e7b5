package dev.forge.memory.graph;

import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import dev.forge.memory.Capability;
import dev.forge.memory.Hit;
import dev.forge.memory.IndexModelMismatchException;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.graph.internal.Drivers;
import dev.forge.memory.graph.internal.GraphHistory;
import dev.forge.memory.graph.internal.GraphRelations;
import dev.forge.memory.graph.internal.GraphStore;
import dev.forge.memory.graph.internal.GraphVectors;
import dev.forge.memory.graph.internal.GraphTransactions;
import dev.forge.memory.EntryRules;
import dev.forge.memory.support.StoreBackedMemoryProvider;
import dev.forge.memory.support.Facets;
import dev.forge.memory.support.tx.OptimisticTransaction;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;

/**
 * The {@code graph} provider: memories in a Neo4j database over Bolt (neo4j-java-driver 6), with typed relations,
 * bounded traversal, full-text keyword search, transactions, history with tombstones and restore of exported keys.
 *
 * <h2>Data model</h2>
 * <ul>
 *   <li>One {@code :Memory} node per live entry: {@code store, project, session, scope, key, value, tags} (a list),
 *       {@code tagText} (the tags joined, for the full-text index), {@code metadata} (a JSON string),
 *       {@code createdAt, updatedAt} (epoch milliseconds), {@code version} and {@code rev} (a random id that changes at
 *       every write, for optimistic transactions). GLOBAL nodes have project and session {@code ''}, PROJECT nodes
 *       session {@code ''}. A uniqueness constraint holds on {@code (store, project, session, scope, key)}.</li>
 *   <li>Earlier versions as {@code :MemoryVersion} nodes with the same properties, chained newest to oldest by
 *       {@code SUPERSEDES} from the {@code :Memory} node; a deletion adds a tombstone version
 *       ({@code tombstone: true}) and removes the {@code :Memory} node with its relations. Purge erases them all. A restore
 *       ({@link #restoring()}) replaces the version and tombstone nodes of the key with the versions given and writes the
 *       last one into the {@code :Memory} node, in one write transaction; the node stays, and with it its relations.</li>
 *   <li>A relation is a Neo4j relationship whose type is the relation type (checked by
 *       {@link dev.forge.memory.EntryRules#checkRelationType}, then passed as a Cypher dynamic type
 *       {@code $(...)}), with {@code createdAt}.</li>
 *   <li>Constraint, indexes and the full-text index {@code forge_memory_text} (key, value, tags) are created with
 *       {@code IF NOT EXISTS} when the first provider of a JVM connects.</li>
 * </ul>
 * The {@code store} setting ({@link GraphConfig#store()}) separates stores on one database: only providers with the same
 * store id see each other's entries, GLOBAL included.
 *
 * <h2>Threads and processes</h2>
 * Safe for many threads and processes: each write is one Neo4j transaction that first takes the write lock of the key's
 * node (created under the uniqueness constraint when missing), so writers of one key queue on the server; the driver
 * retries transient failures such as deadlocks. Reads are read-committed.
 *
 * <h2>Transactions</h2>
 * Optimistic, as in the {@code sqlite} provider: writes are buffered, and commit is one Neo4j transaction that locks the
 * touched keys, checks their revisions are unchanged since first touched and applies everything, or fails with
 * {@link dev.forge.memory.ConflictException} and applies nothing.
 *
 * <h2>Search</h2>
 * Keyword search through the full-text index (Lucene's standard analyser without stop words): terms as
 * {@link dev.forge.memory.support.KeywordScorer#terms} splits them, each quoted, any matching; a hit's score is Lucene's
 * {@code s} mapped to {@code s / (1 + s)}, in (0, 1).
 *
 * <p>Semantic and hybrid search (and {@link Capability#REINDEX}) are offered when the config has an {@code embedding}
 * block naming an {@link EmbeddingModel}. Every live entry then carries the model's vector of its key, tags and value
 * ({@link dev.forge.memory.support.SemanticScorer#embeddingText}) as {@code embedding_<dimension>}, made before the Neo4j
 * transaction (a transaction's at commit, one model call for all its writes), and the model's fingerprint as
 * {@code embeddingModel}. Each dimension has its own cosine vector index {@code forge_memory_vectors_<dimension>},
 * shared by the stores of the database; semantic search only reads vectors tagged with its model's fingerprint.
 *
 * <h2>Model fingerprint and reindex</h2>
 * The fingerprint of the model that made a store's vectors is recorded in its {@code :ForgeMemoryStore {store,
 * fingerprint, dimension, model}} node. Opening with a model of another fingerprint throws
 * {@link IndexModelMismatchException} (both fingerprints, and {@code forge-memory reindex}), unless
 * {@link ProviderContext#openForReindex()}: then the provider opens, refuses semantic and hybrid search with that same
 * exception, and {@link #reindexing()} re-embeds every live entry of the store (all projects and sessions) in batches
 * of short transactions (readers never wait; a writer of a key waits at most for one batch; an entry written meanwhile
 * keeps its writer's vector) and records the new fingerprint only once no live entry is left with another model's
 * vector. A reindex that stops part way leaves the old fingerprint: the store still asks for a reindex when opened with
 * the new model, and opened with the old model it re-embeds what was already rebuilt. A store with no recorded
 * fingerprint or no vector of another model (new, or written without a model) adopts the configured model, and every
 * entry without this model's vector gets it while the provider opens, so semantic search never silently misses
 * entries written before a model was configured.
 *
 * <p>A semantic hit's score is the exact cosine similarity of the stored vectors (the index only finds the candidates;
 * hits need a cosine above zero, and {@code threshold} applies to it); hybrid search fuses the full-text ranking with
 * the semantic one by {@link dev.forge.memory.support.SemanticScorer}'s reciprocal rank fusion, {@code threshold}
 * applying to the fused score. Without a model, semantic and hybrid search are refused.
 */
public final class GraphMemoryProvider extends StoreBackedMemoryProvider {

    /** The name this provider is selected by. */
    public static final String NAME = "graph";

    static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(Capability.KEYWORD_SEARCH, Capability.GRAPH,
            Capability.TRANSACTIONS, Capability.HISTORY, Capability.TOMBSTONES, Capability.RESTORE));

    private static final Set<Capability> WITH_SEMANTIC = Set.copyOf(EnumSet.of(Capability.KEYWORD_SEARCH,
            Capability.SEMANTIC_SEARCH, Capability.REINDEX, Capability.GRAPH, Capability.TRANSACTIONS, Capability.HISTORY,
            Capability.TOMBSTONES, Capability.RESTORE));

    private final GraphStore store;
    private final GraphConfig config;
    private final ProviderContext context;
    /** The semantic side, with an embedding model; null without. */
    private final GraphVectors vectors;

    private GraphMemoryProvider(GraphStore store, GraphConfig config, ProviderContext context, GraphVectors vectors) {
        super(store);
        this.vectors = vectors;
        this.store = store;
        this.config = config;
        this.context = context;
        GraphRelations relations = new GraphRelations(store);
        offerGraph(Facets.graph(relations::relate, relations::unrelate, relations::relations, relations::traverse));
        GraphHistory history = new GraphHistory(store);
        offerHistory(Facets.history(history::versions, history::purge, history::purge));
        GraphTransactions backend = new GraphTransactions(store, context.clock());
        offerTransactions(() -> OptimisticTransaction.begin(backend));
        /*
         * A restore writes a key back as exported: one Neo4j write transaction that replaces the key's live entry,
         * versions and tombstones with the versions given and keeps its node, so its relations stay; with an embedding
         * model the restored current entry gets its vector. The new revision it stores makes optimistic transactions
         * that read the key before conflict.
         */
        offerRestoring(this::restore);
        if (vectors != null) {
            // Re-embeds every live entry of the store (every project and session), then records the model's fingerprint.
            offerReindexing(vectors::reindex);
        }
    }

    /**
     * Connects to the server {@code config} names, creating the schema when missing.
     *
     * @throws dev.forge.memory.BackendUnavailableException if the server cannot be reached within the connect timeout
     */
    public static GraphMemoryProvider open(ProviderContext context, GraphConfig config) {
        return open(context, config, Optional.empty());
    }

    /**
     * Connects to the server {@code config} names, creating the schema when missing; with a {@code model}, also the
     * vector index of its dimension, and checks the model's fingerprint against the store's (see the class comment).
     * The provider closes the model.
     *
     * @throws dev.forge.memory.BackendUnavailableException if the server cannot be reached within the connect timeout
     * @throws IndexModelMismatchException                  if the store's vectors were made by a model of another
     *                                                      fingerprint and {@link ProviderContext#openForReindex()} is off
     * @throws dev.forge.memory.ConfigurationException      if the database's vector index of the model's dimension was
     *                                                      made with another dimension
     */
    public static GraphMemoryProvider open(ProviderContext context, GraphConfig config, Optional<EmbeddingModel> model) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(model, "model");
        Drivers.Shared driver = Drivers.acquire(new Drivers.Settings(config.url(), config.username(), config.password(),
                config.database(), config.poolSize(), config.connectTimeout().toMillis(), config.retryTime().toMillis()));
        GraphStore store = new GraphStore(NAME, driver, context.clock(), config.store(), context.projectId(),
                context.sessionId(), dev.forge.memory.Limits.DEFAULT, config.queryTimeout().duration(), model.orElse(null));
        GraphVectors vectors = null;
        if (model.isPresent()) {
            try {
                Optional<ProviderConfig> block = context.config().child(GraphConfig.EMBEDDING);
                vectors = new GraphVectors(store);
                vectors.prepareVectors(context.openForReindex(), block.map(ProviderConfig::source).orElse(null),
                        block.map(ProviderConfig::path).orElse(null));
            } catch (RuntimeException e) {
                store.close();
                throw e;
            }
        }
        return new GraphMemoryProvider(store, config, context, vectors);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The settings this provider was opened with. */
    public GraphConfig config() {
        return config;
    }

    /**
     * Keyword search through the full-text index, semantic and hybrid search through the vector index; see the class
     * comment for the scores.
     *
     * @throws UnsupportedCapabilityException for semantic and hybrid search without an embedding model
     */
    @Override
    public List<Hit> search(SearchRequest request) {
        Objects.requireNonNull(request, "request");
        store.checkOpen();
        if (request.mode() == SearchMode.KEYWORD) {
            return store.search(request);
        }
        if (vectors == null) {
            throw new UnsupportedCapabilityException(NAME, request.mode().requiredCapability());
        }
        return vectors.semanticSearch(request);
    }

    @Override
    public Set<Capability> capabilities() {
        return vectors != null ? WITH_SEMANTIC : CAPABILITIES;
    }

    /** Gives the shared driver back; it closes with the last provider of this JVM using it. Idempotent. */
    @Override
    public void close() {
        store.close();
    }

    @Override
    public String toString() {
        return "GraphMemoryProvider[" + store.location() + "]";
    }
}
