package dev.forge.memory.vector.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The stored form of an entry: one compact JSON object per document, read back exactly. */
public final class EntryCodec {

    private static final ObjectMapper JSON = new ObjectMapper();

    private EntryCodec() {
    }

    /** The JSON of {@code entry}. */
    public static String encode(MemoryEntry entry) {
        ObjectNode node = JSON.createObjectNode();
        node.put("key", entry.key());
        node.put("scope", entry.scope().id());
        node.put("value", entry.value());
        ArrayNode tags = node.putArray("tags");
        entry.tags().forEach(tags::add);
        node.set("metadata", JSON.valueToTree(entry.metadata()));
        node.put("createdAt", entry.createdAt().toEpochMilli());
        node.put("updatedAt", entry.updatedAt().toEpochMilli());
        node.put("version", entry.version());
        try {
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an entry could not be written as JSON", e);
        }
    }

    /**
     * The entry stored as {@code json}.
     *
     * @param where the index and key, for the message
     * @throws CorruptEntryException if the text is not an entry this codec wrote
     */
    public static MemoryEntry decode(String json, String where) {
        if (json == null) {
            throw new CorruptEntryException(where + ": the document has no stored entry; the index is damaged. "
                    + "Run forge-memory doctor, then restore the index from a backup or re-import the memories.");
        }
        try {
            JsonNode node = JSON.readTree(json);
            List<String> tags = new ArrayList<>();
            node.get("tags").forEach(t -> tags.add(t.textValue()));
            @SuppressWarnings("unchecked")
            Map<String, Object> metadata = JSON.convertValue(node.get("metadata"), Map.class);
            return new MemoryEntry(text(node, "key"), text(node, "value"), Scope.parse(text(node, "scope")), tags, metadata,
                    Instant.ofEpochMilli(node.get("createdAt").longValue()), Instant.ofEpochMilli(node.get("updatedAt").longValue()),
                    node.get("version").longValue());
        } catch (JsonProcessingException | RuntimeException e) {
            if (e instanceof CorruptEntryException c) {
                throw c;
            }
            throw new CorruptEntryException(where + ": the stored entry cannot be read (" + e.getMessage()
                    + "); the index is damaged. Run forge-memory doctor, then restore the index from a backup or "
                    + "re-import the memories.", e);
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException("'" + field + "' is missing or not text");
        }
        return value.textValue();
    }
}
