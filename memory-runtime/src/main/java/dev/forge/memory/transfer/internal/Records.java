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
            "created_at", "updated_at", "version", "history");
    private static final Set<String> VERSION_FIELDS = Set.of("key", "value", "scope", "tags", "metadata",
            "created_at", "updated_at", "version");
    private static final Set<String> RELATION_FIELDS = Set.of("kind", "from", "to", "type", "scope", "to_scope", "created_at");

    private Records() {
    }

    /** An entry of the format: the current version and the earlier ones, oldest first. */
    public record Entry(MemoryEntry current, List<MemoryEntry> history) {
        /** Copies the history. */
        public Entry {
            history = List.copyOf(history);
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
    public static Entry decodeEntry(JsonNode node, Optional<Scope> implied) throws RecordException {
        ObjectNode object = object(node, "an entry");
        checkFields(object, ENTRY_FIELDS, "an entry");
        if (object.has("kind") && !"entry".equals(object.get("kind").asText())) {
            throw new RecordException("field 'kind' is " + object.get("kind") + " in the list of entries");
        }
        String key = text(object, "key");
        try {
            Keys.validate(key);
        } catch (MemoryException e) {
            throw new RecordException(e.getMessage());
        }
        Scope scope = scope(object, "scope", implied);
        MemoryEntry current = version(object, key, scope, "");
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
                if (earlier.has("scope") && scope(earlier, "scope", Optional.empty()) != scope) {
                    throw new RecordException("field '" + where + "scope' differs from the entry's scope");
                }
                history.add(version(earlier, key, scope, where));
            }
        }
        return new Entry(current, history);
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
        Scope fromScope = scope(object, "scope", Optional.empty());
        Scope toScope = object.has("to_scope") ? scope(object, "to_scope", Optional.empty()) : fromScope;
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

    private static MemoryEntry version(ObjectNode object, String key, Scope scope, String where) throws RecordException {
        String value = text(object, where, "value");
        List<String> tags = new ArrayList<>();
        JsonNode tagNode = object.get("tags");
        if (tagNode != null && !tagNode.isNull()) {
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
        if (metadataNode != null && !metadataNode.isNull()) {
            if (!metadataNode.isObject()) {
                throw new RecordException("field '" + where + "metadata' must be an object");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> read = MAPPER.convertValue(metadataNode, Map.class);
            metadata = read;
        }
        Instant createdAt = instant(object, "created_at", where);
        Instant updatedAt = instant(object, "updated_at", where);
        JsonNode versionNode = object.get("version");
        if (versionNode == null || !versionNode.canConvertToLong() || !versionNode.isIntegralNumber()) {
            throw new RecordException("field '" + where + "version' must be a whole number of at least 1");
        }
        try {
            return new MemoryEntry(key, value, scope, tags, metadata, createdAt, updatedAt, versionNode.asLong());
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

    private static Scope scope(ObjectNode object, String field, Optional<Scope> implied) throws RecordException {
        JsonNode node = object.get(field);
        if (node == null || node.isNull()) {
            if (implied.isPresent()) {
                return implied.get();
            }
            throw new RecordException("field '" + field + "' is missing; use session, project or global");
        }
        Scope scope = scopeNamed(node.asText());
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
