package dev.forge.memory.sqlite.internal;

import dev.forge.memory.BackendUnavailableException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The schema, as numbered steps recorded in {@code PRAGMA user_version}: the database is at version {@code n} when
 * steps 1 to {@code n} are applied. Each step runs in one {@code BEGIN IMMEDIATE} transaction together with the
 * version bump, so a crash or a second process opening the same file at the same moment never leaves half a step;
 * the version is read again inside the transaction, so two processes never apply a step twice.
 *
 * <p>Steps are never edited once released: a change of schema is a new step.
 */
public final class Migrations {

    /**
     * Step 1: entries, their tags, every version (tombstones included) and typed edges, with the indexes that keep
     * each lookup of the provider off a full scan.
     */
    static final List<String> V1_CORE_TABLES = List.of(
            """
            CREATE TABLE entries (
              id         INTEGER PRIMARY KEY,
              project    TEXT    NOT NULL,
              session    TEXT    NOT NULL,
              scope      TEXT    NOT NULL CHECK (scope IN ('session', 'project', 'global')),
              key        TEXT    NOT NULL,
              value      TEXT    NOT NULL,
              tags       TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(tags) AND json_type(tags) = 'array'),
              metadata   TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(metadata) AND json_type(metadata) = 'object'),
              created_at INTEGER NOT NULL,
              updated_at INTEGER NOT NULL,
              version    INTEGER NOT NULL CHECK (version >= 1)
            )""",
            "CREATE UNIQUE INDEX entries_by_key ON entries (project, session, scope, key)",
            "CREATE INDEX entries_by_update ON entries (project, session, scope, updated_at)",
            """
            CREATE TABLE tags (
              tag      TEXT    NOT NULL,
              entry_id INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
              PRIMARY KEY (tag, entry_id)
            ) WITHOUT ROWID""",
            "CREATE INDEX tags_by_entry ON tags (entry_id)",
            """
            CREATE TABLE versions (
              id         INTEGER PRIMARY KEY AUTOINCREMENT,
              project    TEXT    NOT NULL,
              session    TEXT    NOT NULL,
              scope      TEXT    NOT NULL CHECK (scope IN ('session', 'project', 'global')),
              key        TEXT    NOT NULL,
              version    INTEGER NOT NULL CHECK (version >= 1),
              tombstone  INTEGER NOT NULL DEFAULT 0 CHECK (tombstone IN (0, 1)),
              value      TEXT,
              tags       TEXT CHECK (tags IS NULL OR (json_valid(tags) AND json_type(tags) = 'array')),
              metadata   TEXT CHECK (metadata IS NULL OR (json_valid(metadata) AND json_type(metadata) = 'object')),
              created_at INTEGER,
              updated_at INTEGER NOT NULL,
              CHECK (tombstone = 1 OR (value IS NOT NULL AND tags IS NOT NULL AND metadata IS NOT NULL AND created_at IS NOT NULL))
            )""",
            "CREATE UNIQUE INDEX versions_by_key ON versions (project, session, scope, key, version)",
            """
            CREATE TABLE edges (
              from_entry INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
              type       TEXT    NOT NULL,
              to_entry   INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
              created_at INTEGER NOT NULL,
              PRIMARY KEY (from_entry, type, to_entry)
            ) WITHOUT ROWID""",
            "CREATE INDEX edges_incoming ON edges (to_entry, type, from_entry)");

    /**
     * Step 2: keyword search. An FTS5 index over the key, value and tags of every entry, reading its text from
     * {@code entries} (external content, so the text is not stored twice), kept in step by triggers, and filled from
     * the entries already there.
     */
    static final List<String> V2_KEYWORD_SEARCH = List.of(
            """
            CREATE VIRTUAL TABLE entries_fts USING fts5(
              key, value, tags,
              content = 'entries', content_rowid = 'id',
              tokenize = 'unicode61 remove_diacritics 0'
            )""",
            """
            CREATE TRIGGER entries_fts_insert AFTER INSERT ON entries BEGIN
              INSERT INTO entries_fts (rowid, key, value, tags) VALUES (new.id, new.key, new.value, new.tags);
            END""",
            """
            CREATE TRIGGER entries_fts_delete AFTER DELETE ON entries BEGIN
              INSERT INTO entries_fts (entries_fts, rowid, key, value, tags) VALUES ('delete', old.id, old.key, old.value, old.tags);
            END""",
            """
            CREATE TRIGGER entries_fts_update AFTER UPDATE OF key, value, tags ON entries BEGIN
              INSERT INTO entries_fts (entries_fts, rowid, key, value, tags) VALUES ('delete', old.id, old.key, old.value, old.tags);
              INSERT INTO entries_fts (rowid, key, value, tags) VALUES (new.id, new.key, new.value, new.tags);
            END""",
            "INSERT INTO entries_fts (entries_fts) VALUES ('rebuild')");

