package dev.forge.memory.file.internal;

import dev.forge.memory.support.files.AtomicFiles;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.Scope;
import dev.forge.memory.Keys;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The JSON form of an entry, optionally gzip-compressed:
 *
 * <pre>{@code
 * {"format":1,"key":"...","scope":"project","value":"...","tags":[...],"metadata":{...},
 *  "createdAt":"2026-01-01T00:00:00Z","updatedAt":"...","version":3}
 * }</pre>
 */
public final class EntryCodec {

    /** The format number written into every file. */
    public static final int FORMAT = 1;

    /**
     * The largest file this codec reads, before and after decompression. No entry the provider writes comes near
     * it (a 1 MiB value escapes to at most 6 MiB of JSON), so anything larger is damage, not data.
     */
    public static final long MAX_READ_BYTES = 32L * 1024 * 1024;

    /** The mapper for every file of the store. */
    public static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .build();

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    private EntryCodec() {
    }

    /** Thrown when stored bytes are not a valid entry; the message says what is wrong. */
    public static final class MalformedException extends Exception {
        private static final long serialVersionUID = 1L;

        /** An error with a message and, when there is one, the parser's exception. */
        public MalformedException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The entry's fields as a JSON-ready map, in the documented order. */
    public static Map<String, Object> toMap(MemoryEntry entry) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("format", FORMAT);
        map.put("key", entry.key());
        map.put("scope", entry.scope().id());
        map.put("value", entry.value());
        map.put("tags", entry.tags());
        map.put("metadata", entry.metadata());
        map.put("createdAt", entry.createdAt().toString());
        map.put("updatedAt", entry.updatedAt().toString());
        map.put("version", entry.version());
        return map;
    }

    /** The bytes of an entry file: UTF-8 JSON, gzip-compressed if {@code gzip}. */
    public static byte[] encode(MemoryEntry entry, boolean gzip) {
        try {
            byte[] json = JSON.writeValueAsBytes(toMap(entry));
            return gzip ? gzip(json) : json;
        } catch (JsonProcessingException e) {
            throw new MemoryException("Cannot write entry " + entry + " as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Compresses bytes with gzip. */
    public static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 2 + 64);
        try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
            zip.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("compressing in memory cannot fail", e);
        }
        return out.toByteArray();
    }

    /**
     * Reads an entry file; a name ending in {@code .gz} is decompressed. No interruptible channel is used.
     *
     * @throws IOException        if the file cannot be read at all (missing, no permission)
     * @throws MalformedException if its content is not an entry
     */
    public static MemoryEntry read(Path file) throws IOException, MalformedException {
        long size = Files.size(file);
        byte[] bytes = size > MAX_READ_BYTES ? null : AtomicFiles.readAtMost(file, (int) MAX_READ_BYTES);
        if (bytes == null || bytes.length > MAX_READ_BYTES) {
            throw new MalformedException("it is over " + MAX_READ_BYTES + " bytes, more than any entry this provider writes", null);
        }
        if (file.getFileName().toString().endsWith(".gz")) {
            bytes = gunzip(bytes);
        }
        return decode(bytes);
    }

    private static byte[] gunzip(byte[] bytes) throws MalformedException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length * 4);
            byte[] buffer = new byte[8192];
            long total = 0;
            for (int n; (n = in.read(buffer)) > 0; ) {
                total += n;
                if (total > MAX_READ_BYTES) {
                    throw new MalformedException("it decompresses to more than " + MAX_READ_BYTES + " bytes", null);
                }
                out.write(buffer, 0, n);
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new MalformedException("it is not valid gzip data (" + e.getMessage() + ")", e);
        }
    }

    /** Parses the JSON form of an entry. */
    public static MemoryEntry decode(byte[] json) throws MalformedException {
        JsonNode node;
        try {
            node = JSON.readTree(json);
        } catch (IOException e) {
            throw new MalformedException(notJson(e), e);
        }
        return fromTree(node);
    }

    /** Reads an entry from its JSON tree, checking every field. */
    public static MemoryEntry fromTree(JsonNode node) throws MalformedException {
        if (node == null || !node.isObject()) {
            throw new MalformedException("it is not a JSON object", null);
        }
        JsonNode format = node.get("format");
        if (format != null && (!format.canConvertToInt() || format.asInt() != FORMAT)) {
            throw new MalformedException("it has format " + format + "; this version reads format " + FORMAT, null);
        }
        try {
            String key = Keys.validate(text(node, "key"));
            Scope scope = Scope.parse(text(node, "scope"));
            String value = text(node, "value");
            JsonNode tagsNode = field(node, "tags");
            if (!tagsNode.isArray()) {
                throw new MalformedException("'tags' is not a list", null);
            }
            List<String> tags = new ArrayList<>();
            for (JsonNode tag : tagsNode) {
                if (!tag.isTextual()) {
                    throw new MalformedException("a tag is not a string", null);
                }
                tags.add(tag.textValue());
            }
            JsonNode metadataNode = field(node, "metadata");
            if (!metadataNode.isObject()) {
                throw new MalformedException("'metadata' is not an object", null);
            }
            Map<String, Object> metadata = JSON.convertValue(metadataNode, MAP);
            Instant createdAt = Instant.parse(text(node, "createdAt"));
            Instant updatedAt = Instant.parse(text(node, "updatedAt"));
            JsonNode version = field(node, "version");
            if (!version.isIntegralNumber() || !version.canConvertToLong()) {
                throw new MalformedException("'version' is not a whole number", null);
            }
            return new MemoryEntry(key, value, scope, tags, metadata, createdAt, updatedAt, version.longValue());
        } catch (DateTimeParseException | IllegalArgumentException | MemoryException e) {
            throw new MalformedException("it holds an invalid field (" + e.getMessage() + ")", e);
        }
    }

    private static JsonNode field(JsonNode node, String name) throws MalformedException {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            throw new MalformedException("the field '" + name + "' is missing", null);
        }
        return value;
    }

    private static String text(JsonNode node, String name) throws MalformedException {
        JsonNode value = field(node, name);
        if (!value.isTextual()) {
            throw new MalformedException("the field '" + name + "' is not a string", null);
        }
        return value.textValue();
    }

    /**
     * Says where parsing failed without quoting the file: parser messages may hold a piece of a value, and these
     * messages are logged.
     */
    static String notJson(IOException e) {
        if (e instanceof JsonProcessingException json && json.getLocation() != null) {
            return "it is not valid JSON (error at line " + json.getLocation().getLineNr() + ", column "
                    + json.getLocation().getColumnNr() + ")";
        }
        return "it is not valid JSON";
    }
}
