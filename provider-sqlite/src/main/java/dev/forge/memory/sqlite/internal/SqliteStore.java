package dev.forge.memory.sqlite.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.Hit;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.EntryRules;
import dev.forge.memory.support.EntryStore;
import dev.forge.memory.support.EntryWrite;
import dev.forge.memory.Keys;
import dev.forge.memory.support.EnglishTerms;
import dev.forge.memory.support.KeywordScorer;
import dev.forge.memory.support.SearchText;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operations of one provider on a {@link Database}: what its project and session see of the shared file, and how
 * each call maps to SQL. Every write is one SQLite transaction; every read one statement, so it sees one snapshot.
 */
public final class SqliteStore implements EntryStore {

    private static final Logger LOG = LoggerFactory.getLogger(SqliteStore.class);

    /** Best score first, ties by key, then scope. */
    static final Comparator<Hit> RANKING = Comparator.comparingDouble(Hit::score).reversed()
            .thenComparing(h -> h.entry().ref());

    private final String provider;
    private final Database database;
    private final Clock clock;
    private final String project;
    private final String session;
    private final Limits limits;
    private final SearchText text;
    private volatile boolean closed;

    /**
     * A store of {@code database} for a provider named {@code provider} serving {@code project} and {@code session},
     * its keyword search over the value and the default {@code search_fields}.
     */
    public SqliteStore(String provider, Database database, Clock clock, String project, String session, Limits limits) {
        this(provider, database, clock, project, session, limits, SearchText.DEFAULT);
    }

    /**
     * A store of {@code database} whose keyword search finds the value and {@code text}'s fields; call
     * {@link #indexSearchFields()} once before searching.
     */
    public SqliteStore(String provider, Database database, Clock clock, String project, String session, Limits limits,
            SearchText text) {
        this.provider = provider;
        this.database = database;
        this.clock = clock;
        this.project = project;
        this.session = session;
        this.limits = limits;
        this.text = text;
    }

    /** Brings the keyword index of the database to this store's {@code search_fields}, if it holds others. */
    public void indexSearchFields() {
        SearchTextIndex.apply(database, text);
    }

    /** The database this store works on. */
    public Database database() {
        return database;
    }

    /** The database file. */
    public Path path() {
        return database.path();
    }

    /** The limits writes are checked against. */
    public Limits limits() {
        return limits;
    }

    /** Throws {@link BackendUnavailableException} once this store is closed. */
    public void checkOpen() {
        if (closed) {
            throw new BackendUnavailableException("This " + provider + " provider on " + database.path()
                    + " is closed; open a new one.");
        }
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed;
    }

    /** Closes this store; the database closes with the last store of this JVM using it. Idempotent. */
    public synchronized void close() {
        if (!closed) {
            closed = true;
            database.release();
        }
    }

    /** The project this store serves. */
    String project() {
        return project;
    }

    /** The session this store serves. */
    String session() {
        return session;
    }

    /** The clock writes are stamped with. */
    Clock clock() {
        return clock;
    }

    /** The namespace of {@code scope} for this store. */
    public Namespace namespace(Scope scope) {
        return Namespace.of(Objects.requireNonNull(scope, "scope"), project, session);
    }

    private static String describe(String key, Scope scope) {
        return "key '" + Keys.abbreviate(key) + "' (" + scope.id() + ")";
    }

    // ------------------------------------------------------------------ entries

