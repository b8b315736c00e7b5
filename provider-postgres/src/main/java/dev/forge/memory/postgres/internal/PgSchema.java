package dev.forge.memory.postgres.internal;

import dev.forge.memory.BackendUnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The schema, as numbered steps recorded in {@code schema_version}: the store is at version {@code n} when steps 1 to
 * {@code n} are applied. The whole migration runs in one transaction under an advisory lock on the schema's name, so
 * two processes opening one store at the same moment never apply a step twice, and a failure leaves no half step.
 * Steps are never edited once released: a change of schema is a new step.
 */
public final class PgSchema {

    /**
     * Step 1: entries (the value as UTF-8 bytes, since PostgreSQL text cannot hold U+0000; tags and metadata as JSON
     * text, read back exactly; the keyword document), their tags, every version, the tombstones of deletions, typed
     * edges, and the settings the keyword documents were built with. Versions and tombstones draw their ids from one
     * sequence: the highest id of a key is its revision, which every write of the key changes.
     */
    static final List<String> V1 = List.of(
            """
            CREATE TABLE entries (
              id         bigserial PRIMARY KEY,
              project    text   NOT NULL,
              session    text   NOT NULL,
              scope      text   NOT NULL CHECK (scope IN ('session', 'project', 'global')),
              key        text   COLLATE "C" NOT NULL,
              value      bytea  NOT NULL,
              tags       text   NOT NULL,
              metadata   text   NOT NULL,
              created_at bigint NOT NULL,
              updated_at bigint NOT NULL,
              version    bigint NOT NULL CHECK (version >= 1),
              document   tsvector NOT NULL,
              UNIQUE (project, session, scope, key)
            )""",
            "CREATE INDEX entries_document ON entries USING GIN (document)",
            // Not (project, session, scope, updated_at): without planner statistics (a new schema, a large import)
            // that index ties with the unique key index, and a lookup by key scanned the whole namespace through it.
            "CREATE INDEX entries_by_update ON entries (updated_at)",
            """
            CREATE TABLE tags (
              tag      text   NOT NULL,
              entry_id bigint NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
              PRIMARY KEY (tag, entry_id)
            )""",
            "CREATE INDEX tags_by_entry ON tags (entry_id)",
            "CREATE SEQUENCE revisions",
            """
            CREATE TABLE versions (
              id         bigint NOT NULL DEFAULT nextval('revisions') PRIMARY KEY,
              project    text   NOT NULL,
              session    text   NOT NULL,
              scope      text   NOT NULL,
              key        text   COLLATE "C" NOT NULL,
              version    bigint NOT NULL CHECK (version >= 1),
              value      bytea  NOT NULL,
              tags       text   NOT NULL,
              metadata   text   NOT NULL,
              created_at bigint NOT NULL,
              updated_at bigint NOT NULL,
              UNIQUE (project, session, scope, key, version)
            )""",
            """
            CREATE TABLE tombstones (
              id         bigint NOT NULL DEFAULT nextval('revisions') PRIMARY KEY,
              project    text   NOT NULL,
              session    text   NOT NULL,
              scope      text   NOT NULL,
              key        text   COLLATE "C" NOT NULL,
              version    bigint NOT NULL CHECK (version >= 1),
              deleted_at bigint NOT NULL,
              UNIQUE (project, session, scope, key, version)
            )""",
            """
            CREATE TABLE edges (
              from_entry bigint NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
              type       text   NOT NULL,
              to_entry   bigint NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
              created_at bigint NOT NULL,
              PRIMARY KEY (from_entry, type, to_entry)
            )""",
            "CREATE INDEX edges_incoming ON edges (to_entry, type, from_entry)",
            "CREATE TABLE settings (name text PRIMARY KEY, value text NOT NULL)",
            // What index(field) indexes: a top-level metadata field as text, NULL where the JSON cannot give it.
            """
            CREATE FUNCTION metadata_field(metadata text, field text) RETURNS text
              LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
            BEGIN
              RETURN metadata::json ->> field;
            EXCEPTION WHEN others THEN
              RETURN NULL;
            END
            $$""");

    /** Every step, in order. */
    static final List<List<String>> STEPS = List.of(V1);

    /** The version this release writes. */
    public static final int LATEST = STEPS.size();

    private PgSchema() {
    }

    /**
     * Creates the schema when missing and applies the steps it lacks, on {@code connection} in the caller's transaction.
     *
     * @throws BackendUnavailableException if a newer forge-memory wrote the schema (left untouched)
     */
    static void migrate(Connection connection, String schema, String where) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement("SELECT pg_advisory_xact_lock(hashtext(?))")) {
            lock.setString(1, "forge-memory schema " + schema);
            lock.execute();
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
            statement.execute("SET LOCAL search_path TO " + schema);
            statement.execute("CREATE TABLE IF NOT EXISTS schema_version (id int PRIMARY KEY CHECK (id = 1), version int NOT NULL)");
            int version = 0;
            try (ResultSet rows = statement.executeQuery("SELECT version FROM schema_version WHERE id = 1")) {
                if (rows.next()) {
                    version = rows.getInt(1);
                }
            }
            if (version > LATEST) {
                throw new BackendUnavailableException("The forge-memory tables at " + where + " are at schema version "
                        + version + ", written by a newer forge-memory (this one knows up to " + LATEST + "); they were "
                        + "left untouched. Upgrade forge-memory, or name another 'schema'.");
            }
            for (int step = version; step < LATEST; step++) {
                for (String sql : STEPS.get(step)) {
                    statement.execute(sql);
                }
            }
            if (version < LATEST) {
                statement.execute("INSERT INTO schema_version (id, version) VALUES (1, " + LATEST + ")"
                        + " ON CONFLICT (id) DO UPDATE SET version = excluded.version");
            }
        }
    }
}
