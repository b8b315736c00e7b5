package dev.forge.memory.support;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.forge.memory.InvalidEntryException;
import java.util.List;
import java.util.Map;

/**
 * Tags and metadata as JSON text, for providers that keep them in a text column: compact, integers read back as
 * {@code long}, duplicate keys and trailing text refused, so that what is read is exactly what was written.
 */
public final class EntryJson {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_LONG_FOR_INTS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .build();
    private static final ObjectReader TAGS = JSON.readerFor(new TypeReference<List<String>>() {
    });
    private static final ObjectReader METADATA = JSON.readerFor(new TypeReference<Map<String, Object>>() {
    });

    private EntryJson() {
    }

    /** Tags as a JSON array of strings. */
    public static String tags(List<String> tags) {
        return write(tags);
    }

    /** Metadata as a compact JSON object (the normalised map is sorted already, so its keys are). */
    public static String metadata(Map<String, Object> metadata) {
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
     * The tags of {@code json}.
     *
     * @throws IllegalArgumentException if it is not a JSON array of strings
     */
    public static List<String> parseTags(String json) {
        if (json == null) {
            throw new IllegalArgumentException("its tags are NULL");
        }
        try {
            List<String> tags = TAGS.readValue(json);
            if (tags == null || tags.contains(null)) {
                throw new IllegalArgumentException("its tags are not a JSON array of strings");
            }
            return tags;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("its tags are not a JSON array of strings: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * The metadata of {@code json}.
     *
     * @throws IllegalArgumentException if it is not a JSON object
     */
    public static Map<String, Object> parseMetadata(String json) {
        if (json == null) {
            throw new IllegalArgumentException("its metadata is NULL");
        }
        try {
            Map<String, Object> metadata = METADATA.readValue(json);
            if (metadata == null) {
                throw new IllegalArgumentException("its metadata is not a JSON object");
            }
            return metadata;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("its metadata is not a JSON object: " + e.getOriginalMessage(), e);
        }
    }
}
