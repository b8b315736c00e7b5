package dev.forge.memory.sqlite.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.Keys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
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
    private static final ObjectReader METADATA_READER = JSON.readerFor(new TypeReference<Map<String, Object>>() {
    });
    private static final String EMPTY_ARRAY = "[]";
    private static final String EMPTY_OBJECT = "{}";

    private Rows() {
    }

    /** Tags as stored: a JSON array of strings. */
    public static String tagsJson(List<String> tags) {
        return tags.isEmpty() ? EMPTY_ARRAY : write(tags);
    }

    /** Metadata as stored: a compact JSON object with sorted keys (the normalised map is sorted already). */
    public static String metadataJson(Map<String, Object> metadata) {
        return metadata.isEmpty() ? EMPTY_OBJECT : write(metadata);
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
        return entry(rows, rows.findColumn("key"), database);
    }

    /**
     * The entry in the current row of {@code rows}, whose {@link #ENTRY_COLUMNS} start at column {@code first}: read by
     * position, which spares a lookup by name per column and row.
     *
     * @throws CorruptEntryException if the row cannot be an entry (JSON that does not parse, a bad scope, ...)
     */
    public static MemoryEntry entry(ResultSet rows, int first, Path database) throws SQLException {
        String key = rows.getString(first);
        String scopeId = rows.getString(first + 1);
        try {
            Scope scope = scope(scopeId);
            String value = rows.getString(first + 2);
            if (value == null) {
                throw new IllegalArgumentException("its value is NULL");
            }
            return new MemoryEntry(key, value, scope, tags(rows.getString(first + 3)), metadata(rows.getString(first + 4)),
                    Instant.ofEpochMilli(rows.getLong(first + 5)), Instant.ofEpochMilli(rows.getLong(first + 6)),
                    rows.getLong(first + 7));
        } catch (IllegalArgumentException | NullPointerException | InvalidRequestException | InvalidEntryException e) {
            throw corrupt(database, key, scopeId, e);
        }
    }

    /** The scope of a stored id: the ids this provider writes without a search, anything else as the API parses it. */
    private static Scope scope(String id) {
        if (id != null) {
            switch (id) {
                case "session":
                    return Scope.SESSION;
                case "project":
                    return Scope.PROJECT;
                case "global":
                    return Scope.GLOBAL;
                default:
                    break;
            }
        }
        return Scope.parse(id);
    }

    static CorruptEntryException corrupt(Path database, String key, String scope, Exception e) {
        return new CorruptEntryException("The row of key '" + (key == null ? "(null)" : Keys.abbreviate(key)) + "' ("
                + scope + ") in the SQLite database " + database + " cannot be read: " + e.getMessage()
                + " Fix or delete the row with a SQLite tool, or purge the key.", e);
    }

    /**
     * The tags of a row: as {@link #tagsJson} writes them without escapes ({@code []}, {@code ["a","b"]}: most rows)
     * split without a parser, else read token by token, which checks what the general reader checks (an array of
     * text, nothing after it) without building a list of objects first.
     */
    static List<String> tags(String json) {
        if (EMPTY_ARRAY.equals(json)) {
            return List.of();
        }
        if (json == null) {
            throw new IllegalArgumentException("its tags are NULL");
        }
        List<String> plain = plainTags(json);
        return plain != null ? plain : parsedTags(json);
    }

    /**
     * Tags in the compact form {@link #tagsJson} writes, {@code ["a","b"]}, when no tag needs an escape: every quote is
     * then a delimiter. Null for any other text (spaces, escapes, control characters), which the parser reads.
     */
    private static List<String> plainTags(String json) {
        int end = json.length() - 2;
        if (end < 2 || !json.startsWith("[\"") || !json.endsWith("\"]")) {
            return null;
        }
        List<String> tags = new ArrayList<>(4);
        int start = 2;
        for (int i = start; i <= end; i++) {
            char c = json.charAt(i);
            if (c == '\\' || c < 0x20) {
                return null;
            }
            if (c == '"') {
                if (i == end) {
                    tags.add(json.substring(start, end));
                    return tags;
                }
                if (i + 2 > end || json.charAt(i + 1) != ',' || json.charAt(i + 2) != '"') {
                    return null;
                }
                tags.add(json.substring(start, i));
                i += 2;
                start = i + 1;
            }
        }
        return null;
    }

    private static List<String> parsedTags(String json) {
        try (JsonParser parser = JSON.createParser(json)) {
            JsonToken start = parser.nextToken();
            if (start == JsonToken.VALUE_NULL) {
                throw new IllegalArgumentException("its tags are JSON null");
            }
            if (start != JsonToken.START_ARRAY) {
                throw new IllegalArgumentException("its tags are not valid JSON (not an array: " + start + ")");
            }
            List<String> tags = new ArrayList<>();
            for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
                if (token == JsonToken.VALUE_STRING) {
                    tags.add(parser.getText());
                } else if (token == null) {
                    throw new IllegalArgumentException("its tags are not valid JSON (the array is not closed)");
                } else {
                    throw new IllegalArgumentException("its tags hold a " + (token == JsonToken.VALUE_NULL ? "null" : "non-text")
                            + " item");
                }
            }
            if (parser.nextToken() != null) {
                throw new IllegalArgumentException("its tags are not valid JSON (text after the array)");
            }
            return tags;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("its tags are not valid JSON (" + e.getOriginalMessage() + ")", e);
        } catch (IOException e) {
            throw new UncheckedIOException("reading a string cannot fail", e);
        }
    }

    /** The metadata of a row: {@code {}} (most rows) without a parser, else read by the one shared reader. */
    static Map<String, Object> metadata(String json) {
        if (EMPTY_OBJECT.equals(json)) {
            return Map.of();
        }
        return read(json, METADATA_READER, "metadata");
    }

    private static <T> T read(String json, ObjectReader reader, String what) {
        if (json == null) {
            throw new IllegalArgumentException("its " + what + " are NULL");
        }
        try {
            T value = reader.readValue(json);
            if (value == null) {
                throw new IllegalArgumentException("its " + what + " are JSON null");
            }
            return value;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("its " + what + " are not valid JSON (" + e.getOriginalMessage() + ")", e);
        }
    }
}
