package dev.forge.memory.postgres.internal;

import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code restoreAll} (what an import writes), shaped for batches: in the caller's transaction, one statement locks
 * every key, one reads the live row ids of all of them and deletes their versions and tombstones, and JDBC batches
 * write the rows, their tags and their versions. Per key it was a lookup and a write, two round trips each.
 */
final class PgRestore {

    /**
     * Deletes the versions and tombstones of the keys given as four parallel arrays and reads the live row id of each
     * (by its position in the arrays): a key's new rows take new ids, so its revision changes and a transaction that
     * read the key fails its commit.
     */
    private static final String PREPARE = """
            WITH k AS (SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[]) WITH ORDINALITY
                         AS k(project, session, scope, key, i)),
              v AS (DELETE FROM versions v USING k WHERE v.project = k.project AND v.session = k.session
                      AND v.scope = k.scope AND v.key = k.key),
              t AS (DELETE FROM tombstones t USING k WHERE t.project = k.project AND t.session = k.session
                      AND t.scope = k.scope AND t.key = k.key)
            SELECT k.i, e.id FROM k JOIN entries e ON e.project = k.project AND e.session = k.session
              AND e.scope = k.scope AND e.key = k.key""";

    private PgRestore() {
    }

    /**
     * Restores {@code chains} of {@code store} on {@code connection}; their current entries, in order. {@code vectors}
     * holds the vector of each chain's current entry (made before the transaction; {@code null} entries for none).
     */
    static List<MemoryEntry> restoreAll(PgStore store, Connection connection, List<List<MemoryEntry>> chains,
            List<float[]> vectors) throws SQLException {
        String schema = store.database().schema();
        Set<Long> namespaces = new LinkedHashSet<>();
        Set<Long> keys = new LinkedHashSet<>();
        for (List<MemoryEntry> chain : chains) {
            MemoryEntry last = last(chain);
            Ns ns = store.ns(last.scope());
            namespaces.add(ns.lockId(schema));
            keys.add(ns.keyLockId(schema, last.key()));
        }
        Ns.lockKeys(connection, namespaces, keys);
        List<MemoryEntry> restored = new ArrayList<>(chains.size());
        List<List<MemoryEntry>> run = new ArrayList<>();
        List<float[]> runVectors = new ArrayList<>();
        Set<EntryRef> seen = new HashSet<>();
        for (int c = 0; c < chains.size(); c++) {
            List<MemoryEntry> chain = chains.get(c);
            MemoryEntry last = last(chain);
            if (!seen.add(last.ref())) {
                // a key again in one batch: the earlier chain must be in place before this one replaces it
                restoreDistinct(store, connection, run, runVectors);
                run.clear();
                runVectors.clear();
                seen.clear();
                seen.add(last.ref());
            }
            run.add(chain);
            runVectors.add(vectors.get(c));
            restored.add(last);
        }
        restoreDistinct(store, connection, run, runVectors);
        return List.copyOf(restored);
    }

    /** Restores chains of distinct keys. */
    private static void restoreDistinct(PgStore store, Connection connection, List<List<MemoryEntry>> chains,
            List<float[]> vectors) throws SQLException {
        if (chains.isEmpty()) {
            return;
        }
        List<MemoryEntry> lasts = chains.stream().map(PgRestore::last).toList();
        long[] ids = prepare(store, connection, lasts);
        List<Long> updated = new ArrayList<>();
        try (PreparedStatement update = connection.prepareStatement(PgStore.UPDATE_LIVE)) {
            for (int i = 0; i < ids.length; i++) {
                if (ids[i] != 0) {
                    store.bindUpdate(update, lasts.get(i), ids[i]);
                    update.addBatch();
                    updated.add(ids[i]);
                }
            }
            if (!updated.isEmpty()) {
                update.executeBatch();
                try (PreparedStatement delete = connection.prepareStatement("DELETE FROM tags WHERE entry_id = ANY(?)")) {
                    delete.setArray(1, connection.createArrayOf("bigint", updated.toArray()));
                    delete.executeUpdate();
                }
            }
        }
        insertNew(store, connection, lasts, ids);
        List<Long> idList = new ArrayList<>(ids.length);
        for (long id : ids) {
            idList.add(id);
        }
        PgStore.insertTags(connection, idList, lasts);
        store.vectors().writeAll(connection, ids, vectors);
        List<MemoryEntry> versions = new ArrayList<>();
        chains.forEach(versions::addAll);
        store.insertVersions(connection, versions);
    }

    /** Runs {@link #PREPARE} for {@code lasts}: the live row id of each, 0 where the key has none. */
    private static long[] prepare(PgStore store, Connection connection, List<MemoryEntry> lasts) throws SQLException {
        int n = lasts.size();
        String[] projects = new String[n];
        String[] sessions = new String[n];
        String[] scopes = new String[n];
        String[] keys = new String[n];
        for (int i = 0; i < n; i++) {
            Ns ns = store.ns(lasts.get(i).scope());
            projects[i] = ns.project();
            sessions[i] = ns.session();
            scopes[i] = ns.scope().id();
            keys[i] = lasts.get(i).key();
        }
        long[] ids = new long[n];
        try (PreparedStatement statement = connection.prepareStatement(PREPARE)) {
            statement.setArray(1, connection.createArrayOf("text", projects));
            statement.setArray(2, connection.createArrayOf("text", sessions));
            statement.setArray(3, connection.createArrayOf("text", scopes));
            statement.setArray(4, connection.createArrayOf("text", keys));
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    ids[(int) rows.getLong(1) - 1] = rows.getLong(2);
                }
            }
        }
        return ids;
    }

    /** Inserts the rows of the keys without one (id 0) in one batch, and fills in their new ids. */
    private static void insertNew(PgStore store, Connection connection, List<MemoryEntry> lasts, long[] ids)
            throws SQLException {
        List<Integer> inserted = new ArrayList<>();
        try (PreparedStatement insert = connection.prepareStatement(PgStore.INSERT_LIVE, new String[] {"id"})) {
            for (int i = 0; i < ids.length; i++) {
                if (ids[i] == 0) {
                    store.bindInsert(insert, store.ns(lasts.get(i).scope()), lasts.get(i));
                    insert.addBatch();
                    inserted.add(i);
                }
            }
            if (inserted.isEmpty()) {
                return;
            }
            insert.executeBatch();
            try (ResultSet generated = insert.getGeneratedKeys()) {
                for (int i : inserted) {
                    if (!generated.next()) {
                        throw new SQLException("the driver returned fewer generated ids than rows inserted");
                    }
                    ids[i] = generated.getLong(1);
                }
            }
        }
    }

    private static MemoryEntry last(List<MemoryEntry> chain) {
        return chain.get(chain.size() - 1);
    }
}
