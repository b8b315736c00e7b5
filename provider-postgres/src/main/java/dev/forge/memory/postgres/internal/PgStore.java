package dev.forge.memory.postgres.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.Keys;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.support.EntryJson;
import dev.forge.memory.support.EntryStore;
import dev.forge.memory.support.EntryWrite;
import dev.forge.memory.support.SqlParameters;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entries of one provider in a {@link PgDatabase}: what its project and session see of the shared schema, and how
 * each call maps to SQL. Every write is one SQL transaction holding the advisory locks of {@link Ns}; every read one
 * statement, so it sees one snapshot.
 */
public final class PgStore implements EntryStore {

    private static final Logger LOG = LoggerFactory.getLogger(PgStore.class);

    private final String provider;
    private final PgDatabase database;
    private final Clock clock;
    private final String project;
    private final String session;
    private final Limits limits;
    private final PgDocuments documents;
    private final PgVectors vectors;
    private volatile boolean closed;

    /**
     * A store of {@code database} for the provider named {@code provider} serving {@code project} and {@code session},
     * writing each entry's vector with {@code vectors}.
     */
    public PgStore(String provider, PgDatabase database, Clock clock, String project, String session, Limits limits,
            PgDocuments documents, PgVectors vectors) {
        this.provider = provider;
        this.database = database;
        this.clock = clock;
        this.project = project;
        this.session = session;
        this.limits = limits;
        this.documents = documents;
        this.vectors = vectors;
    }

    /** The vectors written with the entries. */
    PgVectors vectors() {
        return vectors;
    }

    /** The database. */
    public PgDatabase database() {
        return database;
    }

    /** The keyword documents' settings. */
    PgDocuments documents() {
        return documents;
    }

    /** The limits writes are checked against. */
    public Limits limits() {
        return limits;
    }

    /** The clock writes are stamped with. */
    public Clock clock() {
        return clock;
    }

    /** The project this store serves. */
    String project() {
        return project;
    }

    /** The session this store serves. */
    String session() {
        return session;
    }

    @Override
    public void checkOpen() {
        if (closed) {
            throw new BackendUnavailableException("This " + provider + " provider on " + database.describe()
                    + " is closed; open a new one.");
        }
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed;
    }

    /** Closes the pool. Idempotent. */
    public synchronized void close() {
        if (!closed) {
            closed = true;
            database.close();
        }
    }

    /** The namespace of {@code scope} for this store. */
    Ns ns(Scope scope) {
        return Ns.of(Objects.requireNonNull(scope, "scope"), project, session);
    }

    static String describe(String key, Scope scope) {
        return "key '" + Keys.abbreviate(key) + "' (" + scope.id() + ")";
    }

    // ------------------------------------------------------------------ entries

    @Override
    public Optional<MemoryEntry> get(String key, Scope scope) {
        Ns ns = ns(scope);
        Keys.validate(key);
        checkOpen();
        return database.read("read " + describe(key, scope), connection -> {
            try (PreparedStatement statement = connection.prepareStatement("SELECT " + PgRows.ENTRY_COLUMNS
                    + " FROM entries e WHERE " + Ns.condition("e") + " AND e.key = ?")) {
                statement.setString(ns.bind(statement, 1), key);
                try (ResultSet rows = statement.executeQuery()) {
                    return rows.next() ? Optional.of(PgRows.entry(rows, 1, database.describe())) : Optional.<MemoryEntry>empty();
                }
            }
        });
    }

    /**
     * What is stored of a key, read in one statement: its live entry if any, the highest version it has taken
     * (tombstones included) and its revision (the highest id of its versions and tombstones, which every write changes).
     */
    record Current(long id, Optional<MemoryEntry> entry, long lastVersion, long revision) {

        boolean live() {
            return id != 0;
        }
    }

