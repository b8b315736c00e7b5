package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.config.Memories;
import dev.forge.memory.knowledge.Entity;
import dev.forge.memory.knowledge.EntityRelation;
import dev.forge.memory.knowledge.GraphPage;
import dev.forge.memory.knowledge.KnowledgeGraph;
import dev.forge.memory.knowledge.ObservationAddition;
import dev.forge.memory.knowledge.ObservationDeletion;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A real {@code memory.jsonl}, written by the official MCP memory server itself ({@code src/test/resources/mcp/}, made
 * by the script beside it), imported with {@code forge-memory import} and read with {@code KnowledgeGraph}; and every
 * call the script made to the official server replayed on {@code KnowledgeGraph}, answer by answer. On sqlite and
 * markdown, with real files in a temporary directory and {@code FORGE_HOME} there too.
 */
class OfficialMemoryFileTest {

    private CliHarness cli;
    private Path root;
    private JsonNode answers;

    @BeforeEach
    void setUp(@TempDir Path root) throws IOException {
        this.root = root;
        cli = new CliHarness(root);
        try (InputStream in = getClass().getResourceAsStream("/mcp/official-answers.json")) {
            answers = Json.MAPPER.readTree(in);
        }
    }

    private Path memoryJsonl() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/mcp/memory.jsonl")) {
            Path file = root.resolve("memory.jsonl");
            Files.copy(in, file);
            return file;
        }
    }

    private MemoryProvider open(String provider) {
        return Memories.builder().projectDirectory(cli.project).environment(cli.env).userHome(cli.userHome)
                .provider(provider).open();
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "markdown"})
    void the_official_servers_file_imports_and_answers_as_the_official_server_did(String provider) throws IOException {
        JsonNode summary = cli.ok("import", memoryJsonl().toString(), "--memory-provider", provider, "--json",
                "--no-progress").json();

        assertThat(summary.path("created").asInt()).isEqualTo(9);
        assertThat(summary.path("relations").asInt()).isEqualTo(6);
        assertThat(summary.path("invalid_skipped").asInt()).isZero();
        assertThat(summary.path("lossless").asBoolean()).as(summary.toString()).isTrue();
        try (MemoryProvider memory = open(provider)) {
            KnowledgeGraph graph = new KnowledgeGraph(memory);
            for (JsonNode call : answers) {
                String tool = call.path("tool").asText();
                if (List.of("read_graph", "search_nodes", "open_nodes").contains(tool)) {
                    assertSameGraph(tool + " " + call.path("arguments"), read(graph, call), call.path("result"));
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "markdown"})
    void every_call_made_to_the_official_server_gets_the_same_answer_from_knowledge_graph(String provider) {
        try (MemoryProvider memory = open(provider)) {
            KnowledgeGraph graph = new KnowledgeGraph(memory);
            for (JsonNode call : answers) {
                String tool = call.path("tool").asText();
                JsonNode arguments = call.path("arguments");
                JsonNode expected = call.path("result");
                String what = tool + " " + arguments;
                switch (tool) {
                    case "create_entities" -> assertThat(graph.createEntities(list(arguments.path("entities"), OfficialMemoryFileTest::entity)))
                            .as(what).containsExactlyElementsOf(list(expected.path("entities"), OfficialMemoryFileTest::entity));
                    case "create_relations" -> assertThat(graph.createRelations(list(arguments.path("relations"), OfficialMemoryFileTest::relation)))
                            .as(what).containsExactlyElementsOf(list(expected.path("relations"), OfficialMemoryFileTest::relation));
                    case "add_observations" -> assertThat(graph.addObservations(list(arguments.path("observations"),
                            node -> new ObservationAddition(node.path("entityName").asText(), strings(node.path("contents"))))))
                            .as(what).extracting(added -> added.entityName() + "=" + added.addedObservations())
                            .containsExactlyElementsOf(list(expected.path("results"),
                                    node -> node.path("entityName").asText() + "=" + strings(node.path("addedObservations"))));
                    case "delete_observations" -> assertThat(graph.deleteObservations(list(arguments.path("deletions"),
                            node -> new ObservationDeletion(node.path("entityName").asText(), strings(node.path("observations"))))).message())
                            .isEqualTo(expected.path("message").asText());
                    case "delete_entities" -> assertThat(graph.deleteEntities(strings(arguments.path("entityNames"))).message())
                            .isEqualTo(expected.path("message").asText());
                    case "delete_relations" -> assertThat(graph.deleteRelations(list(arguments.path("relations"),
                            OfficialMemoryFileTest::relation)).message()).isEqualTo(expected.path("message").asText());
                    default -> assertSameGraph(what, read(graph, call), expected);
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "markdown"})
    void an_export_of_the_imported_store_gives_back_the_same_graph_in_another_provider(String provider) throws IOException {
        cli.ok("import", memoryJsonl().toString(), "--memory-provider", provider, "--no-progress");
        Path export = root.resolve("export.json");
        cli.ok("export", "--out", export.toString(), "--memory-provider", provider, "--no-progress");

        JsonNode summary = cli.ok("import", export.toString(), "--memory-provider", "file", "--json", "--no-progress").json();

        assertThat(summary.path("lossless").asBoolean()).as(summary.toString()).isTrue();
        JsonNode official = officialReadGraph();
        try (MemoryProvider memory = open("file")) {
            GraphPage graph = new KnowledgeGraph(memory).readGraph();
            assertSameGraph("read_graph after export and import", graph, official);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "markdown"})
    void a_bad_line_is_skipped_and_named_the_rest_imported_and_the_import_not_called_lossless(String provider) throws IOException {
        Path file = memoryJsonl();
        Files.writeString(file, "\n{\"type\":\"relation\",\"from\":\"default_user\",\"to\":\"Nobody\",\"relationType\":\"knows\"}"
                + "\n{\"type\":\"entity\",\"name\":\"Cut short\",\"entityTy", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        CliHarness.Result result = cli.ok("import", file.toString(), "--memory-provider", provider, "--no-progress");

        assertThat(result.out()).contains("9 created").contains("6 relations")
                .contains("Skipped line 16: relation knows names global:entity:Nobody")
                .contains("Skipped line 17: not valid JSON")
                .contains("Not kept: 2 invalid record(s), skipped.");
        try (MemoryProvider memory = open(provider)) {
            assertThat(new KnowledgeGraph(memory).readGraph().entities()).hasSize(9);
        }
    }

    private JsonNode officialReadGraph() {
        for (JsonNode call : answers) {
            if (call.path("tool").asText().equals("read_graph")) {
                return call.path("result");
            }
        }
        throw new AssertionError("the fixture has no read_graph call");
    }

    private static GraphPage read(KnowledgeGraph graph, JsonNode call) {
        JsonNode arguments = call.path("arguments");
        return switch (call.path("tool").asText()) {
            case "read_graph" -> graph.readGraph();
            case "search_nodes" -> graph.searchNodes(arguments.path("query").asText());
            case "open_nodes" -> graph.openNodes(strings(arguments.path("names")));
            default -> throw new AssertionError("not a read tool: " + call);
        };
    }

    /** Same entities (each with its observations in order) and relations; the official order is the file's. */
    private static void assertSameGraph(String what, GraphPage actual, JsonNode expected) {
        assertThat(actual.entities()).as(what).containsExactlyInAnyOrderElementsOf(list(expected.path("entities"),
                OfficialMemoryFileTest::entity));
        assertThat(actual.relations()).as(what).containsExactlyInAnyOrderElementsOf(list(expected.path("relations"),
                OfficialMemoryFileTest::relation));
        assertThat(actual.nextCursor()).as(what).isEmpty();
    }

    private static Entity entity(JsonNode node) {
        return new Entity(node.path("name").asText(), node.path("entityType").asText(), strings(node.path("observations")));
    }

    private static EntityRelation relation(JsonNode node) {
        return new EntityRelation(node.path("from").asText(), node.path("to").asText(), node.path("relationType").asText());
    }

    private static List<String> strings(JsonNode array) {
        return list(array, JsonNode::asText);
    }

    private static <T> List<T> list(JsonNode array, Function<JsonNode, T> item) {
        List<T> items = new ArrayList<>();
        array.forEach(node -> items.add(item.apply(node)));
        return items;
    }
}
