package dev.forge.memory.markdown.internal;

import static dev.forge.memory.markdown.internal.FrontMatter.quote;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fields of a memory file's front-matter as a {@link MemoryFile}: lenient where people edit by hand (missing
 * optional fields get defaults, a single tag or related key written without a list, any RFC 3339 offset), strict
 * where a mistake would lose data (values of the wrong type, unsafe ids). Each error names the field and its line.
 */
final class FrontMatterFields {

    private static final String RFC_3339_EXAMPLE = "2026-11-22T04:15:12.123Z";

    /** Seed 003's field for the time of a version, read when neither {@code created_at} nor {@code updated_at} is. */
    static final String TIMESTAMP = "timestamp";

    private FrontMatterFields() {
    }

    /** The memory file that {@code front} and {@code body} make; the id comes from the file name if not given. */
    static MemoryFile toFile(FrontMatter front, String fileName, Instant fallbackTime, String body)
            throws MemoryFileException {
        String id;
        if (front.get("id") == null) {
            if (!MemoryFileCodec.isMemoryFileName(fileName)) {
                throw new MemoryFileException("the field 'id' is missing and the file name is not mem_<id>.md,"
                        + " so no id can be derived", null);
            }
            id = fileName.substring(0, fileName.length() - MemoryFileCodec.FILE_SUFFIX.length());
        } else {
            id = safeId(front, "id", text(front, "id").orElseThrow());
        }
        // No key: a file as seed 000 or 003 writes it, whose key the store derives from its chain (see DerivedKeys).
        String key = text(front, "key").orElse("");
        if (front.fields().containsKey("key") && key.isEmpty()) {
            throw front.error("key", "'key' is empty; give the memory a key, or leave the field out for the key of"
                    + " its version chain");
        }
        Optional<Instant> created = time(front, "created_at", front.get("created_at"));
        // Seed 003 stamps each version with one quoted 'timestamp', read when neither of the others is given.
        Optional<Instant> updated = created.isEmpty() && front.get("updated_at") == null
                ? time(front, TIMESTAMP, front.get(TIMESTAMP)) : time(front, "updated_at", front.get("updated_at"));
        long version = version(front);
        Optional<String> scope = text(front, "scope");
        Optional<String> category = text(front, "category");
        List<String> tags = tags(front);
        Map<String, Object> metadata = metadata(front);
        Optional<String> supersedes = supersedes(front);
        if (supersedes.isPresent()) {
            safeId(front, "supersedes", supersedes.get());
        }
        List<String> replaces = replaces(front);
        Optional<String> committedBy = text(front, "committed_by");
        if (committedBy.isPresent()) {
            safeId(front, "committed_by", committedBy.get());
        }
        List<RelatedItem> related = related(front);
        Optional<String> sessionId = text(front, "session_id");
        Optional<String> trigger = text(front, "trigger");
        boolean tombstone = tombstone(front);
        Map<String, Object> extra = new LinkedHashMap<>(front.fields());
        extra.keySet().removeAll(MemoryFile.FIELD_NAMES);
        return new MemoryFile(id, key, created.or(() -> updated).orElse(fallbackTime),
                updated.or(() -> created).orElse(fallbackTime), version, scope, category, tags, metadata, supersedes,
                related, sessionId, trigger, tombstone, replaces, committedBy, extra, body);
    }

    /** One id, or (seed 003) a list of at most one id. */
    private static Optional<String> supersedes(FrontMatter front) throws MemoryFileException {
        if (!(front.get("supersedes") instanceof List<?> list)) {
            return text(front, "supersedes");
        }
        if (list.size() > 1) {
            throw front.error("supersedes", "'supersedes' lists " + list.size() + " ids, but a version replaces one:"
                    + " keep the id of the version this one replaces");
        }
        if (list.isEmpty()) {
            return Optional.empty();
        }
        if (!(list.get(0) instanceof String id)) {
            throw front.error("supersedes", "'supersedes' must be an id, but its item is "
                    + (list.get(0) == null ? "null" : kind(list.get(0))));
        }
        return Optional.of(id);
    }

