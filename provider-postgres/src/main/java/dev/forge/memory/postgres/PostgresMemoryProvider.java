package dev.forge.memory.postgres;

import dev.forge.memory.Capability;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Hit;
import dev.forge.memory.IndexModelMismatchException;
import dev.forge.memory.Limits;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.forge.memory.postgres.internal.PgDatabase;
import dev.forge.memory.postgres.internal.PgDocuments;
import dev.forge.memory.postgres.internal.PgGraph;
import dev.forge.memory.postgres.internal.PgMaintenance;
import dev.forge.memory.postgres.internal.PgStore;
import dev.forge.memory.postgres.internal.PgTransactions;
import dev.forge.memory.postgres.internal.PgVectorReindex;
import dev.forge.memory.postgres.internal.PgVectorSearch;
import dev.forge.memory.postgres.internal.PgVectors;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.support.Facets;
import dev.forge.memory.support.StoreBackedMemoryProvider;
import dev.forge.memory.support.tx.OptimisticTransaction;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code postgres} provider: memories in a PostgreSQL database (15 or newer) on the JDBC driver with a HikariCP
 * pool. All scopes live in one schema: PROJECT and SESSION entries apart per project and session, GLOBAL entries
 * shared by every project whose provider names the same database and schema. Many processes on many machines may
 * use one schema at once: every write is one SQL transaction, and writers of one key queue on an advisory lock.
 *
 * <p>The schema is versioned and brought up to date when a provider opens; tables written by a newer forge-memory are
 * refused and left untouched. Keyword search runs on {@code tsvector} documents in the configured {@code language}.
 * With an {@code embedding} block (and the pgvector extension on the server) every entry's vector is stored in the
 * transaction of its write and SEMANTIC and HYBRID search are offered, with {@link dev.forge.memory.Reindexing} to
 * change models; without one they are refused. Transactions are optimistic: nothing is locked until
 * {@link dev.forge.memory.MemoryTransaction#commit()}, which in one SQL transaction checks that no key it touched
 * changed and applies every write, or fails with {@link dev.forge.memory.ConflictException} and applies nothing.
 * {@link #fieldIndexing()} adds an expression index on one metadata field.
 *
 * <p>A server that is down or unreachable fails every call with {@link dev.forge.memory.BackendUnavailableException}
 * naming host and port; the password never appears in a message. Settings, schema and scores:
 * docs/providers/postgres.md.
 */
public final class PostgresMemoryProvider extends StoreBackedMemoryProvider {

    /** The name this provider is selected by. */
    public static final String NAME = "postgres";

    static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(Capability.KEYWORD_SEARCH, Capability.GRAPH,
            Capability.TRANSACTIONS, Capability.HISTORY, Capability.TOMBSTONES, Capability.RESTORE, Capability.FIELD_INDEX));

    /** What a provider with an {@code embedding} block reports: semantic search and reindex besides the rest. */
    static final Set<Capability> SEMANTIC_CAPABILITIES = Set.copyOf(EnumSet.of(Capability.KEYWORD_SEARCH,
            Capability.SEMANTIC_SEARCH, Capability.REINDEX, Capability.GRAPH, Capability.TRANSACTIONS, Capability.HISTORY,
            Capability.TOMBSTONES, Capability.RESTORE, Capability.FIELD_INDEX));

    private final PgStore store;
    private final PostgresConfig config;
    private final PgVectors vectors;
    private final PgVectorSearch vectorSearch;
    private final String modelSource;
    private final String modelField;

    private PostgresMemoryProvider(PgStore store, PostgresConfig config, ProviderContext context, PgVectors vectors,
            String modelField) {
        super(store);
        this.store = store;
        this.config = config;
        this.vectors = vectors;
        this.vectorSearch = new PgVectorSearch(store, vectors, config.fusion(), config.rrfK(), config.keywordWeight());
        this.modelSource = context.config().source();
        this.modelField = modelField;
        if (vectors.model().isPresent()) {
            offerReindexing(new PgVectorReindex(store, vectors)::reindex);
        }
        PgGraph relations = new PgGraph(store);
        offerGraph(Facets.graph(relations::relate, relations::unrelate, relations::relations, relations::traverse,
                relations::restore));
        offerHistory(Facets.history(store::versions, store::purge, store::purge, store::deletedKeys));
        PgTransactions backend = new PgTransactions(store, context.clock());
        offerTransactions(() -> OptimisticTransaction.begin(backend));
        offerRestoring(restorer());
        PgMaintenance maintenance = new PgMaintenance(store);
        offerFieldIndexing(Facets.fieldIndexing(store::checkOpen, maintenance::index));
    }

    /**
     * Opens a provider on the database and schema {@code config} names for the project and session of {@code context},
     * creating the schema and its tables when missing and migrating them.
     *
     * @throws dev.forge.memory.ConfigurationException      for a bad URL, a refused login, a missing database, an
     *                                                      unknown language or embedding model, an {@code embedding}
     *                                                      block on a server without pgvector or a login that may not
     *                                                      create the extension
     * @throws IndexModelMismatchException                  if the store's vectors were made by another model and the
     *                                                      context is not opened for reindex
     * @throws dev.forge.memory.BackendUnavailableException if the server cannot be reached within
     *                                                      {@code connect_timeout}, or a newer forge-memory wrote the
     *                                                      tables
     */
    public static PostgresMemoryProvider open(ProviderContext context, PostgresConfig config) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(config, "config");
        Optional<EmbeddingModel> model = config.openModel(context.config());
        PgDatabase database;
        try {
            database = PgDatabase.open(config);
        } catch (ConfigurationException e) {
            model.ifPresent(EmbeddingModel::close);
            throw located(context, e);
        }
        PgDocuments documents = new PgDocuments(config.language(), config.searchFields());
        PgVectors vectors = model.map(PgVectors::of).orElseGet(PgVectors::none);
        String block = context.config().path();
        String field = block == null || block.isBlank() ? PostgresConfig.EMBEDDING : block + "." + PostgresConfig.EMBEDDING;
        try {
            PgMaintenance.prepare(database, documents, vectors, context.openForReindex(), context.config().source(), field);
            PgStore store = new PgStore(NAME, database, context.clock(), context.projectId(), context.sessionId(),
                    Limits.DEFAULT, documents, vectors);
            PostgresMemoryProvider provider = new PostgresMemoryProvider(store, config, context, vectors, field);
            new PgVectorReindex(store, vectors).catchUp();
            return provider;
        } catch (IndexModelMismatchException e) {
            close(database, model);
            throw e;
        } catch (ConfigurationException e) {
            close(database, model);
            throw located(context, e);
        } catch (RuntimeException e) {
            close(database, model);
            throw e;
        }
    }

    private static void close(PgDatabase database, Optional<EmbeddingModel> model) {
        database.close();
        model.ifPresent(EmbeddingModel::close);
    }

    /** {@code e} saying which file and block it is about (a hybrid router's {@code storage} block, for one). */
    private static ConfigurationException located(ProviderContext context, ConfigurationException e) {
        String source = context.config().source();
        String block = context.config().path();
        if (source == null || source.isBlank()) {
            return e;
        }
        String field = e.field().map(f -> block == null || block.isBlank() ? f : block + "." + f).orElse(block);
        return new ConfigurationException(source + (block == null || block.isBlank() ? "" : " (" + block + ")") + ": "
                + e.getMessage(), source, field, e);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The settings this provider was opened with (their {@code toString} masks the password). */
    public PostgresConfig config() {
        return config;
    }

    /**
     * Keyword search on the {@code tsvector} documents; with an embedding model, semantic search on the pgvector
     * vectors and hybrid search fusing both. See docs/providers/postgres.md for the scores.
     *
     * @throws UnsupportedCapabilityException for semantic and hybrid search without an {@code embedding} block
     * @throws IndexModelMismatchException    for semantic and hybrid search when opened for reindex on another
     *                                        model's vectors, until the reindex is done
     */
    @Override
    public List<Hit> search(SearchRequest request) {
        Objects.requireNonNull(request, "request");
        store.checkOpen();
        if (request.mode() == SearchMode.KEYWORD) {
            return PgMaintenance.search(store, request);
        }
        EmbeddingModel model = vectors.model()
                .orElseThrow(() -> new UnsupportedCapabilityException(NAME, request.mode().requiredCapability()));
        if (!vectors.ready()) {
            throw new IndexModelMismatchException(NAME, store.database().describe(), model.describe(vectors.recorded()),
                    model.fingerprint(), modelSource, modelField);
        }
        return vectorSearch.search(request);
    }

    @Override
    public Set<Capability> capabilities() {
        return vectors.model().isPresent() ? SEMANTIC_CAPABILITIES : CAPABILITIES;
    }

    /** The embedding model of the {@code embedding} block, if the provider has one. */
    public Optional<EmbeddingModel> embeddingModel() {
        return vectors.model();
    }

    /** Closes the pool and its connections, and the embedding model. Idempotent. */
    @Override
    public synchronized void close() {
        if (!store.isClosed()) {
            store.close();
            vectors.model().ifPresent(EmbeddingModel::close);
        }
    }

    @Override
    public String toString() {
        return "PostgresMemoryProvider[" + store.database().describe() + "]";
    }
}