    private static final String CURRENT = """
            WITH k AS (SELECT ?::text AS project, ?::text AS session, ?::text AS scope, ?::text AS key)
            SELECT e.id, %s,
              (SELECT max(v.version) FROM versions v WHERE v.project = k.project AND v.session = k.session
                 AND v.scope = k.scope AND v.key = k.key) AS versions_max,
              (SELECT max(t.version) FROM tombstones t WHERE t.project = k.project AND t.session = k.session
                 AND t.scope = k.scope AND t.key = k.key) AS tombstones_max,
              (SELECT max(v.id) FROM versions v WHERE v.project = k.project AND v.session = k.session
                 AND v.scope = k.scope AND v.key = k.key) AS versions_id,
              (SELECT max(t.id) FROM tombstones t WHERE t.project = k.project AND t.session = k.session
                 AND t.scope = k.scope AND t.key = k.key) AS tombstones_id
            FROM k LEFT JOIN entries e ON e.project = k.project AND e.session = k.session AND e.scope = k.scope
              AND e.key = k.key""".formatted(PgRows.ENTRY_COLUMNS);

    /** What is stored of {@code key} in {@code ns}, read on {@code connection}. */
    Current current(Connection connection, Ns ns, String key) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(CURRENT)) {
            statement.setString(ns.bind(statement, 1), key);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                long id = rows.getLong(1);
                Optional<MemoryEntry> entry = id == 0 ? Optional.empty() : Optional.of(PgRows.entry(rows, 2, database.describe()));
                long last = Math.max(rows.getLong("versions_max"), rows.getLong("tombstones_max"));
                last = Math.max(last, entry.map(MemoryEntry::version).orElse(0L));
                long revision = Math.max(rows.getLong("versions_id"), rows.getLong("tombstones_id"));
                return new Current(id, entry, last, revision);
            }
        }
    }

    @Override
    public MemoryEntry set(EntryWrite write) {
        checkOpen();
        Ns ns = ns(write.scope());
        // The embedded text holds no version or time, so the (slow) model runs before the transaction.
        float[] vector = vectors.embed(write.toEntry(Optional.empty(), clock.instant()));
        return database.write("store " + describe(write.key(), write.scope()), connection -> {
            ns.lockKey(connection, database.schema(), write.key());
            Current current = current(connection, ns, write.key());
            MemoryEntry entry = write.toEntry(current.entry(), current.lastVersion(), clock.instant());
            apply(connection, ns, entry, current, vector);
            return entry;
        });
    }

    /**
     * Writes {@code entry} over what {@code current} says is stored, with {@code vector} (made before the transaction,
     * {@code null} for none), and appends it to the history.
     */
    void apply(Connection connection, Ns ns, MemoryEntry entry, Current current, float[] vector) throws SQLException {
        long id = storeLive(connection, ns, entry, current, vector);
        insertTags(connection, List.of(id), List.of(entry));
        insertVersions(connection, List.of(entry));
    }

    /** Updates a live row in place (its id, and so its relations, kept): parameters bound by {@link #bindUpdate}. */
    static final String UPDATE_LIVE = "UPDATE entries SET value = ?, tags = ?, metadata = ?, created_at = ?,"
            + " updated_at = ?, version = ?, document = " + PgDocuments.DOCUMENT + " WHERE id = ?";

    /** Inserts a live row: parameters bound by {@link #bindInsert}. */
    static final String INSERT_LIVE = "INSERT INTO entries (project, session, scope, key, value, tags, metadata,"
            + " created_at, updated_at, version, document) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, " + PgDocuments.DOCUMENT + ")";

    /**
     * Makes {@code entry} the live row of its key, without its tags: an update keeps the row id, and so the relations,
     * and drops the old tags. Returns the row id.
     */
    private long storeLive(Connection connection, Ns ns, MemoryEntry entry, Current current, float[] vector)
            throws SQLException {
        if (current.live()) {
            try (PreparedStatement update = connection.prepareStatement(UPDATE_LIVE)) {
                bindUpdate(update, entry, current.id());
                update.executeUpdate();
            }
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM tags WHERE entry_id = ?")) {
                delete.setLong(1, current.id());
                delete.executeUpdate();
            }
            vectors.write(connection, current.id(), vector);
            return current.id();
        }
        try (PreparedStatement insert = connection.prepareStatement(INSERT_LIVE + " RETURNING id")) {
            bindInsert(insert, ns, entry);
            long id;
            try (ResultSet rows = insert.executeQuery()) {
                rows.next();
                id = rows.getLong(1);
            }
            vectors.write(connection, id, vector);
            return id;
        }
    }

    /** Binds {@link #UPDATE_LIVE} to write {@code entry} over row {@code id}. */
    void bindUpdate(PreparedStatement update, MemoryEntry entry, long id) throws SQLException {
        update.setBytes(1, PgRows.value(entry.value()));
        update.setString(2, EntryJson.tags(entry.tags()));
        update.setString(3, EntryJson.metadata(entry.metadata()));
        update.setLong(4, entry.createdAt().toEpochMilli());
        update.setLong(5, entry.updatedAt().toEpochMilli());
        update.setLong(6, entry.version());
        int next = documents.bind(update, 7, entry);
        update.setLong(next, id);
    }

    /** Binds {@link #INSERT_LIVE} to insert {@code entry} in {@code ns}. */
    void bindInsert(PreparedStatement insert, Ns ns, MemoryEntry entry) throws SQLException {
        int next = ns.bind(insert, 1);
        insert.setString(next++, entry.key());
        insert.setBytes(next++, PgRows.value(entry.value()));
        insert.setString(next++, EntryJson.tags(entry.tags()));
        insert.setString(next++, EntryJson.metadata(entry.metadata()));
        insert.setLong(next++, entry.createdAt().toEpochMilli());
        insert.setLong(next++, entry.updatedAt().toEpochMilli());
        insert.setLong(next++, entry.version());
        documents.bind(insert, next, entry);
    }

    /** Inserts the tags of each entry under its row id, one batch for all. */
    static void insertTags(Connection connection, List<Long> ids, List<MemoryEntry> entries) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO tags (tag, entry_id) VALUES (?, ?)")) {
            boolean any = false;
            for (int i = 0; i < ids.size(); i++) {
                for (String tag : entries.get(i).tags()) {
                    insert.setString(1, tag);
                    insert.setLong(2, ids.get(i));
                    insert.addBatch();
                    any = true;
                }
            }
            if (any) {
                insert.executeBatch();
            }
        }
    }

    /** Appends {@code versions} (of any keys) to their keys' histories, one batch for all. */
    void insertVersions(Connection connection, List<MemoryEntry> versions) throws SQLException {
        if (versions.isEmpty()) {
            return;
        }
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO versions (project, session, scope, key,"
                + " version, value, tags, metadata, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (MemoryEntry entry : versions) {
                int next = ns(entry.scope()).bind(insert, 1);
                insert.setString(next++, entry.key());
                insert.setLong(next++, entry.version());
                insert.setBytes(next++, PgRows.value(entry.value()));
                insert.setString(next++, EntryJson.tags(entry.tags()));
                insert.setString(next++, EntryJson.metadata(entry.metadata()));
                insert.setLong(next++, entry.createdAt().toEpochMilli());
                insert.setLong(next, entry.updatedAt().toEpochMilli());
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    @Override
    public MemoryEntry restore(List<MemoryEntry> chain) {
        return restoreAll(List.of(chain)).get(0);
    }

    /**
     * Replaces everything stored of each chain's key (live row, versions, tombstones) with exactly the chain, all chains
     * in one transaction: all of them are applied or, on a failure, none. A live row is updated in place, keeping its
     * relations. See {@link PgRestore}.
     */
    @Override
    public List<MemoryEntry> restoreAll(List<List<MemoryEntry>> chains) {
        checkOpen();
        MemoryEntry first = chains.get(0).get(chains.get(0).size() - 1);
        String what = chains.size() == 1 ? "restore " + describe(first.key(), first.scope()) : "restore " + chains.size() + " keys";
        List<float[]> embedded = vectors.embed(chains.stream().map(chain -> chain.get(chain.size() - 1)).toList());
        return database.write(what, connection -> PgRestore.restoreAll(this, connection, chains, embedded));
    }

    private static int deleteKeyRows(Connection connection, String table, Ns ns, String key) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + table + " e WHERE " + Ns.condition("e")
                + " AND e.key = ?")) {
            delete.setString(ns.bind(delete, 1), key);
            return delete.executeUpdate();
        }
    }

    @Override
    public boolean delete(String key, Scope scope) {
        Ns ns = ns(scope);
        Keys.validate(key);
        checkOpen();
        return database.write("delete " + describe(key, scope), connection -> {
            ns.lockKey(connection, database.schema(), key);
            Current current = current(connection, ns, key);
            return current.live() && deleteLive(connection, ns, key, current, clock.instant());
        });
    }

    /** Replaces the live row {@code current} of {@code key} by a tombstone; its tags and relations go with it. */
    static boolean deleteLive(Connection connection, Ns ns, String key, Current current, Instant now) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO tombstones (project, session, scope, key,"
                + " version, deleted_at) VALUES (?, ?, ?, ?, ?, ?)")) {
            int next = ns.bind(insert, 1);
            insert.setString(next++, key);
            insert.setLong(next++, EntryWrite.nextVersion(new EntryRef(key, ns.scope()), current.lastVersion()));
            insert.setLong(next, now.toEpochMilli());
            insert.executeUpdate();
        }
        try (PreparedStatement delete = connection.prepareStatement("DELETE FROM entries WHERE id = ?")) {
            delete.setLong(1, current.id());
            return delete.executeUpdate() == 1;
        }
    }

    @Override
    public int clear(Scope scope) {
        Ns ns = ns(scope);
        checkOpen();
        return database.write("clear the " + scope.id() + " scope", connection -> {
            ns.lockWhole(connection, database.schema());
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO tombstones (project, session, scope,"
                    + " key, version, deleted_at) SELECT e.project, e.session, e.scope, e.key, e.version + 1, ?"
                    + " FROM entries e WHERE " + Ns.condition("e"))) {
                insert.setLong(1, clock.instant().toEpochMilli());
                ns.bind(insert, 2);
                insert.executeUpdate();
            }
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM entries e WHERE " + Ns.condition("e"))) {
                ns.bind(delete, 1);
                return delete.executeUpdate();
            }
        });
    }

    @Override
    public int endSession() {
        Ns ns = ns(Scope.SESSION);
        checkOpen();
        return database.write("end the session", connection -> {
            ns.lockWhole(connection, database.schema());
            int live;
            try (PreparedStatement count = connection.prepareStatement("SELECT count(*) FROM entries e WHERE "
                    + Ns.condition("e"))) {
                ns.bind(count, 1);
                try (ResultSet rows = count.executeQuery()) {
                    rows.next();
                    live = rows.getInt(1);
                }
            }
            purgeNamespace(connection, ns);
            return live;
        });
    }

    // ------------------------------------------------------------------ queries

    @Override
    public List<MemoryEntry> query(Query query) {
        Objects.requireNonNull(query, "query");
        checkOpen();
        if (query.pattern().minKeyLength() > Limits.MAX_KEY_LENGTH) {
            return List.of();
        }
        PgSql.Bound sql = PgSql.query(query, project, session);
        // The rows come in the query's order (PgSql.orderBy): keep the matches of the page, no sorting again.
        return database.read("run the query '" + query.pattern() + "'", connection -> {
            List<MemoryEntry> page = new ArrayList<>();
            long skip = query.offset();
            try (PreparedStatement statement = connection.prepareStatement(sql.sql())) {
                SqlParameters.bind(statement, sql.parameters());
                try (ResultSet results = statement.executeQuery()) {
                    while (page.size() < query.limit() && results.next()) {
                        Optional<MemoryEntry> entry = readable(results, 1);
                        if (entry.isPresent() && query.matches(entry.get()) && skip-- <= 0) {
                            page.add(entry.get());
                        }
                    }
                }
            }
            return List.copyOf(page);
        });
    }

    /** The entry of the current row, or empty (logged) when it cannot be read, so one bad row does not hide the rest. */
    Optional<MemoryEntry> readable(ResultSet row, int first) throws SQLException {
        try {
            return Optional.of(PgRows.entry(row, first, database.describe()));
        } catch (CorruptEntryException e) {
            LOG.warn("Skipping an unreadable row of {}: {}", database.describe(), e.getMessage());
            return Optional.empty();
        }
    }

    // ------------------------------------------------------------------ history

    /** Every version of a key but its tombstones, oldest first. */
    public List<MemoryEntry> versions(String key, Scope scope) {
        Ns ns = ns(scope);
        Keys.validate(key);
        checkOpen();
        return database.read("read the history of " + describe(key, scope), connection -> {
            List<MemoryEntry> versions = new ArrayList<>();
            try (PreparedStatement statement = connection.prepareStatement("SELECT " + PgRows.ENTRY_COLUMNS
                    + " FROM versions e WHERE " + Ns.condition("e") + " AND e.key = ? ORDER BY e.version")) {
                statement.setString(ns.bind(statement, 1), key);
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        versions.add(PgRows.entry(rows, 1, database.describe()));
                    }
                }
            }
            return List.copyOf(versions);
        });
    }

    /** Erases a key: its entry, relations, versions and tombstones. */
    public boolean purge(String key, Scope scope) {
        Ns ns = ns(scope);
        Keys.validate(key);
        checkOpen();
        return database.write("purge " + describe(key, scope), connection -> {
            ns.lockKey(connection, database.schema(), key);
            int removed = 0;
            for (String table : List.of("entries", "versions", "tombstones")) {
                removed += deleteKeyRows(connection, table, ns, key);
            }
            return removed > 0;
        });
    }

    /** The keys of the scope's namespace that are deleted but have versions kept, in key order. */
    public List<String> deletedKeys(Scope scope) {
        Ns ns = ns(scope);
        checkOpen();
        return database.read("list the deleted keys of the " + scope.id() + " scope", connection -> {
            List<String> keys = new ArrayList<>();
            try (PreparedStatement statement = connection.prepareStatement("SELECT key FROM (SELECT e.key FROM versions e"
                    + " WHERE " + Ns.condition("e") + " UNION SELECT e.key FROM tombstones e WHERE " + Ns.condition("e")
                    + " EXCEPT SELECT e.key FROM entries e WHERE " + Ns.condition("e") + ") d ORDER BY key")) {
                ns.bind(statement, ns.bind(statement, ns.bind(statement, 1)));
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
        Ns ns = ns(scope);
        checkOpen();
        return database.write("purge the " + scope.id() + " scope", connection -> {
            ns.lockWhole(connection, database.schema());
            return purgeNamespace(connection, ns);
        });
    }

    private static int purgeNamespace(Connection connection, Ns ns) throws SQLException {
        int keys;
        try (PreparedStatement count = connection.prepareStatement("SELECT count(*) FROM (SELECT e.key FROM entries e WHERE "
                + Ns.condition("e") + " UNION SELECT e.key FROM versions e WHERE " + Ns.condition("e")
                + " UNION SELECT e.key FROM tombstones e WHERE " + Ns.condition("e") + ") k")) {
            ns.bind(count, ns.bind(count, ns.bind(count, 1)));
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                keys = rows.getInt(1);
            }
        }
        for (String table : List.of("entries", "versions", "tombstones")) {
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + table + " e WHERE "
                    + Ns.condition("e"))) {
                ns.bind(delete, 1);
                delete.executeUpdate();
            }
        }
        return keys;
    }
}
