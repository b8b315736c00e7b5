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
 * <p>The {@code store} setting ({@link GraphConfig#store()}) separates stores on one database: only providers with the
 * same store id see each other's entries, GLOBAL included. A relation type is checked by
 * {@link dev.forge.memory.EntryRules#checkRelationType} before it reaches Cypher.
 *
 * <p>Safe for many threads and processes: each write is one Neo4j transaction that locks the key's node, so writers of
 * one key queue on the server; reads are read-committed. Transient failures are retried for {@code retry_time}, then
 * fail with {@link dev.forge.memory.BackendUnavailableException}. Transactions are optimistic: commit locks the touched
 * keys, checks they are unchanged since first touched and applies everything, or fails with
 * {@link dev.forge.memory.ConflictException} and applies nothing. A restore ({@link #restoring()}) is one write
 * transaction and keeps the key's relations.
 *
 * <p>Semantic and hybrid search (and {@link Capability#REINDEX}) are offered when the config names an
 * {@link EmbeddingModel}; without one they throw {@link UnsupportedCapabilityException}. Opening a store whose vectors
 * another model made throws {@link IndexModelMismatchException} unless {@link ProviderContext#openForReindex()}, after
 * which {@link #reindexing()} re-embeds the store; a reindex that stops part way leaves it the old model's.
 *
 * <p>Data model, indexes, search scores, reindex and settings: docs/providers/graph.md.
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
        offerGraph(Facets.graph(relations::relate, relations::unrelate, relations::relations, relations::traverse,
                relations::restore));
        GraphHistory history = new GraphHistory(store);
        offerHistory(Facets.history(history::versions, history::purge, history::purge, history::deletedKeys));
        GraphTransactions backend = new GraphTransactions(store, context.clock());
        offerTransactions(() -> OptimisticTransaction.begin(backend));
        /*
         * A restore writes a key back as exported: one Neo4j write transaction that replaces the key's live entry,
         * versions and tombstones with the versions given and keeps its node, so its relations stay; with an embedding
         * model the restored current entry gets its vector. The new revision it stores makes optimistic transactions
         * that read the key before conflict.
         */
        offerRestoring(restorer());
        if (vectors != null) {
            // Re-embeds every live entry of the store (every project and session), then records the model's fingerprint.
            offerReindexing(vectors::reindex);
        }
    }

    /** What identifies the shared driver {@code config} uses (providers with equal settings share one). */
    static Drivers.Settings driverSettings(GraphConfig config) {
        return new Drivers.Settings(config.url(), config.username(), config.password(), config.database(),
                config.poolSize(), config.connectTimeout().toMillis(), config.retryTime().toMillis());
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
        Drivers.Shared driver = Drivers.acquire(driverSettings(config));
        GraphStore store = new GraphStore(NAME, driver, context.clock(), config.store(), context.projectId(),
                context.sessionId(), dev.forge.memory.Limits.DEFAULT, config.queryTimeout().duration(), model.orElse(null),
                config.searchFields());
        GraphVectors vectors = null;
        try {
            store.prepareSearchText();
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        if (model.isPresent()) {
            try {
                Optional<ProviderConfig> block = context.config().child(GraphConfig.EMBEDDING);
                vectors = new GraphVectors(store, config.fusion(), config.rrfK(), config.keywordWeight());
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