    /**
     * Step 3: relations between an entry of this file and one of another file (a PROJECT or SESSION entry of a project
     * store and a GLOBAL entry of the shared global store). Each file keeps its half, tied to its own entry, which takes
     * it along when deleted; the other end is named by namespace and key. A relation exists while both halves do.
     */
    static final List<String> V3_LINKS = List.of(
            """
            CREATE TABLE links (
              entry_id      INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
              outgoing      INTEGER NOT NULL CHECK (outgoing IN (0, 1)),
              type          TEXT    NOT NULL,
              other_project TEXT    NOT NULL,
              other_session TEXT    NOT NULL,
              other_scope   TEXT    NOT NULL CHECK (other_scope IN ('session', 'project', 'global')),
              other_key     TEXT    NOT NULL,
              created_at    INTEGER NOT NULL,
              PRIMARY KEY (entry_id, outgoing, type, other_project, other_session, other_scope, other_key)
            ) WITHOUT ROWID""",
            "CREATE INDEX links_by_other ON links (other_project, other_session, other_scope, other_key)");

    /**
     * Step 4: keyword search on English stems. The FTS5 index of step 2 is rebuilt with the {@code porter} tokenizer
     * over {@code unicode61} (same words, then Porter-stemmed, so "deploying" finds "deployed"), with the same
     * triggers, and filled again from the entries: a tokenizer is fixed when an FTS5 table is created.
     */
    static final List<String> V4_STEMMED_KEYWORD_SEARCH = stemmedKeywordSearch();

    private static List<String> stemmedKeywordSearch() {
        List<String> step = new ArrayList<>(List.of(
                "DROP TRIGGER entries_fts_insert",
                "DROP TRIGGER entries_fts_delete",
                "DROP TRIGGER entries_fts_update",
                "DROP TABLE entries_fts",
                """
                CREATE VIRTUAL TABLE entries_fts USING fts5(
                  key, value, tags,
                  content = 'entries', content_rowid = 'id',
                  tokenize = 'porter unicode61 remove_diacritics 0'
                )"""));
        // the triggers and the rebuild of step 2, unchanged
        step.addAll(V2_KEYWORD_SEARCH.subList(1, V2_KEYWORD_SEARCH.size()));
        return List.copyOf(step);
    }

    /**
     * Step 5: configurable indexed text ({@code search_fields}). Each entry gets {@code search_text}, the text of the
     * metadata fields the setting names (filled by the store, empty for the default, so old rows stay right), and the
     * FTS5 index of step 4 a fourth column over it; {@code search_settings} records the setting the column was filled
     * with, so that a provider opened with another one refills it. Which of key and tags are searched is chosen per
     * query (an FTS5 column filter), so the index needs nothing for them.
     */
    static final List<String> V5_SEARCH_FIELDS = List.of(
            "ALTER TABLE entries ADD COLUMN search_text TEXT NOT NULL DEFAULT ''",
            "CREATE TABLE search_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
            "DROP TRIGGER entries_fts_insert",
            "DROP TRIGGER entries_fts_delete",
            "DROP TRIGGER entries_fts_update",
            "DROP TABLE entries_fts",
            """
            CREATE VIRTUAL TABLE entries_fts USING fts5(
              key, value, tags, search_text,
              content = 'entries', content_rowid = 'id',
              tokenize = 'porter unicode61 remove_diacritics 0'
            )""",
            """
            CREATE TRIGGER entries_fts_insert AFTER INSERT ON entries BEGIN
              INSERT INTO entries_fts (rowid, key, value, tags, search_text)
                VALUES (new.id, new.key, new.value, new.tags, new.search_text);
            END""",
            """
            CREATE TRIGGER entries_fts_delete AFTER DELETE ON entries BEGIN
              INSERT INTO entries_fts (entries_fts, rowid, key, value, tags, search_text)
                VALUES ('delete', old.id, old.key, old.value, old.tags, old.search_text);
            END""",
            """
            CREATE TRIGGER entries_fts_update AFTER UPDATE OF key, value, tags, search_text ON entries BEGIN
              INSERT INTO entries_fts (entries_fts, rowid, key, value, tags, search_text)
                VALUES ('delete', old.id, old.key, old.value, old.tags, old.search_text);
              INSERT INTO entries_fts (rowid, key, value, tags, search_text)
                VALUES (new.id, new.key, new.value, new.tags, new.search_text);
            END""",
            "INSERT INTO entries_fts (entries_fts) VALUES ('rebuild')");

