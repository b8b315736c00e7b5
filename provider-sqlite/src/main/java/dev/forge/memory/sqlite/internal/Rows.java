package dev.forge.memory.sqlite.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.Keys;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Rows to entries and back: tags as a JSON array (in order), metadata as a JSON object, instants as epoch
 * milliseconds, the scope as its lower-case id.
 */
public final class Rows {

    /** The columns an entry is read from, of table alias {@code e}; the same names exist in {@code versions}. */
    public static final String ENTRY_COLUMNS =
            "e.key, e.scope, e.value, e.tags, e.metadata, e.created_at, e.updated_at, e.version";

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_LONG_FOR_INTS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .build();
    private static final TypeReference<List<Object>> LIST = new TypeReference<>() {
    };
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    private Rows() {
    }

    /** Tags as stored: a JSON array of strings. */
    public static String tagsJson(List<String> tags) {
        return write(tags);
    }

    /** Metadata as stored: a compact JSON object with sorted keys (the normalised map is sorted already). */
    public static String metadataJson(Map<String, Object> metadata) {
        return write(metadata);
    }

    private static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new InvalidEntryException("Cannot write tags or metadata as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * The entry in the current row of {@code rows}, which holds {@link #ENTRY_COLUMNS}.
     *
     * @throws CorruptEntryException if the row cannot be an entry (JSON that does not parse, a bad scope, ...)
     */
    public static MemoryEntry entry(ResultSet rows, Path database) throws SQLException {
        String key = rows.getString("key");
        String scopeId = rows.getString("scope");
        try {
            Scope scope = Scope.parse(scopeId);
            String value = rows.getString("value");
            if (value == null) {
                throw new IllegalArgumentException("its value is NULL");
            }
            return new MemoryEntry(key, value, scope, tags(rows.getString("tags")), metadata(rows.getString("metadata")),
                    Instant.ofEpochMilli(rows.getLong("created_at")), Instant.ofEpochMilli(rows.getLong("updated_at")),
                    rows.getLong("version"));
        } catch (IllegalArgumentException | NullPointerException | InvalidRequestException | InvalidEntryException e) {
            throw corrupt(database, key, scopeId, e);
        }
    }

    static CorruptEntryException corrupt(Path database, String key, String scope, Exception e) {
        return new CorruptEntryException("The row of key '" + (key == null ? "(null)" : Keys.abbreviate(key)) + "' ("
                + scope + ") in the SQLite database " + database + " cannot be read: " + e.getMessage()
                + " Fix or delete the row with a SQLite tool, or purge the key.", e);
    }

    static List<String> tags(String json) {
        List<Object> items = read(json, LIST, "tags");
        for (Object item : items) {
            if (!(item instanceof String)) {
                throw new IllegalArgumentException("its tags hold a " + (item == null ? "null" : "non-text") + " item");
            }
        }
        @SuppressWarnings("unchecked")
        List<String> tags = (List<String>) (List<?>) items;
        return tags;
    }

    static Map<String, Object> metadata(String json) {
        return read(json, MAP, "metadata");
    }

    private static <T> T read(String json, TypeReference<T> type, String what) {
        if (json == null) {
            throw new IllegalArgumentException("its " + what + " are NULL");
        }
        try {
            T value = JSON.readValue(json, type);
            if (value == null) {
                throw new IllegalArgumentException("its " + what + " are JSON null");
            }
            return value;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("its " + what + " are not valid JSON (" + e.getOriginalMessage() + ")", e);
        }
    }
}
