package dev.forge.memory.sqlite;

import dev.forge.memory.Capability;
import dev.forge.memory.Hit;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.forge.memory.sqlite.internal.SqliteTransactions;
import dev.forge.memory.sqlite.internal.Database;
import dev.forge.memory.sqlite.internal.SqliteGraph;
import dev.forge.memory.sqlite.internal.SqliteMaintenance;
import dev.forge.memory.sqlite.internal.SqliteStore;
import dev.forge.memory.support.StoreBackedMemoryProvider;
import dev.forge.memory.support.Facets;
import dev.forge.memory.support.tx.OptimisticTransaction;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.time.Clock;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The {@code sqlite} provider: every memory in one embedded SQLite database file (sqlite-jdbc), with keyword search by
 * FTS5, real transactions, full history with tombstones and typed relations.
 *
 * <h2>Schema</h2>
 * Versioned in {@code PRAGMA user_version} and brought up to date when a provider opens the file, one transaction per
 * step (1: the tables below; 2: keyword search). A file written by a newer forge-memory is refused, untouched, as is a
 * file that is not a SQLite database.
 * <ul>
 *   <li>{@code entries}: the live entry of each key, {@code UNIQUE(project, session, scope, key)}; tags as a JSON
 *       array in order, metadata as a JSON object, instants as epoch milliseconds. GLOBAL rows have project and session
 *       {@code ''}, PROJECT rows session {@code ''}, so one file holds many projects and sessions apart.</li>
 *   <li>{@code tags}: (tag, entry) pairs, the index behind {@code tag:} patterns and tag filters.</li>
 *   <li>{@code versions}: every version ever written and every deletion (a tombstone row), until purged
 *       or replaced by a restore.</li>
 *   <li>{@code edges}: typed, directed relations between live entries, removed with either end
 *       ({@code ON DELETE CASCADE}), indexed both ways.</li>
 *   <li>{@code entries_fts}: an FTS5 index of key, value and tags that reads its text from {@code entries}, kept in
 *       step by triggers.</li>
 * </ul>
 * Queries are translated into SQL that narrows the candidates by index (namespace and exact key, key prefix as a range,
 * tags, metadata equality, update times); the API's own matcher then decides exactly, and where every condition is
 * exact the SQL orders and pages too. {@link #index(String)} adds an index for equality on one metadata field.
 *
 * <h2>Threads and processes</h2>
 * Every method is safe for many threads. All providers of one JVM on one file (with the same {@code synchronous} and
 * {@code busy_timeout}; others get connections of their own) share one write connection, used by one
 * thread at a time under a fair lock, and up to four read connections. The file is in WAL mode: readers never wait for
 * writers nor block them, and every read statement sees the last commit before it began. Several processes may open the
 * same file: every write is a {@code BEGIN IMMEDIATE} transaction, so writers of different processes queue for SQLite's
 * lock for up to {@code busy_timeout} (5 s by default) instead of deadlocking; only a lock held longer than that fails,
 * with {@link dev.forge.memory.BackendUnavailableException}. The file must be on a local file system (WAL needs shared
 * memory between processes; not a network share).
 *
 * <h2>Transactions</h2>
 * Optimistic. A transaction reads committed data, each key as it was when the transaction first touched it (read,
 * wrote or deleted it), plus its own writes; it writes nothing and holds no lock until {@link dev.forge.memory.MemoryTransaction#commit()},
 * so the thread that opened it may go on writing through the provider. Commit is one SQLite {@code BEGIN IMMEDIATE}
 * transaction: it checks that every key the transaction touched is unchanged since its first touch (no write, delete or
 * purge by anyone in between), then applies every buffered write, all or nothing; a changed key fails the commit with
 * {@link dev.forge.memory.ConflictException} and nothing is applied. A transaction that writes is thus serializable
 * over the keys it touched. A transaction that only reads is not checked at commit: each of its reads is of committed
 * data, but two keys read at different moments may come from different commits. What a transaction does not touch
 * (queries, searches and relations are not part of it) is read committed.
 *
 * <h2>Durability</h2>
 * A commit is atomic whatever happens: after a crash the database holds each transaction whole or not at all, and is
 * never corrupted. What a crash can cost depends on {@code synchronous}:
 * <table>
 *   <caption>What a committed write survives</caption>
 *   <tr><th>{@code synchronous}</th><th>process crash (kill, JVM crash)</th><th>operating system crash or power loss</th></tr>
 *   <tr><td>{@code full} (default)</td><td>nothing committed is lost</td><td>nothing committed is lost: the WAL is
 *       forced to the disk at every commit (as far as the disk honours a flush)</td></tr>
 *   <tr><td>{@code normal}</td><td>nothing committed is lost</td><td>the most recent commits since the WAL was last
 *       forced to the disk (at a checkpoint) may be rolled back; the database stays consistent</td></tr>
 * </table>
 * (SQLite documents this under {@code PRAGMA synchronous} and in "Write-Ahead Logging", performance considerations.)
 *
 * <h2>A full disk</h2>
 * A write that finds the disk full fails with {@link dev.forge.memory.StorageException} saying so and changes nothing
 * (its transaction rolls back). Opening the file on a full disk still works, read-only: SQLite cannot create or grow the
 * shared-memory file ({@code -shm}) a WAL database is read through, so the provider reads through read-only connections
 * that do not write it (an empty {@code -shm} file is created if there is none, which takes no space). Gets, queries,
 * searches, history, relations, exports and {@code doctor()} work; writes fail as above, and the first write after
 * space is back reopens the database for writing. A file whose schema needs an upgrade, or a new file, cannot be opened
 * on a full disk: both need writes.
 *
 * <h2>Restores</h2>
 * {@link dev.forge.memory.Restoring#restore} is one {@code BEGIN IMMEDIATE} transaction like any write: it deletes the key's versions and
 * tombstones, writes the last given version as the live row (updating the row in place when the key is live, so its
 * relations stay) and inserts every given version with its own numbers and timestamps. A failure, a lock held by another
 * process past {@code busy_timeout}, or a crash leaves the key as it was before; the keyword index follows the live row
 * in the same transaction. Every statement of a restore looks the key up by index, so a bulk import costs the same per
 * key however large the file grows; with {@code synchronous: full} each restore waits for its commit to reach the disk,
 * and {@code synchronous: normal} makes a large import much faster at the cost described under durability.
 *
 * <h2>Search</h2>
 * FTS5 with the {@code unicode61} tokenizer (case-insensitive, accents kept), ranked by {@code bm25()}. The query text is
 * split into terms as {@link dev.forge.memory.support.KeywordScorer#terms} does, each term quoted, any of them matching, so
 * user text is never FTS syntax. {@code bm25()} is negative, lower is better; a hit's score is
 * {@code -bm25 / (1 - bm25)}, in (0, 1) and in the same order. {@link #searchWithSnippets} adds a snippet to each hit.
 */
public final class SqliteMemoryProvider extends StoreBackedMemoryProvider {

    /** The name this provider is selected by. */
    public static final String NAME = "sqlite";

    static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(Capability.KEYWORD_SEARCH, Capability.GRAPH,
            Capability.TRANSACTIONS, Capability.HISTORY, Capability.TOMBSTONES, Capability.RESTORE));

    private final SqliteStore store;
    private final SqliteConfig config;
    private final Clock clock;
    private final SqliteMaintenance maintenance;

    private SqliteMemoryProvider(SqliteStore store, SqliteConfig config, Clock clock) {
        super(store);
        this.store = store;
        this.config = config;
        this.clock = clock;
        this.maintenance = new SqliteMaintenance(store);
        SqliteGraph relations = new SqliteGraph(store);
        offerGraph(Facets.graph(relations::relate, relations::unrelate, relations::relations, relations::traverse));
        offerHistory(Facets.history(store::versions, store::purge, store::purge));
        SqliteTransactions backend = new SqliteTransactions(store, clock);
        offerTransactions(() -> OptimisticTransaction.begin(backend));
        // A restore replaces the key's live row, versions and tombstones in one SQLite transaction (see the class comment).
        offerRestoring(this::restore);
    }

    /**
     * Opens the database {@code config} names for the project and session of {@code context}, creating the file and its
     * directory when missing and migrating its schema.
     *
     * @throws dev.forge.memory.ConfigurationException      if the path is invalid or names a file that is not a SQLite
     *                                                      database (left untouched)
     * @throws dev.forge.memory.BackendUnavailableException if a newer forge-memory wrote the file (left untouched), or it
     *                                                      cannot be opened or stays locked longer than busy_timeout
     */
    public static SqliteMemoryProvider open(ProviderContext context, SqliteConfig config) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(config, "config");
        Path file = context.resolve(config.path());
        Database database = Database.acquire(file, config.synchronous().name(), config.busyTimeout().toMillis());
        SqliteStore store = new SqliteStore(NAME, database, context.clock(), context.projectId(), context.sessionId(),
                dev.forge.memory.Limits.DEFAULT);
        return new SqliteMemoryProvider(store, config, context.clock());
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The database file. */
    public Path databaseFile() {
        return store.path();
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
        return store.search(request, snippets);
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

    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    /**
     * Creates, if missing, an index that serves equality filters on the top-level metadata field {@code field}
     * (an expression index on {@code json_extract(metadata, '$."field"')}, after the namespace columns). Queries and
     * searches with such a filter then look up the matching entries instead of reading every entry of the scope.
     *
     * @throws dev.forge.memory.InvalidRequestException for an empty field name or one with {@code "}, {@code \} or control
     *                                                  characters, which no JSON path of SQLite can name
     */
    public void index(String field) {
        maintenance.index(field);
    }

    /**
     * SQLite's {@code integrity_check} and {@code foreign_key_check}, a check of the search index against the entries,
     * and every row whose tags or metadata do not parse; each problem is located at the database file. On a database
     * opened read-only on a full disk, the search index is checked on a copy of the database in memory (FTS5 runs its
     * check as a write).
     */
    @Override
    public List<StoreProblem> doctor() {
        return maintenance.doctor();
    }

    /** Closes the connections once no other provider of this JVM uses the file. Idempotent. */
    @Override
    public void close() {
        store.close();
    }

    @Override
    public String toString() {
        return "SqliteMemoryProvider[" + store.path() + "]";
    }
}
