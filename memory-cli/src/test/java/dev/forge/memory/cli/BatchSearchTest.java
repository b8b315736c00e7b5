package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code search --batch}: JSON Lines in, JSON Lines out, in input order, all lines checked before anything runs. */
class BatchSearchTest {

    @TempDir
    Path root;

    CliHarness cli;
    Path queries;
    Path results;

    @BeforeEach
    void setUp() {
        cli = new CliHarness(root);
        queries = root.resolve("queries.jsonl");
        results = root.resolve("out/results.jsonl");
        cli.ok("set", "db", "We use SQLite for local state.");
        cli.ok("set", "ui", "The UI is written in React with TypeScript.");
        cli.ok("set", "ci", "CI runs on GitHub Actions; state is cached.");
        cli.ok("set", "pref", "Ana prefers SQLite too.", "--scope", "global");
    }

    private void queries(String... lines) {
        cli.write(queries, String.join("\n", lines) + "\n");
    }

    private static List<JsonNode> parseLines(String text) {
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : text.lines().toList()) {
            try {
                nodes.add(Json.MAPPER.readTree(line));
            } catch (IOException e) {
                throw new AssertionError("not a JSON line: " + line, e);
            }
        }
        return nodes;
    }

    private static List<String> keys(JsonNode result) {
        List<String> keys = new ArrayList<>();
        result.path("hits").forEach(hit -> keys.add(hit.path("scope").asText() + ":" + hit.path("key").asText()));
        return keys;
    }

    @Test
    void results_keep_the_input_order_and_have_key_scope_and_score() throws IOException {
        queries("{\"id\": \"q-react\", \"text\": \"react typescript\"}",
                "",
                "{\"id\": \"q-sqlite\", \"text\": \"sqlite\", \"scopes\": [\"project\", \"global\"], \"limit\": 50, \"mode\": \"keyword\"}",
                "{\"id\": \"q-state\", \"text\": \"state\", \"scope\": \"project\", \"limit\": 1}",
                "{\"id\": \"q-none\", \"text\": \"kubernetes\"}");
        CliHarness.Result result = cli.ok("search", "--batch", queries.toString(), "--out", results.toString());
        assertThat(result.out()).isEmpty();
        assertThat(result.err()).contains("4 queries");
        List<JsonNode> lines = parseLines(Files.readString(results));
        assertThat(lines).extracting(line -> line.path("id").asText()).containsExactly("q-react", "q-sqlite", "q-state", "q-none");
        assertThat(keys(lines.get(0))).containsExactly("project:ui");
        assertThat(keys(lines.get(1))).containsExactlyInAnyOrder("project:db", "global:pref");
        assertThat(keys(lines.get(2))).hasSize(1);
        assertThat(lines.get(3).path("hits")).isEmpty();
        JsonNode hit = lines.get(0).path("hits").get(0);
        assertThat(hit.size()).isEqualTo(3);
        assertThat(hit.path("key").asText()).isEqualTo("ui");
        assertThat(hit.path("scope").asText()).isEqualTo("project");
        assertThat(hit.path("score").isNumber()).isTrue();
        assertThat(hit.path("score").asDouble()).isPositive().isLessThanOrEqualTo(1.0);
        assertThat(lines.get(0).size()).isEqualTo(2);
    }

    @Test
    void without_out_the_results_go_to_stdout_and_options_are_the_defaults() {
        queries("{\"id\": \"1\", \"text\": \"sqlite\"}", "{\"id\": \"2\", \"text\": \"sqlite\", \"scope\": \"global\"}");
        CliHarness.Result result = cli.ok("search", "--batch", queries.toString(), "--scope", "project", "--scope", "global");
        List<JsonNode> lines = parseLines(result.out());
        assertThat(keys(lines.get(0))).containsExactlyInAnyOrder("project:db", "global:pref");
        assertThat(keys(lines.get(1))).containsExactly("global:pref");
    }

    @Test
    void queries_can_come_from_stdin() {
        CliHarness.Result result = cli.runWithStdin("{\"id\": \"s\", \"text\": \"react\"}\n", "search", "--batch", "-");
        assertThat(result.exitCode()).as(result.toString()).isZero();
        assertThat(keys(parseLines(result.out()).get(0))).containsExactly("project:ui");
    }

    @Test
    void a_malformed_line_exits_2_with_its_line_number_and_writes_no_output() {
        queries("{\"id\": \"1\", \"text\": \"sqlite\"}", "{\"id\": \"2\", \"text\": \"react\"}", "{\"id\": \"3\", \"text\": ");
        CliHarness.Result result = cli.run("search", "--batch", queries.toString(), "--out", results.toString());
        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).contains("queries.jsonl:3:").contains("not valid JSON");
        assertThat(result.out()).isEmpty();
        assertThat(results).doesNotExist();
        assertThat(results.getParent()).doesNotExist();
    }

    @Test
    void an_unknown_field_is_rejected_with_its_line_number_and_a_suggestion() {
        queries("{\"id\": \"1\", \"text\": \"sqlite\"}", "{\"id\": \"2\", \"text\": \"react\", \"limt\": 3}");
        CliHarness.Result result = cli.run("search", "--batch", queries.toString());
        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).contains("queries.jsonl:2: unknown field 'limt'. Did you mean 'limit'?");
        assertThat(result.out()).isEmpty();
    }

    @Test
    void every_malformed_kind_of_line_is_refused_with_its_line_number() {
        String[] bad = {
            "[1, 2]",
            "{\"text\": \"no id\"}",
            "{\"id\": \"x\"}",
            "{\"id\": 7, \"text\": \"numeric id\"}",
            "{\"id\": \"x\", \"text\": \"   \"}",
            "{\"id\": \"x\", \"text\": \"t\", \"scope\": \"galaxy\"}",
            "{\"id\": \"x\", \"text\": \"t\", \"scope\": \"project\", \"scopes\": [\"global\"]}",
            "{\"id\": \"x\", \"text\": \"t\", \"limit\": 0}",
            "{\"id\": \"x\", \"text\": \"t\", \"limit\": 2.5}",
            "{\"id\": \"x\", \"text\": \"t\", \"mode\": \"fuzzy\"}",
            "{\"id\": \"x\", \"text\": \"t\", \"threshold\": \"high\"}",
            "{\"id\": \"x\", \"text\": \"t\", \"id\": \"y\"}",
            "{\"id\": \"x\", \"text\": \"t\", \"relevant\": []}",
            "{\"id\": \"x\", \"text\": \"t\", \"relevant\": \"db\"}",
            "{\"id\": \"x\", \"text\": \"t\", \"relevant\": [1]}",
        };
        for (String line : bad) {
            queries("{\"id\": \"fine\", \"text\": \"sqlite\"}", line);
            CliHarness.Result result = cli.run("search", "--batch", queries.toString(), "--out", results.toString());
            assertThat(result.exitCode()).as(line + "\n" + result).isEqualTo(ExitCodes.USAGE);
            assertThat(result.err()).as(line).contains("queries.jsonl:2: ");
            assertThat(results).as(line).doesNotExist();
        }
    }

    @Test
    void labelled_queries_get_their_recall_and_the_mean_recall_goes_to_stderr() throws IOException {
        queries("{\"id\": \"both\", \"text\": \"sqlite\", \"scopes\": [\"project\", \"global\"], \"relevant\": [\"db\", \"pref\"]}",
                "{\"id\": \"half\", \"text\": \"sqlite\", \"relevant\": [\"db\", \"ci\"]}",
                "{\"id\": \"none\", \"text\": \"react\", \"relevant\": [\"db\"]}",
                "{\"id\": \"unlabelled\", \"text\": \"react\"}");
        CliHarness.Result result = cli.ok("search", "--batch", queries.toString(), "--out", results.toString());
        List<JsonNode> lines = parseLines(Files.readString(results));
        assertThat(lines.get(0).path("recall").asDouble()).isEqualTo(1.0);
        assertThat(lines.get(1).path("recall").asDouble()).isEqualTo(0.5);
        assertThat(lines.get(2).path("recall").asDouble()).isEqualTo(0.0);
        assertThat(lines.get(3).has("recall")).isFalse();
        assertThat(result.err()).contains("Mean recall over 3 labelled queries: 0.500");
    }

    @Test
    void a_batch_without_labels_prints_no_recall() {
        queries("{\"id\": \"1\", \"text\": \"sqlite\"}");
        assertThat(cli.ok("search", "--batch", queries.toString()).err()).doesNotContain("recall");
    }

    @Test
    void a_repeated_id_is_refused() {
        queries("{\"id\": \"a\", \"text\": \"sqlite\"}", "{\"id\": \"a\", \"text\": \"react\"}");
        CliHarness.Result result = cli.run("search", "--batch", queries.toString());
        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).contains("queries.jsonl:2: the id 'a' was already used on line 1");
    }

    @Test
    void a_semantic_query_on_a_provider_without_semantic_search_exits_5_before_any_search_or_output() {
        queries("{\"id\": \"1\", \"text\": \"sqlite\"}", "{\"id\": \"2\", \"text\": \"react\", \"mode\": \"hybrid\"}");
        CliHarness.Result result = cli.run("search", "--batch", queries.toString(), "--out", results.toString());
        assertThat(result.exitCode()).isEqualTo(ExitCodes.UNSUPPORTED);
        assertThat(results).doesNotExist();
    }

    @Test
    void text_and_batch_together_or_out_without_batch_exit_2() {
        queries("{\"id\": \"1\", \"text\": \"sqlite\"}");
        assertThat(cli.run("search", "sqlite", "--batch", queries.toString()).exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.run("search", "sqlite", "--out", results.toString()).exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.run("search").exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.run("search", "--batch", root.resolve("missing.jsonl").toString()).err()).contains("does not exist");
    }

    @Test
    void an_existing_out_file_is_replaced_whole() throws IOException {
        cli.write(results, "old content\n");
        queries("{\"id\": \"1\", \"text\": \"sqlite\"}");
        cli.ok("search", "--batch", queries.toString(), "--out", results.toString());
        assertThat(Files.readAllLines(results)).hasSize(1).allMatch(line -> line.startsWith("{\"id\":\"1\""));
        try (var files = Files.list(results.getParent())) {
            assertThat(files).hasSize(1);
        }
    }
}
