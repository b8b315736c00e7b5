package dev.forge.memory.transfer.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.Scope;
import dev.forge.memory.EntryRules;
import dev.forge.memory.Keys;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Encodes entries and relations as the format's JSON objects, and decodes them with messages naming the field. */
public final class Records {

    /** The value of the header's {@code format} field. */
    public static final String FORMAT = "forge-memory";
    /** The format version this code writes and reads. */
    public static final String VERSION = "1.0";

    /** Jackson for the format; decimals are read exactly (see {@link EntryRules#normalizeMetadata}). */
    public static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private static final Set<String> ENTRY_FIELDS = Set.of("kind", "key", "value", "scope", "tags", "metadata",
            "created_at", "updated_at", "version", "history", "deleted");
    private static final Set<String> SEED_ENTRY_FIELDS = Set.of("key", "value", "scope", "timestamp", "tags", "metadata",
            "created_at", "updated_at", "version", "history");
    private static final Set<String> VERSION_FIELDS = Set.of("key", "value", "scope", "tags", "metadata",
            "created_at", "updated_at", "version");
    private static final Set<String> RELATION_FIELDS = Set.of("kind", "from", "to", "type", "scope", "to_scope", "created_at");

    private Records() {
    }

    /**
     * An entry of the format: the current version and the earlier ones, oldest first.
     *
     * @param deleted   whether the key is deleted and {@code current} is its last version before the deletion (a
     *                  provider with {@link dev.forge.memory.Capability#TOMBSTONES} keeps such histories)
     * @param defaulted the fields the input left out and the reader filled in, once per version
     */
    public record Entry(MemoryEntry current, List<MemoryEntry> history, boolean deleted, List<String> defaulted) {
        /** Copies the lists. */
        public Entry {
            history = List.copyOf(history);
            defaulted = List.copyOf(defaulted);
        }

        /** A live entry read from a provider: nothing defaulted. */
        public Entry(MemoryEntry current, List<MemoryEntry> history) {
            this(current, history, false, List.of());
        }

        /** The whole chain, oldest first, current last. */
        public List<MemoryEntry> chain() {
            List<MemoryEntry> chain = new ArrayList<>(history.size() + 1);
            chain.addAll(history);
            chain.add(current);
            return chain;
        }
    }

    /** A relation of the format; {@code createdAt} is informative (an import makes the relation anew). */
    public record Relation(EntryRef from, String type, EntryRef to, Optional<Instant> createdAt) {
    }

    /**
     * How a file's records are read.
     *
     * @param seed004 whether the file is seed 004's export ({@code "timestamp"} in epoch seconds, scopes also written as
     *                Python's {@code Scope.PROJECT}) rather than forge-memory's own format
     * @param time    the time given to a version whose file says none: the file's {@code timestamp}, else the import's
     */
    public record Reading(boolean seed004, Instant time) {
    }

    /** A record that cannot be decoded; the message names the field. */
    public static final class RecordException extends Exception {
        private static final long serialVersionUID = 1L;

        RecordException(String message) {
            super(message, null, false, false);
        }
    }

    /** The time as the format writes it: UTC, milliseconds always present. */
    public static String time(Instant instant) {
        return TIME.format(instant);
    }

    /** Writes the fields of {@code entry} (without braces), with its {@code history} unless null. */
    static void writeEntryFields(JsonGenerator out, MemoryEntry entry, List<MemoryEntry> history, boolean keyAndScope) throws IOException {
        if (keyAndScope) {
            out.writeStringField("key", entry.key());
        }
        out.writeStringField("value", entry.value());
        if (keyAndScope) {
            out.writeStringField("scope", entry.scope().id());
        }
        out.writeArrayFieldStart("tags");
        for (String tag : entry.tags()) {
            out.writeString(tag);
        }
        out.writeEndArray();
        out.writeFieldName("metadata");
        out.writeObject(entry.metadata());
        out.writeStringField("created_at", time(entry.createdAt()));
        out.writeStringField("updated_at", time(entry.updatedAt()));
        out.writeNumberField("version", entry.version());
        if (history != null) {
            out.writeArrayFieldStart("history");
            for (MemoryEntry earlier : history) {
                out.writeStartObject();
                writeEntryFields(out, earlier, null, false);
                out.writeEndObject();
            }
            out.writeEndArray();
        }
    }