    /**
     * Step 6: the number of entries in the file, kept by triggers, which is the row count FTS5's {@code bm25()} weighs
     * terms by (its index holds every entry): a keyword score divides {@code bm25()} by the best score the query could
     * reach, whose idfs need it, and counting the entries at each search would read the whole table.
     */
    static final List<String> V6_ENTRY_COUNT = List.of(
            "CREATE TABLE entry_count (id INTEGER PRIMARY KEY CHECK (id = 1), entries INTEGER NOT NULL)",
            "INSERT INTO entry_count (id, entries) SELECT 1, count(*) FROM entries",
            """
            CREATE TRIGGER entry_count_insert AFTER INSERT ON entries BEGIN
              UPDATE entry_count SET entries = entries + 1 WHERE id = 1;
            END""",
            """
            CREATE TRIGGER entry_count_delete AFTER DELETE ON entries BEGIN
              UPDATE entry_count SET entries = entries - 1 WHERE id = 1;
            END""");

    private static final List<List<String>> STEPS = List.of(V1_CORE_TABLES, V2_KEYWORD_SEARCH, V3_LINKS,
            V4_STEMMED_KEYWORD_SEARCH, V5_SEARCH_FIELDS, V6_ENTRY_COUNT);

    /** The schema version this code writes and reads. */
    public static final int CURRENT = STEPS.size();

    private Migrations() {
    }

    /**
     * Brings the database up to {@link #CURRENT}, one transaction per step.
     *
     * @throws BackendUnavailableException if a newer forge-memory wrote the database; it is left untouched
     */
    public static void migrate(Connection connection, Path path) throws SQLException {
        migrate(connection, path, CURRENT);
    }

    /**
     * Applies the steps up to {@code target} only; for tests that build a database as an older version left it.
     *
     * @throws BackendUnavailableException if the database is newer than {@link #CURRENT}; it is left untouched
     */
    public static void migrate(Connection connection, Path path, int target) throws SQLException {
        if (target < 0 || target > CURRENT) {
            throw new IllegalArgumentException("no schema version " + target + "; this code knows 0 to " + CURRENT);
        }
        while (true) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("BEGIN IMMEDIATE");
                boolean done = false;
                try {
                    int version = userVersion(statement);
                    if (version > CURRENT) {
                        throw newerThanThisCode(path, version);
                    }
                    if (version >= target) {
                        statement.execute("COMMIT");
                        done = true;
                        return;
                    }
                    for (String sql : STEPS.get(version)) {
                        statement.execute(sql);
                    }
                    statement.execute("PRAGMA user_version = " + (version + 1));
                    statement.execute("COMMIT");
                    done = true;
                } finally {
                    if (!done) {
                        rollbackQuietly(statement);
                    }
                }
            }
        }
    }

    /** The schema version recorded in the database. */
    public static int userVersion(Statement statement) throws SQLException {
        try (ResultSet rows = statement.executeQuery("PRAGMA user_version")) {
            return rows.next() ? rows.getInt(1) : 0;
        }
    }

    static BackendUnavailableException newerThanThisCode(Path path, int version) {
        return new BackendUnavailableException("The SQLite database " + path + " has schema version " + version
                + ", written by a newer forge-memory; this one knows versions up to " + CURRENT
                + ". It was left untouched: upgrade forge-memory, or point 'path' at another file.");
    }

    private static void rollbackQuietly(Statement statement) {
        try {
            statement.execute("ROLLBACK");
        } catch (SQLException ignored) {
            // SQLite rolls back by itself after some errors; then there is nothing left to roll back.
        }
    }
}
