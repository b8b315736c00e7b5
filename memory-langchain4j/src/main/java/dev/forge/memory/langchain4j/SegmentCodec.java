package dev.forge.memory.langchain4j;

import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.MemoryEntry;
import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * How an embedding store entry holds a LangChain4j embedding and its segment: the segment's text is the value; its
 * metadata fields are the entry's metadata fields of the same names (so that forge-memory filters see them), with
 * UUIDs as their text; {@value #TYPES} records each field's LangChain4j type, so that an {@code Integer} comes back as
 * an {@code Integer} and a UUID as a UUID; {@value #EMBEDDING} holds the vector as given (little-endian floats in
 * base64); {@value #SEGMENT} says whether there was a segment at all.
 */
final class SegmentCodec {

    /** Every field the codec adds starts with this; segment metadata may not. */
    static final String RESERVED = "langchain4j:";
    static final String TYPES = RESERVED + "types";
    static final String EMBEDDING = RESERVED + "embedding";
    static final String SEGMENT = RESERVED + "segment";

    private SegmentCodec() {
    }

    /** The entry value of {@code segment}: its text, or empty without one. */
    static String value(TextSegment segment) {
        return segment == null ? "" : segment.text();
    }

    /** The entry metadata of an embedding and its segment (which may be null). */
    static Map<String, Object> metadata(String id, Embedding embedding, TextSegment segment) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        Map<String, String> types = new LinkedHashMap<>();
        if (segment != null) {
            for (Map.Entry<String, Object> field : segment.metadata().toMap().entrySet()) {
                if (field.getKey().startsWith(RESERVED)) {
                    throw new InvalidEntryException("The metadata field '" + field.getKey() + "' of embedding '" + id
                            + "' starts with '" + RESERVED + "', which the forge-memory embedding store keeps for itself; "
                            + "rename the field.");
                }
                Object value = field.getValue();
                types.put(field.getKey(), value.getClass().getSimpleName());
                metadata.put(field.getKey(), storedValue(value));
            }
        }
        metadata.put(TYPES, types);
        metadata.put(EMBEDDING, encode(embedding.vector()));
        metadata.put(SEGMENT, segment != null);
        return metadata;
    }

    /** A LangChain4j metadata value as forge-memory metadata holds it (and as filters compare it). */
    static Object storedValue(Object value) {
        return value instanceof UUID uuid ? uuid.toString() : value;
    }

    /** The embedding held by {@code entry}. */
    static Embedding embedding(MemoryEntry entry) {
        if (!(entry.metadata().get(EMBEDDING) instanceof String text)) {
            throw corrupt(entry, "it holds no '" + EMBEDDING + "'");
        }
        try {
            ByteBuffer bytes = ByteBuffer.wrap(Base64.getDecoder().decode(text)).order(ByteOrder.LITTLE_ENDIAN);
            float[] vector = new float[bytes.remaining() / Float.BYTES];
            bytes.asFloatBuffer().get(vector);
            return Embedding.from(vector);
        } catch (IllegalArgumentException e) {
            throw corrupt(entry, "its '" + EMBEDDING + "' is not base64");
        }
    }

    /** The segment held by {@code entry}, or null when it was added without one. */
    static TextSegment segment(MemoryEntry entry) {
        if (!Boolean.TRUE.equals(entry.metadata().get(SEGMENT))) {
            return null;
        }
        Map<?, ?> types = entry.metadata().get(TYPES) instanceof Map<?, ?> map ? map : Map.of();
        Metadata metadata = new Metadata();
        for (Map.Entry<?, ?> type : types.entrySet()) {
            String name = type.getKey().toString();
            Object value = entry.metadata().get(name);
            if (value == null) {
                throw corrupt(entry, "its metadata field '" + name + "' is missing");
            }
            metadata.putAll(Map.of(name, typed(entry, name, type.getValue().toString(), value)));
        }
        return TextSegment.from(entry.value(), metadata);
    }

    private static Object typed(MemoryEntry entry, String name, String type, Object value) {
        if (type.equals("String") || type.equals("UUID")) {
            return type.equals("UUID") ? UUID.fromString(value.toString()) : value.toString();
        }
        if (!(value instanceof Number number)) {
            throw corrupt(entry, "its metadata field '" + name + "' is not a number");
        }
        return switch (type) {
            case "Integer" -> number.intValue();
            case "Long" -> number.longValue();
            case "Float" -> number.floatValue();
            case "Double" -> number.doubleValue();
            default -> throw corrupt(entry, "its metadata field '" + name + "' has the unknown type '" + type + "'");
        };
    }

    private static String encode(float[] vector) {
        ByteBuffer bytes = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asFloatBuffer().put(vector);
        return Base64.getEncoder().encodeToString(bytes.array());
    }

    private static CorruptEntryException corrupt(MemoryEntry entry, String what) {
        return new CorruptEntryException("The embedding store entry '" + entry.key() + "' (" + entry.scope().id()
                + ") cannot be read back as a LangChain4j embedding: " + what + ". It was not written by "
                + "ForgeEmbeddingStore, or was edited since; delete it or write it again.");
    }
}