    private static List<String> replaces(FrontMatter front) throws MemoryFileException {
        Object value = front.get("replaces");
        if (value == null) {
            return List.of();
        }
        List<?> list = value instanceof String id ? List.of(id) : value instanceof List<?> l ? l : null;
        if (list == null) {
            throw front.error("replaces", "'replaces' must be a list of ids, not " + kind(value));
        }
        List<String> ids = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof String id)) {
                throw front.error("replaces", "'replaces' must be a list of ids, but item " + (i + 1) + " is "
                        + (list.get(i) == null ? "null" : kind(list.get(i))));
            }
            ids.add(safeId(front, "replaces", id));
        }
        return ids;
    }

    private static String safeId(FrontMatter front, String field, String id) throws MemoryFileException {
        String problem = MemoryFileCodec.idProblem(id);
        if (problem != null) {
            throw front.error(field, quote(field) + " is not a safe id: " + problem);
        }
        return id;
    }

    private static Optional<String> text(FrontMatter front, String field) throws MemoryFileException {
        Object value = front.get(field);
        if (value == null || value instanceof String) {
            return Optional.ofNullable((String) value);
        }
        throw front.error(field, quote(field) + " must be a string, not " + kind(value) + quotingHint(value));
    }

    private static String kind(Object value) {
        if (value instanceof Map) {
            return "a map";
        }
        if (value instanceof List) {
            return "a list";
        }
        if (value instanceof Boolean) {
            return "a boolean";
        }
        return value instanceof Number ? "a number" : "a string";
    }

    private static String quotingHint(Object value) {
        return value instanceof Number || value instanceof Boolean ? "; put the value in quotes" : "";
    }

    private static Optional<Instant> time(FrontMatter front, String field, Object value) throws MemoryFileException {
        if (value == null) {
            return Optional.empty();
        }
        if (!(value instanceof String text)) {
            throw front.error(field, quote(field) + " must be an RFC 3339 timestamp such as " + RFC_3339_EXAMPLE
                    + ", not " + kind(value));
        }
        return Optional.of(parseTime(text).orElseThrow(() -> front.error(field, quote(field)
                + " is not an RFC 3339 timestamp in the years 0000 to 9999, such as " + RFC_3339_EXAMPLE)));
    }

    /** RFC 3339 with any offset, any fraction of a second or none, and a space allowed for the {@code T}. */
    private static Optional<Instant> parseTime(String text) {
        String iso = text.strip();
        if (iso.length() > 10 && iso.charAt(10) == ' ') {
            iso = iso.substring(0, 10) + 'T' + iso.substring(11);
        }
        try {
            Instant instant = OffsetDateTime.parse(iso, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
            return instant.isBefore(MemoryFile.EARLIEST) || instant.isAfter(MemoryFile.LATEST)
                    ? Optional.empty() : Optional.of(instant);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static long version(FrontMatter front) throws MemoryFileException {
        Object value = front.get("version");
        if (value == null) {
            return 1;
        }
        if ((value instanceof Integer || value instanceof Long) && ((Number) value).longValue() >= 1) {
            return ((Number) value).longValue();
        }
        throw front.error("version", "'version' must be a whole number of 1 or more");
    }

    private static List<String> tags(FrontMatter front) throws MemoryFileException {
        Object value = front.get("tags");
        if (value == null) {
            return List.of();
        }
        if (value instanceof String tag) {
            return List.of(tag);
        }
        if (value instanceof List<?> list) {
            List<String> tags = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) {
                if (!(list.get(i) instanceof String tag)) {
                    throw front.error("tags", "'tags' must be a list of strings, but tag " + (i + 1) + " is "
                            + (list.get(i) == null ? "null" : kind(list.get(i))) + quotingHint(list.get(i)));
                }
                tags.add(tag);
            }
            return tags;
        }
        throw front.error("tags", "'tags' must be a list of strings, not " + kind(value));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> metadata(FrontMatter front) throws MemoryFileException {
        Object value = front.get("metadata");
        if (value == null) {
            return Map.of();
        }
        if (value instanceof Map) {
            return (Map<String, Object>) value;
        }
        throw front.error("metadata", "'metadata' must be a map of names to values, not " + kind(value));
    }

    private static List<RelatedItem> related(FrontMatter front) throws MemoryFileException {
        Object value = front.get("related");
        if (value == null) {
            return List.of();
        }
        if (value instanceof String key) {
            return List.of(RelatedItem.toKey(key, RelatedItem.DEFAULT_RELATIONSHIP));
        }
        if (!(value instanceof List<?> list)) {
            throw front.error("related", "'related' must be a list of links, not " + kind(value));
        }
        List<RelatedItem> related = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            related.add(relatedItem(front, "'related' item " + (i + 1), list.get(i)));
        }
        return related;
    }

    private static RelatedItem relatedItem(FrontMatter front, String what, Object value) throws MemoryFileException {
        if (value instanceof String key) {
            return RelatedItem.toKey(key, RelatedItem.DEFAULT_RELATIONSHIP);
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw front.error("related", what + " must be a map with an 'id' or a 'key', or a key, not "
                    + (value == null ? "null" : kind(value)));
        }
        Optional<String> id = itemText(front, what, map, "id");
        if (id.isPresent() && MemoryFileCodec.idProblem(id.get()) != null) {
            throw front.error("related", what + ": 'id' is not a safe id: " + MemoryFileCodec.idProblem(id.get()));
        }
        Optional<String> key = itemText(front, what, map, "key");
        if (id.isEmpty() && key.isEmpty()) {
            throw front.error("related", what + " needs an 'id' or a 'key'");
        }
        Optional<String> scope = itemText(front, what, map, "scope");
        String relationship = itemText(front, what, map, "relationship").orElse(RelatedItem.DEFAULT_RELATIONSHIP);
        if (relationship.isEmpty()) {
            throw front.error("related", what + ": 'relationship' must not be empty");
        }
        Object at = map.get("created_at");
        Optional<Instant> createdAt = at instanceof String text ? parseTime(text) : Optional.empty();
        if (at != null && createdAt.isEmpty()) {
            throw front.error("related", what + ": 'created_at' is not an RFC 3339 timestamp in the years 0000 to"
                    + " 9999, such as " + RFC_3339_EXAMPLE);
        }
        Map<String, Object> extra = new LinkedHashMap<>();
        map.forEach((name, v) -> {
            if (!RelatedItem.FIELD_NAMES.contains((String) name)) {
                extra.put((String) name, v);
            }
        });
        return new RelatedItem(id, key, scope, relationship, createdAt, extra);
    }

    private static Optional<String> itemText(FrontMatter front, String what, Map<?, ?> item, String name)
            throws MemoryFileException {
        Object value = item.get(name);
        if (value == null || value instanceof String) {
            return Optional.ofNullable((String) value);
        }
        throw front.error("related", what + ": " + quote(name) + " must be a string, not " + kind(value)
                + quotingHint(value));
    }

    private static boolean tombstone(FrontMatter front) throws MemoryFileException {
        Object value = front.get("tombstone");
        if (value == null || value instanceof Boolean) {
            return Boolean.TRUE.equals(value);
        }
        throw front.error("tombstone", "'tombstone' must be true or false");
    }
}
