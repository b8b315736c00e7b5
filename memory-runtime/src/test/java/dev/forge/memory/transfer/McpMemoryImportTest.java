package dev.forge.memory.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.inmemory.InMemoryMemoryProvider;
import dev.forge.memory.inmemory.InMemoryStore;
import dev.forge.memory.spi.ProviderContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official MCP memory server's {@code memory.jsonl}, told from its content and imported as entities (entries) and
 * relations; a bad line is skipped and reported by its number, never called lossless. The real file the official
 * server wrote is imported by {@code dev.forge.memory.knowledge.OfficialMemoryFileTest} in memory-agent.
 */
class McpMemoryImportTest {

    @TempDir
    Path dir;

    private MemoryProvider target;

    @BeforeEach
    void open() {
        target = new InMemoryMemoryProvider(new InMemoryStore(), ProviderContext.builder().projectId("p").sessionId("s")
                .baseDirectory(dir).build());
    }

    private Path file(String... lines) throws IOException {
        return Files.writeString(dir.resolve("memory.jsonl"), String.join("\n", lines), StandardCharsets.UTF_8);
    }

    private static EntryRef entity(String name) {
        return EntryRef.of(McpMemoryFormat.key(name), Scope.GLOBAL);
    }

    @Test
    void a_memory_jsonl_is_told_from_its_content_and_imported_as_entries_and_relations() throws IOException {
        Path file = file(
                "{\"type\":\"entity\",\"name\":\"Alice\",\"entityType\":\"person\",\"observations\":[\"Likes tea\",\"Two\\nlines\"]}",
                "{\"type\":\"entity\",\"name\":\"Acme Corp\",\"entityType\":\"organization\",\"observations\":[]}",
                "{\"type\":\"relation\",\"from\":\"Alice\",\"to\":\"Acme Corp\",\"relationType\":\"works at\"}");

        ImportResult result = Importer.builder().build().importFile(file, target);

        assertThat(result.created()).isEqualTo(2);
        assertThat(result.relationsWritten()).isEqualTo(1);
        assertThat(result.invalidCount()).isZero();
        assertThat(result.lossless()).isTrue();
        MemoryEntry alice = target.get(McpMemoryFormat.key("Alice"), Scope.GLOBAL).orElseThrow();
        assertThat(McpMemoryFormat.isEntity(alice)).isTrue();
        assertThat(McpMemoryFormat.name(alice)).isEqualTo("Alice");
        assertThat(McpMemoryFormat.entityType(alice)).isEqualTo("person");
        assertThat(McpMemoryFormat.observations(alice.value())).containsExactly("Likes tea", "Two\nlines");
        List<Relation> relations = target.requireGraph().relations(entity("Alice"), Direction.OUTGOING);
        assertThat(relations).singleElement().satisfies(relation -> {
            assertThat(relation.to()).isEqualTo(entity("Acme Corp"));
            assertThat(McpMemoryFormat.officialRelationType(relation.type())).isEqualTo("works at");
        });
    }

    @Test
    void bad_lines_are_skipped_and_reported_by_number_and_the_rest_is_imported() throws IOException {
        Path file = file(
                "{\"type\":\"entity\",\"name\":\"Alice\",\"entityType\":\"person\",\"observations\":[\"ok\"]}",
                "{\"type\":\"entity\",\"name\":\"Bob\",\"entityType\":\"per",
                "{\"type\":\"entity\",\"name\":\"Carol\",\"observations\":[]}",
                "{\"type\":\"widget\",\"name\":\"Dave\"}",
                "{\"type\":\"entity\",\"name\":\"Alice\",\"entityType\":\"person\",\"observations\":[\"again\"]}",
                "{\"type\":\"relation\",\"from\":\"Alice\",\"to\":\"Nobody\",\"relationType\":\"knows\"}",
                "",
                "{\"type\":\"entity\",\"name\":\"Erin\",\"entityType\":\"person\",\"observations\":[\"fine\"]}",
                "{\"type\":\"relation\",\"from\":\"Erin\",\"to\":\"Alice\",\"relationType\":\"knows\"}");

        ImportResult result = Importer.builder().build().importFile(file, target);

        assertThat(result.created()).isEqualTo(2);
        assertThat(result.relationsWritten()).isEqualTo(1);
        assertThat(result.invalidCount()).isEqualTo(5);
        assertThat(result.lossless()).isFalse();
        assertThat(result.losses()).contains("5 invalid record(s), skipped");
        assertThat(result.invalid()).extracting(TransferProblem::location)
                .containsExactly("line 2", "line 3", "line 4", "line 5", "line 6");
        assertThat(result.invalid().get(0).message()).contains("not valid JSON");
        assertThat(result.invalid().get(1).message()).contains("entityType");
        assertThat(result.invalid().get(2).message()).contains("\"entity\" or \"relation\"");
        assertThat(result.invalid().get(3).message()).contains("duplicate", "line 1");
        assertThat(result.invalid().get(4).message()).contains("Nobody");
        assertThat(McpMemoryFormat.observations(target.get(McpMemoryFormat.key("Alice"), Scope.GLOBAL).orElseThrow().value()))
                .containsExactly("ok");
    }

    @Test
    void a_memory_jsonl_on_standard_input_is_told_from_its_content_too() {
        byte[] lines = ("{\"type\":\"entity\",\"name\":\"Alice\",\"entityType\":\"person\",\"observations\":[\"x\"]}\n")
                .getBytes(StandardCharsets.UTF_8);

        ImportResult result = Importer.builder().build().importStream(new ByteArrayInputStream(lines), target);

        assertThat(result.created()).isEqualTo(1);
        assertThat(target.query(Query.of("entity:*", Scope.GLOBAL))).hasSize(1);
    }

    @Test
    void importing_the_same_file_twice_changes_nothing_the_second_time() throws IOException {
        Path file = file(
                "{\"type\":\"entity\",\"name\":\"Alice\",\"entityType\":\"person\",\"observations\":[\"a\",\"b\"]}",
                "{\"type\":\"entity\",\"name\":\"Bob\",\"entityType\":\"person\",\"observations\":[]}",
                "{\"type\":\"relation\",\"from\":\"Alice\",\"to\":\"Bob\",\"relationType\":\"knows\"}");
        Importer importer = Importer.builder().build();
        importer.importFile(file, target);
        List<MemoryEntry> first = target.query(Query.of("*"));

        ImportResult again = importer.importFile(file, target);

        assertThat(again.created()).isZero();
        assertThat(again.unchanged()).isEqualTo(2);
        assertThat(again.lossless()).isTrue();
        assertThat(target.query(Query.of("*"))).containsExactlyElementsOf(first);
        assertThat(target.requireGraph().relations(entity("Alice"), Direction.BOTH)).hasSize(1);
    }

    @Test
    void a_forge_memory_jsonl_export_named_on_the_command_line_as_jsonl_says_what_a_memory_jsonl_is() throws IOException {
        Path file = file("{\"type\":\"entity\",\"name\":\"Alice\",\"entityType\":\"person\",\"observations\":[]}");

        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> Importer.builder().build().importFile(file, TransferFormat.JSONL, target))
                .isInstanceOf(TransferFileException.class)
                .hasMessageContaining("MCP memory server")
                .hasMessageContaining("without --format");
    }
}
