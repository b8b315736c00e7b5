package dev.forge.memory.benchmarks.transfer;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.sqlite.SQLiteConfig;

/**
 * The baselines: what a developer writes by hand to move the same records between a forge-memory sqlite file and the
 * same JSON Lines, with raw Jackson streaming and plain JDBC. Same file, same pragmas as the provider (WAL, the
 * benchmark's {@code synchronous}, foreign keys, secure delete, journal size limit), same tables and columns, same
 * JSON fields. It also fills the store the export benchmarks read.
 */
final class RawTransfer {

    static final JsonFactory JSON = new JsonFactory();
    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    /** Rows per executeBatch, and batches per commit. */
    static final int BATCH = 1000;
    static final int BATCHES_PER_COMMIT = 10;

    private static final String[] SCOPES = {"session", "project", "global"};

    private RawTransfer() {
    }

    /** A JDBC connection with the provider's pragmas (the file is already in WAL mode). */
    static Connection connect(Path file, String synchronous) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(5000);
        config.setSynchronous(SQLiteConfig.SynchronousMode.valueOf(synchronous.toUpperCase(java.util.Locale.ROOT)));
        config.enforceForeignKeys(true);
        config.setPragma(SQLiteConfig.Pragma.SECURE_DELETE, "true");
        config.setPragma(SQLiteConfig.Pragma.JOURNAL_SIZE_LIMIT, String.valueOf(64L * 1024 * 1024));
        config.setGetGeneratedKeys(false); // as the provider's connections: no "SELECT last_insert_rowid()" per INSERT
        return config.createConnection("jdbc:sqlite:" + file);
    }

    // ------------------------------------------------------------------ writing rows

    /** One version of an entry as the tables hold it: tags and metadata as compact JSON text. */
    record Row(String key, String scope, String value, List<String> tags, String tagsJson, String metadataJson,
               long createdAt, long updatedAt, long version) {
    }

    /**
     * Batched inserts of the rows the provider's restore writes for a key: the {@code entries} row (its FTS5 index
     * follows through the schema's triggers), a {@code tags} row per tag, a {@code versions} row per version.
     */
    static final class Inserter implements AutoCloseable {
        private final Connection connection;
        private final String project;
        private final String session;
        private final PreparedStatement entries;
        private final PreparedStatement tags;
        private final PreparedStatement versions;
        private int pending;
        private int batches;
        private long rows;

        Inserter(Connection connection, String project, String session) throws SQLException {
            this.connection = connection;
            this.project = project;
            this.session = session;
            connection.setAutoCommit(false);
            entries = connection.prepareStatement("INSERT INTO entries (project, session, scope, key, value, tags, metadata,"
                    + " created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
            tags = connection.prepareStatement("INSERT INTO tags (tag, entry_id) SELECT ?, id FROM entries"
                    + " WHERE project = ? AND session = ? AND scope = ? AND key = ?");
            versions = connection.prepareStatement("INSERT INTO versions (project, session, scope, key, version, tombstone,"
                    + " value, tags, metadata, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)");
        }

        /** Adds the key of {@code current} with its earlier versions {@code history}, oldest first. */
        void add(Row current, List<Row> history) throws SQLException {
            int next = namespace(entries, current.scope());
            entries.setString(next++, current.key());
            entries.setString(next++, current.value());
            entries.setString(next++, current.tagsJson());
            entries.setString(next++, current.metadataJson());
            entries.setLong(next++, current.createdAt());
            entries.setLong(next++, current.updatedAt());
            entries.setLong(next, current.version());
            entries.addBatch();
            for (String tag : current.tags()) {
                tags.setString(1, tag);
                tags.setString(namespace(tags, 2, current.scope()), current.key());
                tags.addBatch();
            }
            for (Row version : history) {
                addVersion(version);
            }
            addVersion(current);
            rows++;
            if (++pending == BATCH) {
                flush();
            }
        }

        private void addVersion(Row row) throws SQLException {
            int next = namespace(versions, row.scope());
            versions.setString(next++, row.key());
            versions.setLong(next++, row.version());
            versions.setString(next++, row.value());
            versions.setString(next++, row.tagsJson());
            versions.setString(next++, row.metadataJson());
            versions.setLong(next++, row.createdAt());
            versions.setLong(next, row.updatedAt());
            versions.addBatch();
        }

        private int namespace(PreparedStatement statement, String scope) throws SQLException {
            return namespace(statement, 1, scope);
        }

        private int namespace(PreparedStatement statement, int index, String scope) throws SQLException {
            statement.setString(index, "global".equals(scope) ? "" : project);
            statement.setString(index + 1, "session".equals(scope) ? session : "");
            statement.setString(index + 2, scope);
            return index + 3;
        }

        private void flush() throws SQLException {
            entries.executeBatch();
            tags.executeBatch();
            versions.executeBatch();
            pending = 0;
            if (++batches == BATCHES_PER_COMMIT) {
                connection.commit();
                batches = 0;
            }
        }

        /** The keys added. */
        long rows() {
            return rows;
        }

        /** Writes what is pending and commits. */
        @Override
        public void close() throws SQLException {
            flush();
            connection.commit();
            entries.close();
            tags.close();
            versions.close();
            connection.setAutoCommit(true);
        }
    }

    // ------------------------------------------------------------------ export

    /**
     * Writes every entry of the provider's namespaces of {@code project} and {@code session} to {@code out} as the
     * export format's JSON Lines: a JDBC cursor per scope in key order, earlier versions joined in, each record
     * streamed through a {@link JsonGenerator}; tags and metadata are copied as the JSON text the columns hold.
     *
     * @return the entries written
     */
    static long export(Connection connection, String project, String session, Path file) throws IOException, SQLException {
        long written = 0;
        try (OutputStream stream = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
             JsonGenerator out = JSON.createGenerator(stream, JsonEncoding.UTF8)) {
            out.setRootValueSeparator(null);
            out.writeStartObject();
            out.writeStringField("format", "forge-memory");
            out.writeStringField("version", "1.0");
            out.writeStringField("exported_at", TIME.format(Instant.now()));
            out.writeStringField("project", project);
            out.writeEndObject();
            out.writeRaw('\n');
            try (PreparedStatement select = connection.prepareStatement("SELECT e.key, e.value, e.tags, e.metadata,"
                    + " e.created_at, e.updated_at, e.version, v.value, v.tags, v.metadata, v.created_at, v.updated_at, v.version"
                    + " FROM entries e LEFT JOIN versions v ON v.project = e.project AND v.session = e.session"
                    + " AND v.scope = e.scope AND v.key = e.key AND v.version < e.version AND v.tombstone = 0"
                    + " WHERE e.project = ? AND e.session = ? AND e.scope = ? ORDER BY e.key, v.version")) {
                for (String scope : SCOPES) {
                    select.setString(1, "global".equals(scope) ? "" : project);
                    select.setString(2, "session".equals(scope) ? session : "");
                    select.setString(3, scope);
                    try (ResultSet rows = select.executeQuery()) {
                        written += writeScope(rows, scope, out);
                    }
                }
            }
        }
        return written;
    }

    /** Writes the rows of one scope: one record per key, its history rows (if any) following it in the join. */
    private static long writeScope(ResultSet rows, String scope, JsonGenerator out) throws SQLException, IOException {
        long written = 0;
        String open = null;
        while (rows.next()) {
            String key = rows.getString(1);
            if (!key.equals(open)) {
                if (open != null) {
                    endEntry(out);
                }
                open = key;
                written++;
                out.writeStartObject();
                out.writeStringField("kind", "entry");
                out.writeStringField("key", key);
                out.writeStringField("value", rows.getString(2));
                out.writeStringField("scope", scope);
                out.writeFieldName("tags");
                out.writeRawValue(rows.getString(3));
                out.writeFieldName("metadata");
                out.writeRawValue(rows.getString(4));
                out.writeStringField("created_at", TIME.format(Instant.ofEpochMilli(rows.getLong(5))));
                out.writeStringField("updated_at", TIME.format(Instant.ofEpochMilli(rows.getLong(6))));
                out.writeNumberField("version", rows.getLong(7));
                out.writeArrayFieldStart("history");
            }
            if (rows.getObject(13) != null) {
                out.writeStartObject();
                out.writeStringField("value", rows.getString(8));
                out.writeFieldName("tags");
                out.writeRawValue(rows.getString(9));
                out.writeFieldName("metadata");
                out.writeRawValue(rows.getString(10));
                out.writeStringField("created_at", TIME.format(Instant.ofEpochMilli(rows.getLong(11))));
                out.writeStringField("updated_at", TIME.format(Instant.ofEpochMilli(rows.getLong(12))));
                out.writeNumberField("version", rows.getLong(13));
                out.writeEndObject();
            }
        }
        if (open != null) {
            endEntry(out);
        }
        return written;
    }

    private static void endEntry(JsonGenerator out) throws IOException {
        out.writeEndArray();
        out.writeEndObject();
        out.writeRaw('\n');
    }

    // ------------------------------------------------------------------ import

    /**
     * Reads a JSON Lines export with a {@link JsonParser} and inserts its entries through {@code inserter}; the header
     * is checked, relations are not expected (the benchmark's files hold none) and refused.
     *
     * @return the entries inserted
     */
    static long importFile(Path file, Inserter inserter) throws IOException, SQLException {
        try (InputStream stream = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
             JsonParser in = JSON.createParser(stream)) {
            if (in.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON Lines export: " + file);
            }
            String format = null;
            while (in.nextToken() == JsonToken.FIELD_NAME) {
                String field = in.currentName();
                in.nextToken();
                if ("format".equals(field)) {
                    format = in.getText();
                }
            }
            if (!"forge-memory".equals(format)) {
                throw new IOException("not a forge-memory export: " + file);
            }
            List<Row> history = new ArrayList<>();
            while (in.nextToken() == JsonToken.START_OBJECT) {
                history.clear();
                Row current = readRow(in, null, null, history);
                inserter.add(current, List.copyOf(history));
            }
        }
        return inserter.rows();
    }

    /** Reads the fields of one object (the parser on its START_OBJECT); history items get the entry's key and scope. */
    private static Row readRow(JsonParser in, String entryKey, String entryScope, List<Row> history) throws IOException {
        String key = entryKey;
        String scope = entryScope;
        String value = null;
        List<String> tags = new ArrayList<>();
        String tagsJson = "[]";
        String metadataJson = "{}";
        long createdAt = 0;
        long updatedAt = 0;
        long version = 0;
        List<Row> items = history == null ? null : new ArrayList<>();
        while (in.nextToken() == JsonToken.FIELD_NAME) {
            String field = in.currentName();
            in.nextToken();
            switch (field) {
                case "kind" -> {
                    if (!"entry".equals(in.getText())) {
                        throw new IOException("only entries are expected, found a " + in.getText());
                    }
                }
                case "key" -> key = in.getText();
                case "scope" -> scope = in.getText();
                case "value" -> value = in.getText();
                case "tags" -> {
                    StringWriter text = new StringWriter();
                    try (JsonGenerator copy = JSON.createGenerator(text)) {
                        copy.writeStartArray();
                        while (in.nextToken() != JsonToken.END_ARRAY) {
                            tags.add(in.getText());
                            copy.writeString(in.getText());
                        }
                        copy.writeEndArray();
                    }
                    tagsJson = text.toString();
                }
                case "metadata" -> {
                    StringWriter text = new StringWriter();
                    try (JsonGenerator copy = JSON.createGenerator(text)) {
                        copy.copyCurrentStructure(in);
                    }
                    metadataJson = text.toString();
                }
                case "created_at" -> createdAt = Instant.parse(in.getText()).toEpochMilli();
                case "updated_at" -> updatedAt = Instant.parse(in.getText()).toEpochMilli();
                case "version" -> version = in.getLongValue();
                case "history" -> {
                    if (items == null) {
                        throw new IOException("a history inside a history");
                    }
                    while (in.nextToken() == JsonToken.START_OBJECT) {
                        // Key and scope come before history in what forge-memory writes.
                        items.add(readRow(in, key, scope, null));
                    }
                }
                default -> throw new IOException("unknown field '" + field + "'");
            }
        }
        if (key == null || scope == null || value == null) {
            throw new IOException("an entry without key, scope or value");
        }
        if (history != null) {
            history.addAll(items);
        }
        return new Row(key, scope, value, List.copyOf(tags), tagsJson, metadataJson, createdAt, updatedAt, version);
    }

    /** Runs {@code sql} (for the checkpoint after a fill). */
    static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
