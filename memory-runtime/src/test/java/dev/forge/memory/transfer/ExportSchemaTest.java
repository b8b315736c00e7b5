package dev.forge.memory.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.inmemory.InMemoryMemoryProvider;
import dev.forge.memory.inmemory.InMemoryStore;
import dev.forge.memory.spi.ProviderContext;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the exporter writes matches the published JSON Schema, docs/export-format.schema.json, in both shapes. */
class ExportSchemaTest {

    private static final Path SCHEMA = Path.of("..", "docs", "export-format.schema.json");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    private MemoryProvider provider;

    @BeforeEach
    void fill() {
        provider = new InMemoryMemoryProvider(new InMemoryStore(true), ProviderContext.builder().projectId("p")
                .sessionId("s").baseDirectory(dir).build());
        provider.set("a", "first", Scope.PROJECT, List.of("x", "y"), Map.of("n", 1, "deep", Map.of("list", List.of(1.5, true))));
        provider.set("a", "second", Scope.PROJECT);
        provider.set("s", "session note", Scope.SESSION);
        provider.set("g", "global note", Scope.GLOBAL);
        provider.delete("s", Scope.SESSION);
        provider.set("s", "session note again", Scope.SESSION);
        provider.set("gone", "deleted, its versions kept", Scope.PROJECT);
        provider.delete("gone", Scope.PROJECT);
        provider.requireGraph().relate(new EntryRef("a", Scope.PROJECT), new EntryRef("g", Scope.GLOBAL), "USES");
        provider.requireGraph().relate(new EntryRef("a", Scope.PROJECT), new EntryRef("a", Scope.PROJECT), "SELF");
    }

    private static JsonSchema schema(String pointer) throws Exception {
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
        JsonNode schema = MAPPER.readTree(Files.readString(SCHEMA));
        if (pointer.isEmpty()) {
            return factory.getSchema(schema);
        }
        // A schema of its own for one definition: the same $defs, and a reference to the one wanted.
        ObjectNode part = MAPPER.createObjectNode();
        part.set("$schema", schema.get("$schema"));
        part.set("$defs", schema.get("$defs"));
        part.put("$ref", "#" + pointer);
        return factory.getSchema(part);
    }

    private byte[] export(TransferFormat format) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Exporter.builder().format(format).project("p").build().export(provider, out);
        return out.toByteArray();
    }

    @Test
    void a_json_export_matches_the_schema_and_a_broken_one_does_not() throws Exception {
        JsonNode document = MAPPER.readTree(export(TransferFormat.JSON));

        assertThat(schema("").validate(document)).isEmpty();

        ObjectNode broken = document.deepCopy();
        ((ObjectNode) broken.path("scopes").path("project").get(0)).put("version", 0).put("colour", "blue");
        broken.put("version", "2.0");
        Set<ValidationMessage> problems = schema("").validate(broken);
        assertThat(problems).extracting(ValidationMessage::getMessage).anyMatch(m -> m.contains("version"))
                .anyMatch(m -> m.contains("colour"));
    }

    @Test
    void every_line_of_a_json_lines_export_matches_the_schema() throws Exception {
        String[] lines = new String(export(TransferFormat.JSONL), StandardCharsets.UTF_8).split("\n");
        assertThat(lines).hasSizeGreaterThan(4);

        assertThat(schema("/$defs/header").validate(MAPPER.readTree(lines[0]))).isEmpty();
        JsonSchema line = schema("/$defs/line");
        for (int i = 1; i < lines.length; i++) {
            assertThat(line.validate(MAPPER.readTree(lines[i]))).as("line %d: %s", i + 1, lines[i]).isEmpty();
        }
        assertThat(line.validate(MAPPER.readTree("{\"kind\":\"entry\",\"key\":\"a\",\"value\":\"v\"}"))).isNotEmpty();
    }
}