    /** Writes an entry object; with {@code kind} for JSON Lines. */
    public static void writeEntry(JsonGenerator out, Entry entry, boolean withKind) throws IOException {
        out.writeStartObject();
        if (withKind) {
            out.writeStringField("kind", "entry");
        }
        writeEntryFields(out, entry.current(), entry.history(), true);
        if (entry.deleted()) {
            out.writeBooleanField("deleted", true);
        }
        out.writeEndObject();
    }

    /** Writes a relation object; with {@code kind} for JSON Lines. */
    public static void writeRelation(JsonGenerator out, Relation relation, boolean withKind) throws IOException {
        out.writeStartObject();
        if (withKind) {
            out.writeStringField("kind", "relation");
        }
        out.writeStringField("from", relation.from().key());
        out.writeStringField("to", relation.to().key());
        out.writeStringField("type", relation.type());
        out.writeStringField("scope", relation.from().scope().id());
        if (relation.to().scope() != relation.from().scope()) {
            out.writeStringField("to_scope", relation.to().scope().id());
        }
        if (relation.createdAt().isPresent()) {
            out.writeStringField("created_at", time(relation.createdAt().get()));
        }
        out.writeEndObject();
    }

    /**
     * Decodes an entry object.
     *
     * @param implied the scope of the array it sits in (JSON documents), or empty (JSON Lines)
     */
    public static Entry decodeEntry(JsonNode node, Optional<Scope> implied, Reading reading) throws RecordException {
        ObjectNode object = object(node, "an entry");
        checkFields(object, reading.seed004() ? SEED_ENTRY_FIELDS : ENTRY_FIELDS, "an entry");
        if (object.has("kind") && !"entry".equals(object.get("kind").asText())) {
            throw new RecordException("field 'kind' is " + object.get("kind") + " in the list of entries");
        }
        String key = text(object, "key");
        try {
            Keys.validate(key);
        } catch (MemoryException e) {
            throw new RecordException(e.getMessage());
        }
        Scope scope = scope(object, "scope", implied, reading);
        List<String> defaulted = new ArrayList<>();
        List<MemoryEntry> history = new ArrayList<>();
        JsonNode versions = object.get("history");
        if (versions != null && !versions.isNull()) {
            if (!versions.isArray()) {
                throw new RecordException("field 'history' must be an array of earlier versions, oldest first");
            }
            int i = 0;
            for (JsonNode item : versions) {
                String where = "history[" + i++ + "].";
                ObjectNode earlier = object(item, "field '" + where.substring(0, where.length() - 1) + "'");
                checkFields(earlier, VERSION_FIELDS, where.substring(0, where.length() - 1));
                if (earlier.has("key") && !key.equals(earlier.get("key").asText())) {
                    throw new RecordException("field '" + where + "key' differs from the entry's key");
                }
                if (earlier.has("scope") && scope(earlier, "scope", Optional.empty(), reading) != scope) {
                    throw new RecordException("field '" + where + "scope' differs from the entry's scope");
                }
                history.add(version(earlier, key, scope, where, reading, previous(history), defaulted));
            }
        }
        MemoryEntry current = version(object, key, scope, "", reading, previous(history), defaulted);
        JsonNode deleted = object.get("deleted");
        if (deleted != null && !deleted.isBoolean()) {
            throw new RecordException("field 'deleted' must be true or false");
        }
        return new Entry(current, history, deleted != null && deleted.booleanValue(), defaulted);
    }

