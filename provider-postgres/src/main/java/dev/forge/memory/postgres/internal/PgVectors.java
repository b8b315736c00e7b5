package dev.forge.memory.postgres.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.IndexModelMismatchException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.support.SearchText;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The vectors of a store's entries, in table {@code embeddings} of the pgvector extension: one row per entry (its
 * vector, or none where the text has no words) tagged with the model that made it, written in the SQL transaction
 * of the entry's write, removed with the entry ({@code ON DELETE CASCADE}). Searches read only rows of their own
 * model, so vectors of two models are never compared. Each model has its own HNSW index (cosine), partial on its tag.
 *
 * <p>A provider without an {@code embedding} block gets {@link #none} and writes no vector. So that no vector outlives
 * the text it was made of, whoever writes, a trigger on {@code entries} (created with the table) removes an entry's
 * vector when its value or tags change; a writer with a model stores the new vector after it in the same transaction.
 */
public final class PgVectors {

    /** The config key of the embedding block, which the provider locates in its config file. */
    static final String BLOCK = "embedding";

    /** The settings row that records the fingerprint of the model whose vectors the store serves. */
    static final String SETTING = "embedding";

    /** What is embedded of an entry: key, tags and value, whatever keyword search's {@code search_fields}. */
    static final SearchText TEXT = SearchText.DEFAULT;

    private final Optional<EmbeddingModel> model;
    /** The extension's schema, quoted: the type and operators are named through it, wherever it was installed. */
    private volatile String extension = "";
    /** The tag of this model's rows: from the fingerprint recorded for it (a recognised older one) or its own. */
    private volatile long tag;
    /** Whether the store's vectors are this model's: false when opened for reindex on another model's vectors. */
    private volatile boolean ready;
    private volatile String recorded = "";
    private volatile String extensionVersion = "";

    private PgVectors(Optional<EmbeddingModel> model) {
        this.model = model;
    }

    /** No model: no vectors written, and none left for an overwritten entry. */
    public static PgVectors none() {
        return new PgVectors(Optional.empty());
    }

    /** Vectors made by {@code model}; {@link #prepare} must run before any write. */
    public static PgVectors of(EmbeddingModel model) {
        return new PgVectors(Optional.of(model));
    }

    /** The model, if the store keeps vectors. */
    public Optional<EmbeddingModel> model() {
        return model;
    }

    /** Whether the store's vectors are this model's (false only when opened for reindex on another model's). */
    public boolean ready() {
        return ready;
    }

    long tag() {
        return tag;
    }

    String extension() {
        return extension;
    }

    String extensionVersion() {
        return extensionVersion;
    }

    int dimension() {
        return model.orElseThrow().dimension();
    }

    /** The fingerprint recorded with the store, empty when none is. */
    public String recorded() {
        return recorded;
    }

    /** Tags the rows this provider writes from now on with {@code fingerprint}, the model a reindex records. */
    void retag(String fingerprint) {
        tag = tagOf(fingerprint);
    }

    void markReady(String fingerprint) {
        recorded = fingerprint;
        tag = tagOf(fingerprint);
        ready = true;
    }

    // ------------------------------------------------------------------ opening

    /**
     * In the opening transaction, after the migration, with a model (without one, nothing): checks that the server
     * offers pgvector and creates the extension when the database lacks it, creates the table, its trigger and this
     * model's index when missing, and compares the recorded fingerprint with the model's. A store that records none,
     * or holds no vector of the recorded model, adopts this one.
     *
     * @param field the dotted path of the embedding block in its file, for a mismatch (other refusals name
     *              {@value #BLOCK}, which the caller locates)
     * @throws ConfigurationException       if the server has no pgvector, or the login may not create the extension
     * @throws IndexModelMismatchException  if the store holds another model's vectors and {@code forReindex} is off
     */
    void prepare(Connection connection, String where, boolean forReindex, String source, String field) throws SQLException {
        if (model.isEmpty()) {
            return;
        }
        EmbeddingModel m = model.get();
        installExtension(connection, where);
        String schema = connection.getSchema();
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS embeddings (entry_id bigint PRIMARY KEY REFERENCES entries (id)"
                    + " ON DELETE CASCADE, model bigint NOT NULL, embedding " + extension + ".vector)");
        }
        // Created only when missing: creating a trigger or an index locks the table against writers, at every open.
        if (!exists(connection, "SELECT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = 'entries'::regclass"
                + " AND tgname = 'entries_embedding_outdated')")) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE OR REPLACE FUNCTION embedding_outdated() RETURNS trigger LANGUAGE plpgsql AS $$"
                        + " BEGIN DELETE FROM " + schema + ".embeddings WHERE entry_id = NEW.id; RETURN NULL; END $$");
                statement.execute("CREATE OR REPLACE TRIGGER entries_embedding_outdated AFTER UPDATE OF value, tags ON"
                        + " entries FOR EACH ROW WHEN (OLD.value IS DISTINCT FROM NEW.value OR OLD.tags IS DISTINCT FROM"
                        + " NEW.tags) EXECUTE FUNCTION embedding_outdated()");
            }
        }
        String stored = null;
        try (PreparedStatement statement = connection.prepareStatement("SELECT value FROM settings WHERE name = ?")) {
            statement.setString(1, SETTING);
            try (ResultSet rows = statement.executeQuery()) {
                if (rows.next()) {
                    stored = rows.getString(1);
                }
            }
        }
        if (stored != null && m.recognises(stored)) {
            markReady(stored);
        } else if (stored == null || !holdsVectorsOf(connection, tagOf(stored))) {
            record(connection, m.fingerprint());
            markReady(m.fingerprint());
        } else if (forReindex) {
            recorded = stored;
            tag = tagOf(m.fingerprint());
            ready = false;
        } else {
            throw new IndexModelMismatchException("postgres", where, m.describe(stored), m.fingerprint(), source, field);
        }
        createIndex(connection);
    }

    private void installExtension(Connection connection, String where) throws SQLException {
        String available = null;
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'");
             ResultSet rows = statement.executeQuery()) {
            if (rows.next()) {
                available = rows.getString(1);
            }
        }
        if (available == null) {
            throw new ConfigurationException("PostgreSQL at " + where + " does not have the pgvector extension, which the "
                    + "'embedding' block needs for semantic search: install pgvector on the server "
                    + "(https://github.com/pgvector/pgvector#installation), or leave out 'embedding' for keyword search only.",
                    null, BLOCK, null);
        }
        if (installed(connection).isEmpty()) {
            try (Statement statement = connection.createStatement()) {
                // a savepoint, so that a refusal leaves the transaction usable for the message
                statement.execute("SAVEPOINT forge_vector");
                // In public where there is one: created in the store's schema, it would go with that schema.
                statement.execute("CREATE EXTENSION IF NOT EXISTS vector" + (hasPublic(connection) ? " SCHEMA public" : ""));
                statement.execute("RELEASE SAVEPOINT forge_vector");
            } catch (SQLException e) {
                if (!"42501".equals(e.getSQLState())) {
                    throw e;
                }
                try (Statement statement = connection.createStatement()) {
                    statement.execute("ROLLBACK TO SAVEPOINT forge_vector");
                }
                throw new ConfigurationException("PostgreSQL at " + where + " has pgvector, but the login '"
                        + currentUser(connection) + "' may not create the extension in this database (pgvector is not a "
                        + "trusted extension: it takes a superuser). Have a superuser run CREATE EXTENSION vector; in the "
                        + "database once, or leave out 'embedding' for keyword search only.", null, BLOCK, e);
            }
        }
        String[] found = installed(connection).orElseThrow();
        extension = '"' + found[0].replace("\"", "\"\"") + '"';
        extensionVersion = found[1];
        if (!atLeast(extensionVersion, 0, 5)) {
            throw new ConfigurationException("PostgreSQL at " + where + " has pgvector " + extensionVersion + " installed in"
                    + " this database, older than 0.5.0, which HNSW indexes need: install a newer pgvector on the server and"
                    + " run ALTER EXTENSION vector UPDATE; in the database, or leave out 'embedding' for keyword search only.",
                    null, BLOCK, null);
        }
    }

    /** Whether version text {@code version} ({@code 0.8.6}) is at least {@code major.minor}; false when unreadable. */
    static boolean atLeast(String version, int major, int minor) {
        String[] parts = version.split("[.-]");
        try {
            int first = Integer.parseInt(parts[0]);
            int second = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return first > major || first == major && second >= minor;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The schema and version of the installed extension, if installed in this database. */
    private static Optional<String[]> installed(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT n.nspname, x.extversion FROM pg_extension x"
                + " JOIN pg_namespace n ON n.oid = x.extnamespace WHERE x.extname = 'vector'");
             ResultSet rows = statement.executeQuery()) {
            return rows.next() ? Optional.of(new String[] {rows.getString(1), rows.getString(2)}) : Optional.empty();
        }
    }

    private static boolean hasPublic(Connection connection) throws SQLException {
        return exists(connection, "SELECT to_regnamespace('public') IS NOT NULL");
    }

    private static String currentUser(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT current_user")) {
            rows.next();
            return rows.getString(1);
        }
    }

    private static boolean holdsVectorsOf(Connection connection, long tag) throws SQLException {
        return exists(connection, "SELECT EXISTS (SELECT 1 FROM embeddings WHERE model = " + tag + ")");
    }

    /** The boolean {@code sql} answers. */
    private static boolean exists(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getBoolean(1);
        }
    }

    /** Records {@code fingerprint} as the model of the store's vectors. */
    static void record(Connection connection, String fingerprint) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("INSERT INTO settings (name, value) VALUES (?, ?)"
                + " ON CONFLICT (name) DO UPDATE SET value = excluded.value")) {
            statement.setString(1, SETTING);
            statement.setString(2, fingerprint);
            statement.executeUpdate();
        }
    }

    /**
     * Creates, if missing, the HNSW index (cosine) of this model's rows: partial on the model's tag, on the vector cast
     * to the model's dimension (the column holds vectors of any dimension; an HNSW index needs one).
     */
    void createIndex(Connection connection) throws SQLException {
        String name = "embeddings_hnsw_" + Long.toHexString(tag);
        if (exists(connection, "SELECT to_regclass('" + name + "') IS NOT NULL")) {
            return;
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE INDEX IF NOT EXISTS " + name + " ON embeddings USING hnsw ((" + vectorColumn("embedding")
                    + ") " + extension + ".vector_cosine_ops) WHERE model = " + tag);
        }
    }

    /** The SQL of column {@code column} as a vector of the model's dimension: the expression the index is on. */
    String vectorColumn(String column) {
        return column + "::" + extension + ".vector(" + dimension() + ")";
    }

    /** The tag of a fingerprint's rows: the first 8 bytes of its SHA-256, as a number an index predicate can hold. */
    static long tagOf(String fingerprint) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(fingerprint.getBytes(StandardCharsets.UTF_8));
            long tag = 0;
            for (int i = 0; i < 8; i++) {
                tag = (tag << 8) | (digest[i] & 0xff);
            }
            return tag & Long.MAX_VALUE;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    // ------------------------------------------------------------------ writes

    /**
     * The vectors of {@code entries}' texts, in one call of the model, before any SQL transaction: {@code null} for
     * each without a model, or whose text has no words.
     */
    public List<float[]> embed(List<MemoryEntry> entries) {
        List<float[]> vectors = new ArrayList<>(entries.size());
        if (model.isEmpty() || entries.isEmpty()) {
            entries.forEach(e -> vectors.add(null));
            return vectors;
        }
        EmbeddingModel m = model.get();
        List<float[]> made = m.embed(entries.stream().map(TEXT::text).toList());
        if (made.size() != entries.size()) {
            throw new BackendUnavailableException("The embedding model '" + m.name() + "' returned " + made.size()
                    + " vectors for " + entries.size() + " texts.");
        }
        for (float[] vector : made) {
            vectors.add(checked(m, vector));
        }
        return vectors;
    }

    /** {@link #embed(List)} of one entry. */
    public float[] embed(MemoryEntry entry) {
        return embed(List.of(entry)).get(0);
    }

    /** {@code vector}, checked against the model's dimension; {@code null} for the zero vector (no words). */
    static float[] checked(EmbeddingModel model, float[] vector) {
        if (vector.length != model.dimension()) {
            throw new BackendUnavailableException("The embedding model '" + model.name() + "' returned a vector of "
                    + vector.length + " components; it declares " + model.dimension() + ".");
        }
        for (float component : vector) {
            if (component != 0) {
                return vector;
            }
        }
        return null;
    }

    /**
     * In the transaction writing entry row {@code id}, after the row: stores its vector, made before the transaction
     * (none where {@code vector} is {@code null}). Without a model, nothing.
     */
    void write(Connection connection, long id, float[] vector) throws SQLException {
        writeAll(connection, new long[] {id}, Collections.singletonList(vector));
    }

    /** {@link #write} of rows {@code ids[i]} with {@code vectors.get(i)}, in one JDBC batch. */
    void writeAll(Connection connection, long[] ids, List<float[]> vectors) throws SQLException {
        if (model.isEmpty() || ids.length == 0) {
            return;
        }
        try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO embeddings (entry_id, model, embedding)"
                + " VALUES (?, ?, ?::" + extension + ".vector) ON CONFLICT (entry_id) DO UPDATE SET model = excluded.model,"
                + " embedding = excluded.embedding")) {
            for (int i = 0; i < ids.length; i++) {
                float[] vector = vectors.get(i);
                upsert.setLong(1, ids[i]);
                upsert.setLong(2, tag);
                upsert.setString(3, vector == null ? null : literal(vector));
                upsert.addBatch();
            }
            upsert.executeBatch();
        }
    }

    /** pgvector's text form of {@code vector}: {@code [x,y,...]}. */
    static String literal(float[] vector) {
        StringBuilder text = new StringBuilder(vector.length * 12).append('[');
        for (int i = 0; i < vector.length; i++) {
            if (i > 0) {
                text.append(',');
            }
            text.append(vector[i]);
        }
        return text.append(']').toString();
    }
}
