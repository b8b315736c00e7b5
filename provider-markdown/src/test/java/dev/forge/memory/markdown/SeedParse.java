package dev.forge.memory.markdown;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Seed 000's (ADR-0044) {@code Parse} and its {@code MemoryMeta} field types, ported from Go to read files the way
 * that design's own tool would: the file must start with {@code ---}; the YAML runs to the first {@code \n---}; one or
 * two line breaks after it are dropped and the rest is the body; the YAML is unmarshalled as {@code yaml.v3} does
 * into typed fields (RFC 3339 times, an int version, strings, {@code supersedes} a string or absent/null,
 * {@code related} a list of {id, relationship}), ignoring fields the struct does not have.
 */
final class SeedParse {

    /** {@code RelatedMemory}. */
    record RelatedMemory(String id, String relationship) {
    }

    /** {@code MemoryMeta}; an absent string is "" and an absent time the zero time, as in Go. */
    record MemoryMeta(String id, Instant createdAt, Instant updatedAt, int version, String scope, String category,
            Optional<String> supersedes, List<RelatedMemory> related, String sessionId, String trigger) {
    }

    /** {@code MemoryFile}: the front-matter and the raw markdown body. */
    record MemoryFile(MemoryMeta meta, String content) {
    }

    /** Go's zero {@code time.Time}. */
    static final Instant ZERO_TIME = Instant.parse("0001-01-01T00:00:00Z");

    private static final String DELIMITER = "---";

    private SeedParse() {
    }

    /** {@code Parse(raw)}; throws IllegalArgumentException with the Go error text where Parse returns an error. */
    static MemoryFile parse(byte[] raw) {
        String s = new String(raw, StandardCharsets.UTF_8);
        if (!s.startsWith(DELIMITER)) {
            throw new IllegalArgumentException("longtermmemory: missing front-matter delimiter");
        }
        String rest = s.substring(DELIMITER.length());
        int idx = rest.indexOf("\n" + DELIMITER);
        if (idx == -1) {
            throw new IllegalArgumentException("longtermmemory: unclosed front-matter block");
        }
        String yamlBlock = rest.substring(0, idx);
        String bodyRaw = rest.substring(idx + ("\n" + DELIMITER).length());
        String body = bodyRaw.startsWith("\n") ? bodyRaw.substring(1) : bodyRaw;
        if (body.startsWith("\n")) {
            body = body.substring(1);
        }
        return new MemoryFile(unmarshal(yamlBlock), body);
    }

    private static MemoryMeta unmarshal(String yamlBlock) {
        Object document = new Yaml(new SafeConstructor(new LoaderOptions())).load(yamlBlock);
        Map<?, ?> fields = document == null ? Map.of() : cast(document, Map.class, "MemoryMeta");
        Object supersedes = fields.get("supersedes");
        return new MemoryMeta(string(fields, "id"), time(fields, "created_at"), time(fields, "updated_at"),
                integer(fields, "version"), string(fields, "scope"), string(fields, "category"),
                supersedes == null ? Optional.empty() : Optional.of(scalar(supersedes, "supersedes")),
                related(fields.get("related")), string(fields, "session_id"), string(fields, "trigger"));
    }

    private static String string(Map<?, ?> fields, String name) {
        Object value = fields.get(name);
        return value == null ? "" : scalar(value, name);
    }

    /** yaml.v3 puts any scalar into a string field, and refuses a list or a map. */
    private static String scalar(Object value, String name) {
        if (value instanceof List || value instanceof Map) {
            throw new IllegalArgumentException("yaml: cannot unmarshal a " + (value instanceof List ? "!!seq" : "!!map")
                    + " into string (field " + name + ")");
        }
        return value instanceof Date date ? date.toInstant().toString() : value.toString();
    }

    private static int integer(Map<?, ?> fields, String name) {
        Object value = fields.get(name);
        if (value == null) {
            return 0;
        }
        if (!(value instanceof Integer number)) {
            throw new IllegalArgumentException("yaml: cannot unmarshal " + value.getClass().getSimpleName()
                    + " into int (field " + name + ")");
        }
        return number;
    }

    /** A {@code time.Time} field: a YAML timestamp, or a string in RFC 3339. */
    private static Instant time(Map<?, ?> fields, String name) {
        Object value = fields.get(name);
        if (value == null) {
            return ZERO_TIME;
        }
        if (value instanceof Date date) {
            return date.toInstant();
        }
        if (value instanceof String text) {
            try {
                return OffsetDateTime.parse(text).toInstant();
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("yaml: cannot unmarshal !!str into time.Time (field " + name + ")", e);
            }
        }
        throw new IllegalArgumentException("yaml: cannot unmarshal into time.Time (field " + name + ")");
    }

    private static List<RelatedMemory> related(Object value) {
        if (value == null) {
            return List.of();
        }
        List<RelatedMemory> related = new ArrayList<>();
        for (Object item : cast(value, List.class, "related")) {
            Map<?, ?> map = cast(item, Map.class, "related item");
            related.add(new RelatedMemory(string(map, "id"), string(map, "relationship")));
        }
        return related;
    }

    private static <T> T cast(Object value, Class<T> type, String what) {
        if (!type.isInstance(value)) {
            throw new IllegalArgumentException("yaml: cannot unmarshal " + value.getClass().getSimpleName() + " into "
                    + what);
        }
        return type.cast(value);
    }
}