    /** Decodes a relation object. */
    public static Relation decodeRelation(JsonNode node) throws RecordException {
        ObjectNode object = object(node, "a relation");
        checkFields(object, RELATION_FIELDS, "a relation");
        if (object.has("kind") && !"relation".equals(object.get("kind").asText())) {
            throw new RecordException("field 'kind' is " + object.get("kind") + " in the list of relations");
        }
        String from = text(object, "from");
        String to = text(object, "to");
        String type = text(object, "type");
        Scope fromScope = scope(object, "scope", Optional.empty(), FORGE);
        Scope toScope = object.has("to_scope") ? scope(object, "to_scope", Optional.empty(), FORGE) : fromScope;
        try {
            Keys.validate(from);
            Keys.validate(to);
            EntryRules.checkRelationType(type);
        } catch (MemoryException e) {
            throw new RecordException(e.getMessage());
        }
        Optional<Instant> createdAt = object.has("created_at") ? Optional.of(instant(object, "created_at", "")) : Optional.empty();
        return new Relation(new EntryRef(from, fromScope), type, new EntryRef(to, toScope), createdAt);
    }

    private static final Reading FORGE = new Reading(false, Instant.EPOCH);

    private static long previous(List<MemoryEntry> history) {
        return history.isEmpty() ? 0 : history.get(history.size() - 1).version();
    }

