package dev.forge.memory.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.EntryRef;
import dev.forge.memory.GraphPath;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Relation;
import java.io.UncheckedIOException;

/** The JSON shapes the commands print, in one place. Instants are ISO-8601 strings, scopes their lower-case ids. */
final class Json {

    /** Reads and writes JSON: strict about trailing garbage and duplicate fields. */
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /**
     * Reads a metadata value of {@code --meta-json}: decimals exactly ({@link java.math.BigDecimal}), so that one a
     * double cannot hold is refused by the entry rules, as an import refuses it, instead of rounded.
     */
    static final ObjectReader METADATA = MAPPER.readerFor(Object.class).with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    /** Two-space indentation, arrays one item per line, {@code "key": value}. */
    private static final ObjectWriter PRETTY = MAPPER.writer(new DefaultPrettyPrinter()
            .withArrayIndenter(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE)
            .withSeparators(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEmptySeparator("")
                    .withArrayEmptySeparator("")));

    private Json() {
    }

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    static ArrayNode array() {
        return MAPPER.createArrayNode();
    }

    /** Indented, for {@code --json}. */
    static String pretty(JsonNode node) {
        try {
            return PRETTY.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One line, for JSON Lines output. */
    static String compact(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every field of an entry. */
    static ObjectNode entry(MemoryEntry entry) {
        ObjectNode node = object();
        node.put("key", entry.key());
        node.put("value", entry.value());
        node.put("scope", entry.scope().id());
        ArrayNode tags = node.putArray("tags");
        entry.tags().forEach(tags::add);
        node.set("metadata", MAPPER.valueToTree(entry.metadata()));
        node.put("createdAt", entry.createdAt().toString());
        node.put("updatedAt", entry.updatedAt().toString());
        node.put("version", entry.version());
        return node;
    }

    /** An entry's address. */
    static ObjectNode ref(EntryRef ref) {
        ObjectNode node = object();
        node.put("key", ref.key());
        node.put("scope", ref.scope().id());
        return node;
    }

    /** A search hit: the entry's address and score, without the entry. */
    static ObjectNode hitSummary(Hit hit) {
        ObjectNode node = ref(hit.entry().ref());
        node.put("score", hit.score());
        return node;
    }

    /** A search hit with its whole entry. */
    static ObjectNode hit(Hit hit) {
        ObjectNode node = hitSummary(hit);
        node.set("entry", entry(hit.entry()));
        return node;
    }

    static ObjectNode relation(Relation relation) {
        ObjectNode node = object();
        node.set("from", ref(relation.from()));
        node.put("type", relation.type());
        node.set("to", ref(relation.to()));
        node.put("createdAt", relation.createdAt().toString());
        return node;
    }

    static ObjectNode path(GraphPath path) {
        ObjectNode node = object();
        node.set("end", ref(path.end()));
        node.put("length", path.length());
        ArrayNode relations = node.putArray("relations");
        path.relations().forEach(r -> relations.add(relation(r)));
        return node;
    }
}