    /** The live entry of {@code key} in {@code scope}. */
    public Optional<MemoryEntry> get(String key, Scope scope) {
        Namespace namespace = namespace(scope);
        Keys.validate(key);
        checkOpen();
        return database.read(() -> "read " + describe(key, scope), connection -> {
            PreparedStatement statement = database.prepared(connection, Statements.GET);
            statement.setString(namespace.bind(statement, 1), key);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? Optional.of(Rows.entry(rows, ENTRY_AFTER_ID, path())) : Optional.<MemoryEntry>empty();
            }
        });
    }

    /** What is stored of a key: its row when live, and the highest version and revision ever recorded for it. */
    public record Current(long id, long createdAt, long updatedAt, long version, long lastVersion, long revision) {

        /** Whether the key has a live entry. */
        public boolean live() {
            return id != 0;
        }

        /** The version a deletion of {@code key} in {@code namespace} would take. */
        long tombstoneVersion(Namespace namespace, String key) {
            return EntryWrite.nextVersion(new EntryRef(key, namespace.scope()), Math.max(version, lastVersion));
        }
    }

    /** What is stored of {@code key} in {@code namespace}, read on {@code connection}. */
    public static Current current(Connection connection, Namespace namespace, String key) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(Statements.CURRENT)) {
            return current(statement, namespace, key);
        }
    }

    private static Current current(PreparedStatement statement, Namespace namespace, String key) throws SQLException {
        int next = namespace.bind(statement, 1);
        statement.setString(next++, key);
        next = namespace.bind(statement, next);
        statement.setString(next, key);
        try (ResultSet rows = statement.executeQuery()) {
            rows.next();
            return new Current(rows.getLong("id"), rows.getLong("created_at"), rows.getLong("updated_at"),
                    rows.getLong("version"), rows.getLong("last_version"), rows.getLong("revision"));
        }
    }

    /**
     * The entry {@code write} stores over {@code current} at {@code now}: as {@link EntryWrite#toEntry}, and after a
     * deletion the version after the tombstone with a new {@code createdAt}.
     */
    MemoryEntry stamp(EntryWrite write, Current current, Instant now) {
        Optional<MemoryEntry> live = Optional.empty();
        if (current.live()) {
            try {
                live = Optional.of(new MemoryEntry(write.key(), "", write.scope(), List.of(), Map.of(),
                        Instant.ofEpochMilli(current.createdAt()), Instant.ofEpochMilli(current.updatedAt()), current.version()));
            } catch (IllegalArgumentException e) {
                throw Rows.corrupt(path(), write.key(), write.scope().id(), e);
            }
        }
        return write.toEntry(live, current.lastVersion(), now);
    }

    /** Stores a validated write: one transaction. */
    public MemoryEntry set(EntryWrite write) {
        checkOpen();
        Namespace namespace = namespace(write.scope());
        return database.write("store " + describe(write.key(), write.scope()), connection -> {
            Current current = current(connection, namespace, write.key());
            MemoryEntry entry = stamp(write, current, clock.instant());
            apply(connection, namespace, entry, current);
            return entry;
        });
    }

    /**
     * Writes {@code entry} over what {@code current} says is stored: updates or inserts the entries row (an update
     * keeps the row id, and so the relations), replaces its tags, appends the version.
     */
    public void apply(Connection connection, Namespace namespace, MemoryEntry entry, Current current) throws SQLException {
        try (WriteStatements statements = new WriteStatements(connection)) {
            storeLive(statements, namespace, entry, current);
            insertVersions(statements, namespace, List.of(entry));
        }
    }

    /**
     * Makes {@code entry} the live row of its key over what {@code current} says is stored, with its own
     * {@code createdAt}: an update keeps the row id, and so the relations (the {@code edges} rows point at it); the
     * search index follows through the triggers on {@code entries}.
     */
    private void storeLive(WriteStatements statements, Namespace namespace, MemoryEntry entry, Current current)
            throws SQLException {
        String searchText = text.metadataText(entry.metadata());
        String tags = Rows.tagsJson(entry.tags());
        String metadata = Rows.metadataJson(entry.metadata());
        long id;
        if (current.live()) {
            id = current.id();
            PreparedStatement update = statements.get(Statements.UPDATE_ENTRY);
            update.setString(1, entry.value());
            update.setString(2, tags);
            update.setString(3, metadata);
            update.setLong(4, entry.createdAt().toEpochMilli());
            update.setLong(5, entry.updatedAt().toEpochMilli());
            update.setLong(6, entry.version());
            update.setString(7, searchText);
            update.setLong(8, id);
            update.executeUpdate();
            deleteTags(statements, id);
        } else {
            PreparedStatement insert = statements.get(Statements.INSERT_ENTRY);
            bindEntry(insert, namespace, entry, tags, metadata, searchText);
            insert.executeUpdate();
            id = lastInsertRowid(statements);
        }
        insertTags(statements, id, entry.tags());
    }

    /**
     * Makes {@code entry} the live row of its key, whatever the key holds, in one statement that returns the row id
     * (an existing row is updated in place, keeping its id and so its relations): a restore needs no read of the key
     * first. The search index follows through the triggers on {@code entries}.
     */
    private void restoreLive(WriteStatements statements, Namespace namespace, MemoryEntry entry, String tags,
            String metadata) throws SQLException {
        PreparedStatement upsert = statements.get(Statements.UPSERT_ENTRY);
        bindEntry(upsert, namespace, entry, tags, metadata, text.metadataText(entry.metadata()));
        long id;
        try (ResultSet rows = upsert.executeQuery()) {
            rows.next();
            id = rows.getLong(1);
        }
        deleteTags(statements, id);
        insertTags(statements, id, entry.tags());
    }

    /** Binds the parameters of {@link Statements#INSERT_ENTRY} (and {@link Statements#UPSERT_ENTRY}). */
    private static void bindEntry(PreparedStatement insert, Namespace namespace, MemoryEntry entry, String tags,
            String metadata, String searchText) throws SQLException {
        int next = namespace.bind(insert, 1);
        insert.setString(next++, entry.key());
        insert.setString(next++, entry.value());
        insert.setString(next++, tags);
        insert.setString(next++, metadata);
        insert.setLong(next++, entry.createdAt().toEpochMilli());
        insert.setLong(next++, entry.updatedAt().toEpochMilli());
        insert.setLong(next++, entry.version());
        insert.setString(next, searchText);
    }

    private static void deleteTags(WriteStatements statements, long id) throws SQLException {
        PreparedStatement delete = statements.get(Statements.DELETE_TAGS);
        delete.setLong(1, id);
        delete.executeUpdate();
    }

    private static void insertTags(WriteStatements statements, long id, List<String> tags) throws SQLException {
        if (tags.isEmpty()) {
            return;
        }
        PreparedStatement insert = statements.get(Statements.INSERT_TAG);
        for (String tag : tags) {
            insert.setString(1, tag);
            insert.setLong(2, id);
            insert.addBatch();
        }
        insert.executeBatch();
    }

    /** Appends {@code versions} (not tombstones) to the history of their key, one prepared statement for all. */
    private static void insertVersions(WriteStatements statements, Namespace namespace, List<MemoryEntry> versions)
            throws SQLException {
        MemoryEntry last = versions.get(versions.size() - 1);
        insertVersions(statements, namespace, versions, Rows.tagsJson(last.tags()), Rows.metadataJson(last.metadata()));
    }

    /** {@link #insertVersions}, the last version's tags and metadata already written as JSON. */
    private static void insertVersions(WriteStatements statements, Namespace namespace, List<MemoryEntry> versions,
            String lastTags, String lastMetadata) throws SQLException {
        PreparedStatement insert = statements.get(Statements.INSERT_VERSION);
        int last = versions.size() - 1;
        for (int i = 0; i <= last; i++) {
            MemoryEntry entry = versions.get(i);
            int next = namespace.bind(insert, 1);
            insert.setString(next++, entry.key());
            insert.setLong(next++, entry.version());
            insert.setString(next++, entry.value());
            insert.setString(next++, i == last ? lastTags : Rows.tagsJson(entry.tags()));
            insert.setString(next++, i == last ? lastMetadata : Rows.metadataJson(entry.metadata()));
            insert.setLong(next++, entry.createdAt().toEpochMilli());
            insert.setLong(next, entry.updatedAt().toEpochMilli());
            insert.executeUpdate();
        }
    }

    /**
     * Replaces everything stored of the key of {@code chain} (live row, versions, tombstones) with exactly {@code chain},
     * a chain checked by {@link EntryRules#checkChain}: one transaction, so a failure or a crash at any point leaves the
     * key as it was. A live row is updated in place, keeping its id and so its relations; the search index follows
     * through the triggers on {@code entries}. Every statement looks the key up by index: the cost does not grow with
     * the size of the database, which a bulk import of many keys relies on.
     *
     * @return the current entry, the last of {@code chain}
     */
    public MemoryEntry restore(List<MemoryEntry> chain) {
        return restoreAll(List.of(chain)).get(0);
    }

    /**
     * Restores {@code chains} (each as {@link #restore} does) in one transaction, each statement prepared once for
     * the batch: all of them are applied or, on a failure or a crash, none.
     */
    public List<MemoryEntry> restoreAll(List<List<MemoryEntry>> chains) {
        checkOpen();
        MemoryEntry first = chains.get(0).get(chains.get(0).size() - 1);
        String what = chains.size() == 1 ? "restore " + describe(first.key(), first.scope()) : "restore " + chains.size() + " keys";
        return database.write(what, connection -> restoreIn(connection, chains));
    }

    /** The work of {@link #restoreAll} inside a transaction the caller holds on {@code connection}. */
    List<MemoryEntry> restoreIn(Connection connection, List<List<MemoryEntry>> chains) throws SQLException {
        List<MemoryEntry> restored = new ArrayList<>(chains.size());
        try (WriteStatements statements = new WriteStatements(connection)) {
            for (List<MemoryEntry> chain : chains) {
                MemoryEntry last = chain.get(chain.size() - 1);
                Namespace namespace = namespace(last.scope());
                // Versions are deleted, never renumbered: the AUTOINCREMENT ids of the new rows are above every id the
                // key had, so the revision changes and a transaction that read the key before the restore fails its commit.
                deleteKeyRows(statements.get(Statements.DELETE_KEY_VERSIONS), namespace, last.key());
                String tags = Rows.tagsJson(last.tags());
                String metadata = Rows.metadataJson(last.metadata());
                restoreLive(statements, namespace, last, tags, metadata);
                insertVersions(statements, namespace, chain, tags, metadata);
                restored.add(last);
            }
        }
        return List.copyOf(restored);
    }

    /** Runs {@code delete}, a statement of the key's rows bound by namespace then key; the number of rows deleted. */
    private static int deleteKeyRows(Connection connection, String delete, Namespace namespace, String key) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(delete)) {
            return deleteKeyRows(statement, namespace, key);
        }
    }

    private static int deleteKeyRows(PreparedStatement statement, Namespace namespace, String key) throws SQLException {
        statement.setString(namespace.bind(statement, 1), key);
        return statement.executeUpdate();
    }

    private static long lastInsertRowid(WriteStatements statements) throws SQLException {
        try (ResultSet rows = statements.get(Statements.LAST_INSERT_ROWID).executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /** Deletes the live entry of {@code key}, leaving a tombstone version: one transaction. */
    public boolean delete(String key, Scope scope) {
        Namespace namespace = namespace(scope);
        Keys.validate(key);
        checkOpen();
        return database.write("delete " + describe(key, scope), connection -> {
            Current current = current(connection, namespace, key);
            return current.live() && deleteLive(connection, namespace, key, current, clock.instant());
        });
    }

    /** Replaces the live row {@code current} of {@code key} by a tombstone version; its tags and relations go with it. */
    public static boolean deleteLive(Connection connection, Namespace namespace, String key, Current current, Instant now)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(Statements.INSERT_TOMBSTONE)) {
            int next = namespace.bind(insert, 1);
            insert.setString(next++, key);
            insert.setLong(next++, current.tombstoneVersion(namespace, key));
            insert.setLong(next, now.toEpochMilli());
            insert.executeUpdate();
        }
        try (PreparedStatement delete = connection.prepareStatement(Statements.DELETE_ENTRY)) {
            delete.setLong(1, current.id());
            return delete.executeUpdate() == 1;
        }
    }

    /** Deletes every live entry of the scope's namespace, each leaving a tombstone: one transaction. */
    public int clear(Scope scope) {
        Namespace namespace = namespace(scope);
        checkOpen();
        return database.write("clear the " + scope.id() + " scope", connection -> {
            try (PreparedStatement insert = connection.prepareStatement(Statements.INSERT_TOMBSTONES)) {
                insert.setLong(1, clock.instant().toEpochMilli());
                namespace.bind(insert, 2);
                insert.executeUpdate();
            }
            try (PreparedStatement delete = connection.prepareStatement(
                    Statements.DELETE_LIVE_ENTRIES)) {
                namespace.bind(delete, 1);
                return delete.executeUpdate();
            }
        });
    }

    /** Erases the session's keys for good, histories included; returns how many were live. */
    public int endSession() {
        Namespace namespace = namespace(Scope.SESSION);
        checkOpen();
        int[] erased = new int[1];
        int ended = database.write("end the session", connection -> {
            int live;
            try (PreparedStatement count = connection.prepareStatement(Statements.COUNT_LIVE)) {
                namespace.bind(count, 1);
                try (ResultSet rows = count.executeQuery()) {
                    rows.next();
                    live = rows.getInt(1);
                }
            }
            erased[0] = purgeNamespace(connection, namespace);
            return live;
        });
        if (erased[0] > 0) {
            checkpoint();
        }
        return ended;
    }

    // ------------------------------------------------------------------ queries and search

    /** The entries {@code query} selects; see {@link SqliteQuery}. */
    public List<MemoryEntry> query(Query query) {
        Objects.requireNonNull(query, "query");
        checkOpen();
        return new SqliteQuery(this).run(query);
    }

    /** Where {@link Rows#ENTRY_COLUMNS} start in the rows of statements selecting {@code e.id} first. */
    static final int ENTRY_AFTER_ID = 2;

    Optional<MemoryEntry> readable(ResultSet row) throws SQLException {
        return readable(row, ENTRY_AFTER_ID);
    }

    /** The entry whose {@link Rows#ENTRY_COLUMNS} start at column {@code first}, or empty (logged) if it cannot be read. */
    Optional<MemoryEntry> readable(ResultSet row, int first) throws SQLException {
        try {
            return Optional.of(Rows.entry(row, first, path()));
        } catch (CorruptEntryException e) {
            LOG.warn("Skipping an unreadable row of {}: {}", path(), e.getMessage());
            return Optional.empty();
        }
    }

    static void bind(PreparedStatement statement, List<Object> parameters) throws SQLException {
        for (int i = 0; i < parameters.size(); i++) {
            Object parameter = parameters.get(i);
            if (parameter instanceof String text) {
                statement.setString(i + 1, text);
            } else if (parameter instanceof Long number) {
                statement.setLong(i + 1, number);
            } else if (parameter instanceof Integer number) {
                statement.setInt(i + 1, number);
            } else {
                throw new IllegalArgumentException("unexpected parameter type " + parameter.getClass());
            }
        }
    }

    /** One search result with its snippet ({@code null} when none was asked for). */
    public record Found(Hit hit, String snippet) {
    }

    /**
     * Keyword search through FTS5. {@code bm25()} is negative, lower is better; a hit's score is {@code -bm25} divided by
     * the best {@code bm25()} the query could reach in this file (as the {@code vector} provider scales Lucene's BM25),
     * in (0, 1] keeping the order: scores compare within one result list, and a threshold is a share of that best
     * whatever the limit. Ties go by key, then scope.
     *
     * <p>The SQL orders by {@code bm25()}, then key, then scope, and is read until the scores fall below the last hit
     * kept. Two rows whose {@code bm25()} differ by a rounding step can share a score, and then the key decides, so every
     * row tied in score with the last hit is looked at; a tied row that cannot come before that hit (a later key) is
     * passed over without being decoded. Where the SQL applies the whole filter it first asks for the best
     * {@code limit + }{@value SqliteSearch#TIE_WINDOW} rows only, and again without a limit when the ties run past them.
     */
    public List<Found> search(SearchRequest request, boolean snippets) {
        checkOpen();
        return new SqliteSearch(this, database, text, project, session).search(request, snippets);
    }

    /**
     * The score of a {@code bm25()} value on the scale of the {@code best} {@code bm25()} the query could reach (as a
     * positive number): {@code -bm25 / best}, in (0, 1], higher is better.
     */
    public static double score(double bm25, double best) {
        return SqliteSearch.score(bm25, best);
    }

    // ------------------------------------------------------------------ history

    /** Every version of a key but its tombstones, oldest first. */
    public List<MemoryEntry> versions(String key, Scope scope) {
        Namespace namespace = namespace(scope);
        Keys.validate(key);
        checkOpen();
        return database.read("read the history of " + describe(key, scope), connection -> {
            List<MemoryEntry> versions = new ArrayList<>();
            PreparedStatement statement = database.prepared(connection, Statements.VERSIONS);
            statement.setString(namespace.bind(statement, 1), key);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    versions.add(Rows.entry(rows, 1, path()));
                }
            }
            return List.copyOf(versions);
        });
    }

    /** Erases a key: its entry, relations, versions and tombstones. */
    public boolean purge(String key, Scope scope) {
        Namespace namespace = namespace(scope);
        Keys.validate(key);
        checkOpen();
        boolean purged = database.write("purge " + describe(key, scope), connection -> {
            int removed = deleteKeyRows(connection, Statements.DELETE_KEY_ENTRY, namespace, key)
                    + deleteKeyRows(connection, Statements.DELETE_KEY_VERSIONS, namespace, key);
            if (removed > 0) {
                mergeSearchIndex(connection);
            }
            return removed > 0;
        });
        if (purged) {
            checkpoint();
        }
        return purged;
    }

    /**
     * Merges the keyword index's segments: an FTS5 delete only adds a delete marker, and the purged words would stay
     * in the file until the segments holding them are merged.
     */
    private static void mergeSearchIndex(Connection connection) throws SQLException {
        try (java.sql.Statement statement = connection.createStatement()) {
            statement.execute(Statements.OPTIMIZE_SEARCH_INDEX);
        }
    }

    /**
     * Copies the write-ahead log into the database and empties it, so that pages holding purged data (overwritten in
     * place under {@code secure_delete}) leave the log too. Best effort: a reader holding an old snapshot can keep the
     * checkpoint from finishing; the next one completes it.
     */
    private void checkpoint() {
        database.onWriter("checkpoint after a purge", connection -> {
            try (java.sql.Statement statement = connection.createStatement()) {
                statement.execute(Statements.CHECKPOINT);
            }
            return null;
        });
    }

    /** The keys of the scope's namespace that are deleted but have versions kept, in key order. */
    public List<String> deletedKeys(Scope scope) {
        Namespace namespace = namespace(scope);
        checkOpen();
        return database.read("list the deleted keys of the " + scope.id() + " scope", connection -> {
            List<String> keys = new ArrayList<>();
            try (PreparedStatement statement = connection.prepareStatement(Statements.DELETED_KEYS)) {
                namespace.bind(statement, 1);
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        keys.add(rows.getString(1));
                    }
                }
            }
            return List.copyOf(keys);
        });
    }

    /** Erases every key of the scope's namespace, deleted ones included; returns how many keys. */
    public int purge(Scope scope) {
        Namespace namespace = namespace(scope);
        checkOpen();
        int purged = database.write("purge the " + scope.id() + " scope", connection -> purgeNamespace(connection, namespace));
        if (purged > 0) {
            checkpoint();
        }
        return purged;
    }

    private static int purgeNamespace(Connection connection, Namespace namespace) throws SQLException {
        int keys;
        try (PreparedStatement count = connection.prepareStatement(Statements.COUNT_KEYS)) {
            namespace.bind(count, namespace.bind(count, 1));
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                keys = rows.getInt(1);
            }
        }
        for (String table : List.of("entries", "versions")) {
            try (PreparedStatement delete = connection.prepareStatement(
                    Statements.deleteNamespace(table))) {
                namespace.bind(delete, 1);
                delete.executeUpdate();
            }
        }
        if (keys > 0) {
            mergeSearchIndex(connection);
        }
        return keys;
    }
}