    /**
     * Decodes one version. Left-out fields are filled in and named in {@code defaulted}: tags and metadata empty, the
     * version one after the previous one (1 for the first), a missing time the other time of the version, else the
     * version's seed {@code timestamp}, else {@link Reading#time()}.
     */
    private static MemoryEntry version(ObjectNode object, String key, Scope scope, String where, Reading reading,
                                       long previous, List<String> defaulted) throws RecordException {
        String value = text(object, where, "value");
        List<String> tags = new ArrayList<>();
        JsonNode tagNode = object.get("tags");
        if (tagNode == null || tagNode.isNull()) {
            defaulted.add("tags");
        } else {
            if (!tagNode.isArray()) {
                throw new RecordException("field '" + where + "tags' must be an array of strings");
            }
            for (JsonNode tag : tagNode) {
                if (!tag.isTextual()) {
                    throw new RecordException("field '" + where + "tags' must hold strings only, found " + tag.getNodeType().name().toLowerCase());
                }
                if (tags.contains(tag.asText())) {
                    throw new RecordException("field '" + where + "tags' lists '" + tag.asText() + "' twice");
                }
                tags.add(tag.asText());
            }
        }
        Map<String, Object> metadata = Map.of();
        JsonNode metadataNode = object.get("metadata");
        if (metadataNode == null || metadataNode.isNull()) {
            defaulted.add("metadata");
        } else {
            if (!metadataNode.isObject()) {
                throw new RecordException("field '" + where + "metadata' must be an object");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> read = MAPPER.convertValue(metadataNode, Map.class);
            metadata = read;
        }
        Instant written = object.has("timestamp") ? epochSeconds(object.get("timestamp"), where + "timestamp") : null;
        Instant createdAt = given(object, "created_at") ? instant(object, "created_at", where) : null;
        Instant updatedAt = given(object, "updated_at") ? instant(object, "updated_at", where) : written;
        if (createdAt == null) {
            defaulted.add("created_at");
            createdAt = updatedAt != null ? updatedAt : reading.time();
        }
        if (updatedAt == null) {
            defaulted.add("updated_at");
            updatedAt = createdAt;
        }
        JsonNode versionNode = object.get("version");
        long version;
        if (versionNode == null || versionNode.isNull()) {
            defaulted.add("version");
            version = previous + 1;
        } else if (!versionNode.canConvertToLong() || !versionNode.isIntegralNumber()) {
            throw new RecordException("field '" + where + "version' must be a whole number of at least 1");
        } else {
            version = versionNode.asLong();
        }
        try {
            return new MemoryEntry(key, value, scope, tags, metadata, createdAt, updatedAt, version);
        } catch (IllegalArgumentException | MemoryException e) {
            throw new RecordException((where.isEmpty() ? "" : where.substring(0, where.length() - 1) + ": ") + e.getMessage());
        }
    }

    private static ObjectNode object(JsonNode node, String what) throws RecordException {
        if (node == null || !node.isObject()) {
            throw new RecordException(what + " must be a JSON object, found " + (node == null ? "nothing" : node.getNodeType().name().toLowerCase()));
        }
        return (ObjectNode) node;
    }

    private static void checkFields(ObjectNode object, Set<String> known, String what) throws RecordException {
        for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!known.contains(name)) {
                throw new RecordException("unknown field '" + name + "' in " + what + "; known fields: "
                        + known.stream().sorted().toList());
            }
        }
    }

    private static String text(ObjectNode object, String field) throws RecordException {
        return text(object, "", field);
    }

    private static String text(ObjectNode object, String where, String field) throws RecordException {
        JsonNode node = object.get(field);
        if (node == null || node.isNull()) {
            throw new RecordException("field '" + where + field + "' is missing");
        }
        if (!node.isTextual()) {
            throw new RecordException("field '" + where + field + "' must be a string, found " + node.getNodeType().name().toLowerCase());
        }
        return node.asText();
    }

    private static boolean given(ObjectNode object, String field) {
        return object.has(field) && !object.get(field).isNull();
    }

    /** Seed 004's time: whole (or fractional) seconds since 1970, as Python's {@code int(time.time())} writes them. */
    public static Instant epochSeconds(JsonNode node, String field) throws RecordException {
        if (node == null || !node.isNumber()) {
            throw new RecordException("field '" + field + "' must be a number of seconds since 1970-01-01 (seed 004's "
                    + "int(time.time())), found " + (node == null ? "nothing" : node.getNodeType().name().toLowerCase()));
        }
        try {
            java.math.BigDecimal seconds = node.decimalValue();
            long whole = seconds.setScale(0, java.math.RoundingMode.FLOOR).longValueExact();
            return Instant.ofEpochSecond(whole).plusMillis(seconds.subtract(java.math.BigDecimal.valueOf(whole)).movePointRight(3).longValue());
        } catch (ArithmeticException | java.time.DateTimeException e) {
            throw new RecordException("field '" + field + "' is " + node + ", not a time in seconds since 1970-01-01");
        }
    }

    private static Scope scope(ObjectNode object, String field, Optional<Scope> implied, Reading reading) throws RecordException {
        JsonNode node = object.get(field);
        if (node == null || node.isNull()) {
            if (implied.isPresent()) {
                return implied.get();
            }
            throw new RecordException("field '" + field + "' is missing; use session, project or global");
        }
        String name = node.asText();
        // Python's str() of seed 004's Scope enum, what json.dumps(..., default=str) writes for asdict(entry).
        if (reading.seed004() && name.startsWith("Scope.")) {
            name = name.substring("Scope.".length()).toLowerCase(java.util.Locale.ROOT);
        }
        Scope scope = scopeNamed(name);
        if (scope == null || !node.isTextual()) {
            throw new RecordException("field '" + field + "' is '" + node.asText() + "'; use session, project or global");
        }
        if (implied.isPresent() && implied.get() != scope) {
            throw new RecordException("field '" + field + "' is '" + scope.id() + "' but the entry sits in the "
                    + implied.get().id() + " list");
        }
        return scope;
    }

    /** The scope of a format name ({@code session}, {@code project}, {@code global}), or null. */
    public static Scope scopeNamed(String name) {
        for (Scope scope : Scope.values()) {
            if (scope.id().equals(name)) {
                return scope;
            }
        }
        return null;
    }

    private static Instant instant(ObjectNode object, String field, String where) throws RecordException {
        String text = text(object, where, field);
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new RecordException("field '" + where + field + "' is '" + text + "', not an ISO-8601 UTC time such as 2026-01-31T12:00:00.000Z");
        }
    }
}
