package dev.forge.memory.sqlite.internal;

import dev.forge.memory.Keys;
import dev.forge.memory.MemoryException;
import dev.forge.memory.Scope;
import dev.forge.memory.StoreProblem;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves the GLOBAL entries a project database holds from before GLOBAL had a file of its own into the shared global
 * store: every version and tombstone with its own numbers and times, the live row, its tags, and its relations (to
 * other moved entries as edges of the global file, to PROJECT and SESSION entries as halves in both files).
 *
 * <p>One transaction on each file, nested: the project file's write lock first, then the global file's, which commits
 * first; the moved rows leave the project file only when the project transaction commits after it. A crash between the
 * two commits leaves the keys in both files, identical, and the next open finds them so, carries their relations again
 * (every write here is idempotent) and removes them from the project file. A key the global store already holds with
 * other content is left in the project file, untouched, and {@link #leftovers} reports it.
 */
public final class GlobalMove {

    private static final Logger LOG = LoggerFactory.getLogger(GlobalMove.class);

    private static final Namespace GLOBAL = Namespace.of(Scope.GLOBAL, "", "");

    private static final String OLD_KEYS = "SELECT key FROM entries WHERE project = '' AND session = '' AND scope = 'global'"
            + " UNION SELECT key FROM versions WHERE project = '' AND session = '' AND scope = 'global' ORDER BY key";
    private static final String LIVE_ROW = "SELECT id, value, tags, metadata, created_at, updated_at, version, search_text FROM entries"
            + " WHERE project = ? AND session = ? AND scope = ? AND key = ?";
    private static final String VERSION_ROWS = "SELECT version, tombstone, value, tags, metadata, created_at, updated_at"
            + " FROM versions WHERE project = ? AND session = ? AND scope = ? AND key = ? ORDER BY version";
    private static final String COPY_VERSION = "INSERT INTO versions (project, session, scope, key, version, tombstone,"
            + " value, tags, metadata, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String COPY_TAGS = "INSERT OR IGNORE INTO tags (tag, entry_id) SELECT value, ? FROM json_each(?)";
    private static final String EDGES_OF = "SELECT ed.from_entry, ed.type, ed.to_entry, ed.created_at, o.id AS other_id,"
            + " o.project, o.session, o.scope, o.key FROM edges ed CROSS JOIN entries o"
            + " ON o.id = (CASE WHEN ed.from_entry = ? THEN ed.to_entry ELSE ed.from_entry END)"
            + " WHERE ed.from_entry = ? OR ed.to_entry = ?";

    private GlobalMove() {
    }

    /** Moves what can move; returns the number of keys moved. Does nothing when the stores are one file. */
    public static int run(ScopedStores stores) {
        if (!stores.split() || oldKeys(stores.project()).isEmpty()) {
            return 0;
        }
        SqliteStore project = stores.project();
        SqliteStore global = stores.global();
        int moved = project.database().write("move the GLOBAL entries of " + project.path() + " to " + global.path(),
                projectConnection -> global.database().write("receive the GLOBAL entries of " + project.path(),
                        globalConnection -> move(projectConnection, globalConnection)));
        if (moved > 0) {
            LOG.info("Moved {} GLOBAL key(s) from {} to the shared global store {}", moved, project.path(), global.path());
        }
        return moved;
    }

    private static int move(Connection project, Connection global) throws SQLException {
        List<String> movable = new ArrayList<>();
        for (String key : oldKeys(project)) {
            KeyRows local = KeyRows.read(project, key);
            KeyRows shared = KeyRows.read(global, key);
            if (shared.isEmpty()) {
                local.copyTo(global, key);
                movable.add(key);
            } else if (shared.equals(local)) {
                movable.add(key); // an earlier move committed the global file and stopped before the project file
            }
        }
        for (String key : movable) {
            carryRelations(project, global, key, movable);
        }
        // Deleting the rows deletes their tags, edges and halves too (ON DELETE CASCADE).
        for (String key : movable) {
            for (String delete : List.of(Statements.DELETE_KEY_ENTRY, Statements.DELETE_KEY_VERSIONS)) {
                try (PreparedStatement statement = project.prepareStatement(delete)) {
                    statement.setString(GLOBAL.bind(statement, 1), key);
                    statement.executeUpdate();
                }
            }
        }
        return movable.size();
    }

    /**
     * Writes the relations of moved {@code key}'s project-file row into their new places: an edge to another moved key
     * as an edge of the global file, one to a PROJECT or SESSION entry as a half in each file.
     */
    private static void carryRelations(Connection project, Connection global, String key, List<String> movable)
            throws SQLException {
        long localId = SqliteGraph.entryId(project, GLOBAL, key);
        long globalId = SqliteGraph.entryId(global, GLOBAL, key);
        if (localId == 0 || globalId == 0) {
            return;
        }
        try (PreparedStatement statement = project.prepareStatement(EDGES_OF)) {
            statement.setLong(1, localId);
            statement.setLong(2, localId);
            statement.setLong(3, localId);
            try (ResultSet edges = statement.executeQuery()) {
                while (edges.next()) {
                    boolean outgoing = edges.getLong("from_entry") == localId;
                    String type = edges.getString("type");
                    long createdAt = edges.getLong("created_at");
                    Namespace other = new Namespace(edges.getString("project"), edges.getString("session"),
                            Scope.parse(edges.getString("scope")));
                    String otherKey = edges.getString("key");
                    if (other.scope() != Scope.GLOBAL) {
                        ScopedGraph.writeHalf(global, globalId, outgoing, type, other, otherKey, createdAt);
                        ScopedGraph.writeHalf(project, edges.getLong("other_id"), !outgoing, type, GLOBAL, key, createdAt);
                    } else if (movable.contains(otherKey)) {
                        long otherId = SqliteGraph.entryId(global, GLOBAL, otherKey);
                        if (otherId != 0) {
                            try (PreparedStatement insert = global.prepareStatement(Statements.INSERT_EDGE)) {
                                insert.setLong(1, outgoing ? globalId : otherId);
                                insert.setString(2, type);
                                insert.setLong(3, outgoing ? otherId : globalId);
                                insert.setLong(4, createdAt);
                                insert.executeUpdate();
                            }
                        }
                    } else {
                        LOG.warn("The relation '{}' between GLOBAL keys '{}' and '{}' stays behind in the project file: '{}' "
                                + "could not move (see doctor)", type, Keys.abbreviate(key), Keys.abbreviate(otherKey),
                                Keys.abbreviate(otherKey));
                    }
                }
            }
        }
    }

    /**
     * The GLOBAL keys still in the project file, each a problem for {@code doctor}: the shared store holds the same key
     * with other content, so it did not move, or the move failed when the provider opened (a full disk).
     */
    public static List<StoreProblem> leftovers(ScopedStores stores) {
        if (!stores.split()) {
            return List.of();
        }
        List<StoreProblem> problems = new ArrayList<>();
        String file = stores.project().path().toString();
        Path global = stores.global().path();
        try {
            for (String key : oldKeys(stores.project())) {
                String name = "'" + Keys.abbreviate(key) + "'";
                boolean held = !stores.global().database().read("read GLOBAL key " + name,
                        connection -> KeyRows.read(connection, key)).isEmpty();
                problems.add(new StoreProblem(file, held
                        ? "GLOBAL key " + name + " of this project database did not move to the shared global database "
                        + global + ", which holds another " + name + ": read this one with global_path set to " + file
                        + ", keep what you need in the shared database, then delete it there (with that global_path)"
                        : "GLOBAL key " + name + " of this project database has not moved to the shared global database "
                        + global + " yet (the move failed when the provider opened: see its log); open the provider "
                        + "again where the disk has space and the global database can be written"));
            }
        } catch (MemoryException e) {
            problems.add(new StoreProblem(file, "cannot list the GLOBAL keys left in this project database: " + e.getMessage()));
        }
        return List.copyOf(problems);
    }

    private static List<String> oldKeys(SqliteStore store) {
        return store.database().read("list the GLOBAL keys of " + store.path(), GlobalMove::oldKeys);
    }

    private static List<String> oldKeys(Connection connection) throws SQLException {
        List<String> keys = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(OLD_KEYS);
             ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                keys.add(rows.getString(1));
            }
        }
        return keys;
    }

    /** Everything one file stores of a GLOBAL key, column by column as SQLite gives it. */
    private record KeyRows(Map<String, Object> live, List<Map<String, Object>> versions) {

        boolean isEmpty() {
            return live.isEmpty() && versions.isEmpty();
        }

        static KeyRows read(Connection connection, String key) throws SQLException {
            List<Map<String, Object>> live = select(connection, LIVE_ROW, key);
            live.forEach(row -> row.remove("id"));
            return new KeyRows(live.isEmpty() ? Map.of() : live.get(0), select(connection, VERSION_ROWS, key));
        }

        private static List<Map<String, Object>> select(Connection connection, String sql, String key) throws SQLException {
            List<Map<String, Object>> rows = new ArrayList<>();
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                statement.setString(GLOBAL.bind(statement, 1), key);
                try (ResultSet results = statement.executeQuery()) {
                    int columns = results.getMetaData().getColumnCount();
                    while (results.next()) {
                        Map<String, Object> row = new LinkedHashMap<>();
                        for (int i = 1; i <= columns; i++) {
                            row.put(results.getMetaData().getColumnLabel(i), results.getObject(i));
                        }
                        rows.add(row);
                    }
                }
            }
            return rows;
        }

        /** Inserts these rows, verbatim, into a file that holds nothing of {@code key}. */
        void copyTo(Connection connection, String key) throws SQLException {
            for (Map<String, Object> version : versions) {
                try (PreparedStatement insert = connection.prepareStatement(COPY_VERSION)) {
                    int next = GLOBAL.bind(insert, 1);
                    insert.setString(next++, key);
                    for (String column : List.of("version", "tombstone", "value", "tags", "metadata", "created_at", "updated_at")) {
                        insert.setObject(next++, version.get(column));
                    }
                    insert.executeUpdate();
                }
            }
            if (live.isEmpty()) {
                return;
            }
            try (PreparedStatement insert = connection.prepareStatement(Statements.INSERT_ENTRY)) {
                int next = GLOBAL.bind(insert, 1);
                insert.setString(next++, key);
                // search_text too: both files are opened with one config, so the text is what the global store would compute
                for (String column : List.of("value", "tags", "metadata", "created_at", "updated_at", "version", "search_text")) {
                    insert.setObject(next++, live.get(column));
                }
                insert.executeUpdate();
            }
            try (PreparedStatement tags = connection.prepareStatement(COPY_TAGS)) {
                tags.setLong(1, SqliteGraph.entryId(connection, GLOBAL, key));
                tags.setObject(2, live.get("tags"));
                tags.executeUpdate();
            }
        }
    }
}
