package dev.forge.memory.sqlite;

import dev.forge.memory.Capability;
import dev.forge.memory.Hit;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StorageException;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.forge.memory.Scope;
import dev.forge.memory.sqlite.internal.Database;
import dev.forge.memory.sqlite.internal.GlobalMove;
import dev.forge.memory.sqlite.internal.GlobalStoreErrors;
import dev.forge.memory.sqlite.internal.ScopedGraph;
import dev.forge.memory.sqlite.internal.ScopedStores;
import dev.forge.memory.sqlite.internal.SqliteMaintenance;
import dev.forge.memory.sqlite.internal.SqlitePages;
import dev.forge.memory.sqlite.internal.SqliteStore;
import dev.forge.memory.sqlite.internal.SqliteTransactions;
import dev.forge.memory.support.StoreBackedMemoryProvider;
import dev.forge.memory.support.Facets;
import dev.forge.memory.support.KeyPages;
import dev.forge.memory.support.tx.OptimisticTransaction;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code sqlite} provider: memories in embedded SQLite database files (sqlite-jdbc), with keyword search by FTS5,
 * real transactions, full history with tombstones and typed relations. PROJECT and SESSION entries live in the project
 * database ({@code path}); GLOBAL entries in the global database ({@code global_path}, by default
 * {@code $FORGE_HOME/memory.db}), shared by every project of the user. One file holds many projects and sessions apart,
 * and when both settings name one file it holds everything. GLOBAL entries a project database kept from before are
 * moved to the global database when the provider opens.
 *
 * <p>The schema is versioned and brought up to date when a provider opens the file; a file written by a newer
 * forge-memory, or one that is not a SQLite database, is refused and left untouched.
 *
 * <p>Every method is safe for many threads, and several processes may write one file on a local file system: writers
 * queue for SQLite's lock for up to {@code busy_timeout}, and only a lock held longer fails, with
 * {@link dev.forge.memory.BackendUnavailableException}. Readers never wait for writers.
 *
 * <p>Transactions are optimistic: a transaction holds no lock until {@link dev.forge.memory.MemoryTransaction#commit()},
 * which applies every buffered write at once or, if a key the transaction touched changed since its first touch,
 * fails with {@link dev.forge.memory.ConflictException} and applies nothing. Every commit, every
 * {@link dev.forge.memory.Restoring#restore} and every {@code restoreAll} batch is atomic (per file, as commits are)
 * and a crash never corrupts the database; how much a committed write survives depends on {@code synchronous}. A write on a full disk fails with
 * {@link dev.forge.memory.StorageException} and changes nothing, while reads go on working.
 *
 * <p>{@link #fieldIndexing()} adds an index for equality on one metadata field (an expression index on
 * {@code json_extract(metadata, '$."field"')}); keys and tags are indexed already. {@link #searchWithSnippets} adds a
 * snippet to each keyword hit.
 *
 * <p>Export and migration read it through {@link KeyPages}: a page of keys with their history per statement.
 *
 * <p>Schema, durability per setting, search scores and settings: docs/providers/sqlite.md.
 */
public final class SqliteMemoryProvider extends StoreBackedMemoryProvider implements KeyPages {

    private static final Logger LOG = LoggerFactory.getLogger(SqliteMemoryProvider.class);

    /** The name this provider is selected by. */
    public static final String NAME = "sqlite";

    static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(Capability.KEYWORD_SEARCH, Capability.GRAPH,
            Capability.TRANSACTIONS, Capability.HISTORY, Capability.TOMBSTONES, Capability.RESTORE, Capability.FIELD_INDEX));

    private final ScopedStores stores;
    private final SqliteStore store;
    private final SqliteConfig config;
    private final ScopedGraph relations;
    private final SqlitePages projectPages;
    private final SqlitePages globalPages;

    private SqliteMemoryProvider(ScopedStores stores, SqliteConfig config, Clock clock) {
        super(stores);
        this.stores = stores;
        this.store = stores.project();
        this.config = config;
        this.relations = new ScopedGraph(stores);
        this.projectPages = new SqlitePages(stores.project());
        this.globalPages = stores.split() ? new SqlitePages(stores.global()) : projectPages;
        offerGraph(Facets.graph(relations::relate, relations::unrelate, relations::relations, relations::traverse,
                relations::restore));
        offerHistory(Facets.history((key, scope) -> stores.of(scope).versions(key, scope), this::purgeKey,
                this::purgeScope, scope -> stores.of(scope).deletedKeys(scope)));
        SqliteTransactions backend = new SqliteTransactions(stores, clock);
        offerTransactions(() -> OptimisticTransaction.begin(backend));
        // A restore replaces the key's live row, versions and tombstones in one SQLite transaction, a batch of them too.
        offerRestoring(restorer());
        offerFieldIndexing(Facets.fieldIndexing(store::checkOpen, field -> stores.all()
                .forEach(each -> new SqliteMaintenance(each).index(field))));
    }

    private boolean purgeKey(String key, Scope scope) {
        boolean purged = stores.of(scope).purge(key, scope);
        relations.forgetKey(key, scope);
        return purged;
    }

    private int purgeScope(Scope scope) {
        int purged = stores.of(scope).purge(scope);
        relations.forgetScope(scope);
        return purged;
    }

    @Override
    public int endSession() {
        int ended = super.endSession();
        relations.forgetScope(Scope.SESSION);
        return ended;
    }

    /**
     * Opens the project database and the global database {@code config} names for the project and session of
     * {@code context}, creating files and directories when missing, migrating their schema, and moving the GLOBAL
     * entries the project database kept from before into the global one.
     *
     * @throws dev.forge.memory.ConfigurationException      if a path is invalid or names a file that is not a SQLite
     *                                                      database (left untouched)
     * @throws dev.forge.memory.BackendUnavailableException if a newer forge-memory wrote a file (left untouched), or one
     *                                                      cannot be created, opened or stays locked longer than
     *                                                      busy_timeout; a problem of the global database leaves the
     *                                                      project database as it was
     */
    public static SqliteMemoryProvider open(ProviderContext context, SqliteConfig config) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(config, "config");
        Path file = context.resolve(config.path());
        Path globalFile = config.globalPath() == null ? context.forgeHome().resolve(SqliteConfig.GLOBAL_FILE_NAME)
                : context.resolve(config.globalPath());
        Database database = Database.acquire(file, config.synchronous().name(), config.busyTimeout().toMillis());
        SqliteStore project = new SqliteStore(NAME, database, context.clock(), context.projectId(), context.sessionId(),
                dev.forge.memory.Limits.DEFAULT, config.searchFields());
        ScopedStores stores;
        try {
            SqliteStore global = project;
            if (!GlobalStoreErrors.sameFile(database.path(), globalFile)) {
                Database shared = GlobalStoreErrors.acquire(globalFile, config.synchronous().name(),
                        config.busyTimeout().toMillis());
                global = new SqliteStore(NAME, shared, context.clock(), context.projectId(), context.sessionId(),
                        dev.forge.memory.Limits.DEFAULT, config.searchFields());
            }
            stores = new ScopedStores(project, global);
        } catch (RuntimeException e) {
            project.close();
            throw e;
        }
        try {
            // first, so that the rows GlobalMove copies carry the text of this setting
            stores.project().indexSearchFields();
            if (stores.global() != stores.project()) {
                stores.global().indexSearchFields();
            }
        } catch (RuntimeException e) {
            stores.close();
            throw e;
        }
        try {
            GlobalMove.run(stores);
        } catch (StorageException e) {
            // A full disk (or another write failure) must not keep the provider from reading, as with one file: the
            // keys stay in the project file, doctor lists them, and the next open moves them.
            LOG.warn("{}", GlobalStoreErrors.moveFailed(stores, e).getMessage());
        } catch (RuntimeException e) {
            stores.close();
            throw GlobalStoreErrors.moveFailed(stores, e);
        }
        return new SqliteMemoryProvider(stores, config, context.clock());
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The project database file: PROJECT and SESSION entries. */
    public Path databaseFile() {
        return store.path();
    }

    /** The global database file: GLOBAL entries, shared by every project; {@link #databaseFile()} when one file holds all. */
    public Path globalDatabaseFile() {
        return stores.global().path();
    }

    /** The settings this provider was opened with. */
    public SqliteConfig config() {
        return config;
    }

    /** The database, for tests of this module. */
    Database database() {
        return store.database();
    }

    /**
     * Keyword search over keys, values and tags through FTS5; see the class comment for the score.
     *
     * @throws UnsupportedCapabilityException for semantic and hybrid search: this provider has no embeddings
     */
    @Override
    public List<Hit> search(SearchRequest request) {
        return found(request, false).stream().map(SqliteStore.Found::hit).toList();
    }

    private List<SqliteStore.Found> found(SearchRequest request, boolean snippets) {
        Objects.requireNonNull(request, "request");
        store.checkOpen();
        if (request.mode() != SearchMode.KEYWORD) {
            throw new UnsupportedCapabilityException(NAME, request.mode().requiredCapability());
        }
        return stores.search(request, snippets);
    }

    /**
     * {@link #search} with a snippet of each hit: a few words around the matched terms (of the value, key or tags,
     * whichever matches best), each matched term between {@code **} and left-out text as {@code …}.
     *
     * @throws UnsupportedCapabilityException for semantic and hybrid search
     */
    public List<SnippetHit> searchWithSnippets(SearchRequest request) {
        return found(request, true).stream()
                .map(found -> new SnippetHit(found.hit(), Objects.toString(found.snippet(), ""))).toList();
    }

    /**
     * A search hit with a snippet of its text.
     *
     * @param hit     the hit, as {@link #search} returns it
     * @param snippet a few words around the matched terms, matches marked with {@code **}
     */
    public record SnippetHit(Hit hit, String snippet) {

        /** Rejects nulls. */
        public SnippetHit {
            Objects.requireNonNull(hit, "hit");
            Objects.requireNonNull(snippet, "snippet");
        }
    }

    private KeyPages pages(Scope scope) {
        return Objects.requireNonNull(scope, "scope") == Scope.GLOBAL ? globalPages : projectPages;
    }

    @Override
    public Page<Chain> live(Scope scope, String after, int limit) {
        return pages(scope).live(scope, after, limit);
    }

    @Override
    public Page<Chain> deleted(Scope scope, String after, int limit) {
        return pages(scope).deleted(scope, after, limit);
    }

    @Override
    public Page<String> relating(Scope scope, String after, int limit) {
        return pages(scope).relating(scope, after, limit);
    }

    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    /**
     * SQLite's {@code integrity_check} and {@code foreign_key_check}, a check of the search index against the entries,
     * and every row whose tags or metadata do not parse, in each database file; each problem is located at its file.
     * Also every GLOBAL key left in the project database because the global one holds another version of it. On a
     * database opened read-only on a full disk, the search index is checked on a copy of the database in memory (FTS5
     * runs its check as a write).
     */
    @Override
    public List<StoreProblem> doctor() {
        List<StoreProblem> problems = new ArrayList<>();
        for (SqliteStore each : stores.all()) {
            problems.addAll(new SqliteMaintenance(each).doctor());
        }
        problems.addAll(GlobalMove.leftovers(stores));
        return List.copyOf(problems);
    }

    /** Closes the connections once no other provider of this JVM uses the files. Idempotent. */
    @Override
    public void close() {
        stores.close();
    }

    @Override
    public String toString() {
        return "SqliteMemoryProvider[" + store.path() + (stores.split() ? ", global " + stores.global().path() : "") + "]";
    }
}
