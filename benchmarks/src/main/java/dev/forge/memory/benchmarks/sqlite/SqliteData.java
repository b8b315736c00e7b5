package dev.forge.memory.benchmarks.sqlite;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The data every sqlite measure runs on, the same for ours and the baseline: {@code n} PROJECT entries with keys
 * {@code note/000000}, {@code note/000001}..., a value of 10 to 40 words drawn from a 200-word vocabulary, two tags and one
 * metadata field, each at version 1 with its version row. Deterministic: the same {@code n} gives the same entries.
 */
public final class SqliteData {

    /** The project every measure's stores serve. */
    public static final String PROJECT = "bench";
    /** The session every measure's stores serve. */
    public static final String SESSION = "bench-session";
    /** A word in about one value in ten: the keyword search's term. */
    public static final String SEARCH_TERM = "w17";
    /** The prefix query's pattern: 100 keys (note/000100 to note/000199) whenever there are at least 200 entries. */
    public static final String QUERY_PATTERN = "note/0001*";
    /** The first key the prefix pattern selects. */
    public static final String QUERY_LOW = "note/0001";
    /** The least key after every key the prefix pattern selects. */
    public static final String QUERY_HIGH = "note/0002";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long CREATED = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();

    /** One entry of the data set. */
    public record Item(String key, String value, List<String> tags, Map<String, Object> metadata) {
    }

    private SqliteData() {
    }

    /** The key of entry {@code i}. */
    public static String key(int i) {
        return String.format("note/%06d", i);
    }

    /** Entry {@code i} (its value is drawn with seed {@code i + salt}, so that rewrites can change it). */
    public static Item item(int i, long salt) {
        SplittableRandom random = new SplittableRandom(i * 31L + salt);
        StringBuilder value = new StringBuilder();
        int words = 10 + random.nextInt(31); // lengths vary, as real notes do, so bm25 ranks rather than ties
        for (int w = 0; w < words; w++) {
            value.append(w == 0 ? "" : " ").append('w').append(random.nextInt(200));
        }
        return new Item(key(i), value.toString(), List.of("bench", "t" + (i % 10)), Map.of("n", (long) i));
    }

    /** Entries 0 to {@code n - 1}. */
    public static List<Item> items(int n) {
        List<Item> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            items.add(item(i, 0));
        }
        return items;
    }

    /**
     * Binds the PROJECT namespace (project, no session, {@code project}) at {@code index} and the two after it, as the
     * provider's {@code Namespace.bind} does; returns the next free index.
     */
    public static int bindNamespace(PreparedStatement statement, int index) throws SQLException {
        statement.setString(index, PROJECT);
        statement.setString(index + 1, "");
        statement.setString(index + 2, "project");
        return index + 3;
    }

    /** Binds the provider's {@code INSERT INTO versions} of a live (not tombstone) version of a PROJECT key. */
    public static void bindVersion(PreparedStatement insert, String key, long version, String value, String tags,
            String metadata, long createdAt, long updatedAt) throws SQLException {
        int next = bindNamespace(insert, 1);
        insert.setString(next++, key);
        insert.setLong(next++, version);
        insert.setString(next++, value);
        insert.setString(next++, tags);
        insert.setString(next++, metadata);
        insert.setLong(next++, createdAt);
        insert.setLong(next, updatedAt);
    }

    /** The provider's statement appending a live version. */
    public static final String INSERT_VERSION = "INSERT INTO versions (project, session, scope, key, version, tombstone,"
            + " value, tags, metadata, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)";

    /** Tags as the provider stores them: a compact JSON array. */
    public static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Fills a database whose schema the provider made with {@code items}, in one transaction: the rows the provider
     * writes for a new key (entry, tags, version 1; the FTS index through its triggers). Used to prepare both stores
     * (not timed) and, on its own, as the bulk import's baseline.
     */
    public static void insertAll(Connection connection, List<Item> items) throws SQLException {
        long now = CREATED;
        try (Statement transaction = connection.createStatement();
             PreparedStatement entry = connection.prepareStatement("INSERT INTO entries (project, session, scope, key, value,"
                     + " tags, metadata, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
             PreparedStatement rowid = connection.prepareStatement("SELECT last_insert_rowid()");
             PreparedStatement tag = connection.prepareStatement("INSERT INTO tags (tag, entry_id) VALUES (?, ?)");
             PreparedStatement version = connection.prepareStatement(INSERT_VERSION)) {
            transaction.execute("BEGIN IMMEDIATE");
            boolean committed = false;
            try {
                for (Item item : items) {
                    String tags = json(item.tags());
                    String metadata = json(item.metadata());
                    bindNamespace(entry, 1);
                    entry.setString(4, item.key());
                    entry.setString(5, item.value());
                    entry.setString(6, tags);
                    entry.setString(7, metadata);
                    entry.setLong(8, now);
                    entry.setLong(9, now);
                    entry.setLong(10, 1);
                    entry.executeUpdate();
                    long id;
                    try (ResultSet keys = rowid.executeQuery()) {
                        keys.next();
                        id = keys.getLong(1);
                    }
                    for (String t : item.tags()) {
                        tag.setString(1, t);
                        tag.setLong(2, id);
                        tag.addBatch();
                    }
                    bindVersion(version, item.key(), 1, item.value(), tags, metadata, now, now);
                    version.addBatch();
                }
                tag.executeBatch();
                version.executeBatch();
                transaction.execute("COMMIT");
                committed = true;
            } finally {
                if (!committed) {
                    transaction.execute("ROLLBACK");
                }
            }
        }
    }

    /**
     * Reads a JSON Lines export as {@link #writeExport} writes it, with Jackson, as a raw import loop would: the
     * baselines' half of the bulk import measures.
     */
    public static List<Item> readExport(Path file, int expected) throws IOException {
        List<Item> items = new ArrayList<>(expected);
        try (java.io.BufferedReader lines = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            lines.readLine(); // the header
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                com.fasterxml.jackson.databind.JsonNode record = JSON.readTree(line);
                List<String> tags = new ArrayList<>();
                record.get("tags").forEach(tag -> tags.add(tag.asText()));
                Map<String, Object> metadata = new java.util.LinkedHashMap<>();
                record.get("metadata").fields().forEachRemaining(field -> metadata.put(field.getKey(), field.getValue().asLong()));
                items.add(new Item(record.get("key").asText(), record.get("value").asText(), tags, metadata));
            }
        }
        return items;
    }

    /** Writes {@code items} as a forge-memory JSON Lines export (header, then one entry a line at version 1). */
    public static void writeExport(Path file, List<Item> items) {
        String at = Instant.ofEpochMilli(CREATED).toString();
        StringBuilder text = new StringBuilder();
        text.append("{\"format\":\"forge-memory\",\"version\":\"1.0\",\"exported_at\":\"").append(at)
                .append("\",\"project\":\"").append(PROJECT).append("\"}\n");
        for (Item item : items) {
            Map<String, Object> line = new java.util.LinkedHashMap<>();
            line.put("kind", "entry");
            line.put("key", item.key());
            line.put("value", item.value());
            line.put("scope", "project");
            line.put("tags", item.tags());
            line.put("metadata", item.metadata());
            line.put("created_at", at);
            line.put("updated_at", at);
            line.put("version", 1);
            text.append(json(line)).append('\n');
        }
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the export " + file, e);
        }
    }
}
