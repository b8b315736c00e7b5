package dev.forge.memory.transfer.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.Scope;
import dev.forge.memory.StorageException;
import dev.forge.memory.transfer.McpMemoryFormat;
import dev.forge.memory.transfer.TransferFileException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The records of the official MCP memory server's {@code memory.jsonl}: an entity or a relation a line, mapped by
 * {@link McpMemoryFormat} into {@code scope}. A line that is not one of them (broken JSON, a missing or mistyped field,
 * an unknown field or {@code type}, a relation type too long) is an invalid record named by its line; the official
 * server itself silently skips lines of another {@code type} and fails on every other of these.
 */
public final class McpMemoryRecords implements RecordSource {

    private static final Set<String> ENTITY_FIELDS = Set.of("type", "name", "entityType", "observations");
    private static final Set<String> RELATION_FIELDS = Set.of("type", "from", "to", "relationType");
    // memory.jsonl keeps no times or versions: every entity gets these as defaults, and the report says so.
    private static final List<String> DEFAULTED = List.of("created_at", "updated_at", "version");

    private final Path file;
    private final String name;
    private final Scope scope;
    private final Instant now;

    /** Reads {@code file}, named {@code name} in messages, into {@code scope}; {@code now} stamps every entity. */
    public McpMemoryRecords(Path file, String name, Scope scope, Instant now) {
        this.file = file;
        this.name = name;
        this.scope = scope;
        this.now = now;
    }

    /**
     * Whether {@code file} looks like a {@code memory.jsonl}: its first JSON value is an object whose {@code type} is
     * {@code "entity"} or {@code "relation"}. Anything unreadable is not.
     */
    public static boolean detect(Path file) {
        try (JsonParser parser = FileRecords.STRICT.createParser(Files.newInputStream(file))) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.getCurrentName();
                JsonToken value = parser.nextToken();
                if (field.equals("type")) {
                    return value == JsonToken.VALUE_STRING && Set.of("entity", "relation").contains(parser.getText());
                }
                parser.skipChildren();
            }
            return false;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Whether one line of text is a {@code memory.jsonl} record (for a hint when it is read as something else). */
    public static boolean isRecordLine(JsonNode node) {
        JsonNode type = node.get("type");
        return node.isObject() && !node.has("kind") && type != null && Set.of("entity", "relation").contains(type.asText());
    }

    @Override
    public String describe() {
        return name;
    }

    @Override
    public void read(RecordVisitor visitor) {
        try (InputStream in = Files.newInputStream(file);
             BufferedReader lines = new BufferedReader(FileRecords.strictUtf8(in), 1 << 16)) {
            long line = 0;
            long ordinal = 0;
            while (true) {
                String text;
                try {
                    text = lines.readLine();
                } catch (CharacterCodingException e) {
                    throw fatal("line " + (line + 1), "the line is not valid UTF-8", e);
                }
                if (text == null) {
                    return;
                }
                line++;
                if (!text.isBlank()) {
                    record(text, "line " + line, ordinal++, visitor);
                }
            }
        } catch (NoSuchFileException e) {
            throw fatal("file", "the file does not exist", e);
        } catch (IOException e) {
            throw new StorageException("Cannot read " + name + ": " + e.getMessage(), e);
        }
    }

    private void record(String text, String location, long ordinal, RecordVisitor visitor) {
        JsonNode node;
        try {
            node = FileRecords.TREE.readValue(text);
        } catch (JsonProcessingException e) {
            visitor.invalid(ordinal, location, "not valid JSON (" + e.getOriginalMessage()
                    + (e instanceof JsonEOFException ? "; the line is cut short" : "") + ")");
            return;
        } catch (NumberFormatException e) {
            visitor.invalid(ordinal, location, "a number cannot be read (" + e.getMessage() + ")");
            return;
        }
        try {
            String type = node.isObject() && node.get("type") != null ? node.get("type").asText() : null;
            if ("entity".equals(type)) {
                visitor.entry(ordinal, location, entity(node));
            } else if ("relation".equals(type)) {
                visitor.relation(ordinal, location, relation(node));
            } else {
                visitor.invalid(ordinal, location, "not a memory.jsonl record: field 'type' must be \"entity\" or \"relation\""
                        + (node.isObject() ? node.has("type") ? ", found " + node.get("type") : ", and is missing" : ""));
            }
        } catch (Records.RecordException e) {
            visitor.invalid(ordinal, location, e.getMessage());
        } catch (MemoryException e) {
            visitor.invalid(ordinal, location, e.getMessage());
        }
    }

    private Records.Entry entity(JsonNode node) throws Records.RecordException {
        checkFields(node, ENTITY_FIELDS, "an entity", "type, name, entityType and observations");
        String entityName = text(node, "name");
        String entityType = text(node, "entityType");
        JsonNode list = node.get("observations");
        if (list == null || !list.isArray()) {
            throw new Records.RecordException("field 'observations' must be an array of strings"
                    + (list == null ? ", and is missing" : ""));
        }
        List<String> observations = new ArrayList<>(list.size());
        for (JsonNode observation : list) {
            if (!observation.isTextual()) {
                throw new Records.RecordException("field 'observations' must hold only strings, found " + observation);
            }
            observations.add(observation.asText());
        }
        MemoryEntry entry = new MemoryEntry(McpMemoryFormat.key(entityName), McpMemoryFormat.value(observations), scope,
                List.of(), McpMemoryFormat.metadata(entityName, entityType), now, now, 1);
        return new Records.Entry(entry, List.of(), false, DEFAULTED);
    }

    private Records.Relation relation(JsonNode node) throws Records.RecordException {
        checkFields(node, RELATION_FIELDS, "a relation", "type, from, to and relationType");
        EntryRef from = EntryRef.of(McpMemoryFormat.key(text(node, "from")), scope);
        EntryRef to = EntryRef.of(McpMemoryFormat.key(text(node, "to")), scope);
        return new Records.Relation(from, McpMemoryFormat.relationType(text(node, "relationType")), to, Optional.empty());
    }

    private static void checkFields(JsonNode node, Set<String> known, String what, String list) throws Records.RecordException {
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            if (!known.contains(field)) {
                throw new Records.RecordException("unknown field '" + field + "' in " + what + "; it has " + list);
            }
        }
    }

    private static String text(JsonNode node, String field) throws Records.RecordException {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new Records.RecordException("field '" + field + "' must be a string" + (value == null ? ", and is missing"
                    : ", found " + value));
        }
        return value.asText();
    }

    private TransferFileException fatal(String location, String message, Throwable cause) {
        return FileRecords.fatal(name, location, message, cause);
    }
}
