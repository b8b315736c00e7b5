package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every command's happy path on the built-in default provider (markdown here), in text and in JSON. */
class CommandsTest {

    private static final String ISO_INSTANT = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z";

    private CliHarness cli;

    @BeforeEach
    void setUp(@TempDir Path root) {
        cli = new CliHarness(root);
    }

    private JsonNode json(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--json");
        return cli.ok(all.toArray(String[]::new)).json();
    }

    /** query --json: one object whose "entries" is the list, and nothing else. */
    private JsonNode entries(String... args) {
        JsonNode document = json(args);
        assertThat(document.isObject()).as(document.toString()).isTrue();
        assertThat(document.size()).isEqualTo(1);
        assertThat(document.path("entries").isArray()).as(document.toString()).isTrue();
        return document.path("entries");
    }

    private static List<String> texts(JsonNode array, String field) {
        List<String> texts = new ArrayList<>();
        array.forEach(node -> texts.add(field.isEmpty() ? node.asText() : node.path(field).asText()));
        return texts;
    }

    @Test
    void set_then_get_prints_the_value() {
        assertThat(cli.ok("set", "greeting", "hello world").out()).isEqualTo("Stored project:greeting (version 1).\n");
        assertThat(cli.ok("get", "greeting").out()).isEqualTo("hello world\n");
    }

    /** The README's first command stores and finds a memory, and prints the line the README says it prints. */
    @Test
    void the_readme_first_command_prints_what_the_readme_says() throws java.io.IOException {
        String readme = java.nio.file.Files.readString(java.nio.file.Path.of("..", "README.md"));
        java.util.regex.Matcher said = java.util.regex.Pattern.compile("prints\\s+`([^`]+)`").matcher(readme);
        assertThat(said.find()).as("README names the line the first command prints").isTrue();
        cli.ok("set", "greeting", "hello world");
        assertThat(cli.ok("search", "hello").out()).isEqualTo(said.group(1) + "\n");
    }

    @Test
    void get_prints_a_value_that_ends_with_a_newline_verbatim() {
        cli.ok("set", "k", "two\nlines\n");
        assertThat(cli.ok("get", "k").out()).isEqualTo("two\nlines\n");
    }

    @Test
    void set_json_prints_the_stored_entry_with_every_field() {
        JsonNode entry = json("set", "decision:db", "We use SQLite.", "--tag", "architecture", "--tag", "db",
                "--meta", "by=ana", "--meta-json", "priority=2", "--meta-json", "reviewed=true",
                "--meta-json", "links=[\"a\",\"b\"]", "--meta", "count=3");
        assertThat(entry.path("key").asText()).isEqualTo("decision:db");
        assertThat(entry.path("value").asText()).isEqualTo("We use SQLite.");
        assertThat(entry.path("scope").asText()).isEqualTo("project");
        assertThat(texts(entry.path("tags"), "")).containsExactly("architecture", "db");
        JsonNode metadata = entry.path("metadata");
        assertThat(metadata.path("by").isTextual()).isTrue();
        assertThat(metadata.path("count").asText()).isEqualTo("3");
        assertThat(metadata.path("count").isTextual()).as("--meta values are strings").isTrue();
        assertThat(metadata.path("priority").isNumber()).isTrue();
        assertThat(metadata.path("priority").asInt()).isEqualTo(2);
        assertThat(metadata.path("reviewed").isBoolean()).isTrue();
        assertThat(texts(metadata.path("links"), "")).containsExactly("a", "b");
        assertThat(entry.path("createdAt").asText()).matches(ISO_INSTANT);
        assertThat(entry.path("updatedAt").asText()).matches(ISO_INSTANT);
        assertThat(entry.path("version").asLong()).isEqualTo(1);
        assertThat(entry.size()).isEqualTo(8);
    }

    @Test
    void get_json_prints_the_same_entry_set_stored() {
        JsonNode stored = json("set", "k", "v", "--tag", "t");
        assertThat(json("get", "k")).isEqualTo(stored);
    }

    @Test
    void overwriting_increments_the_version_and_keeps_created_at() {
        JsonNode first = json("set", "k", "one");
        JsonNode second = json("set", "k", "two");
        assertThat(second.path("version").asLong()).isEqualTo(2);
        assertThat(second.path("createdAt")).isEqualTo(first.path("createdAt"));
    }

    @Test
    void set_dash_reads_stdin_as_utf8_verbatim() {
        CliHarness.Result result = cli.runWithStdin("grüße ✓\nzweite Zeile\n", "set", "note", "-");
        assertThat(result.exitCode()).as(result.toString()).isZero();
        assertThat(json("get", "note").path("value").asText()).isEqualTo("grüße ✓\nzweite Zeile\n");
    }

    @Test
    void set_value_file_reads_the_file() throws Exception {
        Path file = Files.writeString(cli.root.resolve("value.md"), "# Title\n\nbody ✓");
        cli.ok("set", "doc", "--value-file", file.toString());
        assertThat(cli.ok("get", "doc").out()).isEqualTo("# Title\n\nbody ✓\n");
    }

    @Test
    void query_prints_one_line_per_entry_with_scope_key_version_and_time() {
        cli.ok("set", "user:ana", "A");
        cli.ok("set", "user:bob", "B");
        cli.ok("set", "user:bob", "B2");
        cli.ok("set", "team:core", "C");
        String out = cli.ok("query", "user:*").out();
        assertThat(out.lines().toList()).satisfiesExactly(
                line -> assertThat(line).matches("project user:ana \\(v1, updated " + ISO_INSTANT + "\\)"),
                line -> assertThat(line).matches("project user:bob \\(v2, updated " + ISO_INSTANT + "\\)"));
    }

    @Test
    void query_json_filters_orders_and_pages() {
        cli.ok("set", "a", "1", "--tag", "x");
        cli.ok("set", "b", "2", "--tag", "x");
        cli.ok("set", "c", "3");
        cli.ok("set", "g", "4", "--scope", "global", "--tag", "x");
        assertThat(texts(entries("query", "*"), "key")).containsExactly("a", "b", "c");
        assertThat(texts(entries("query", "*", "--tag", "x"), "key")).containsExactly("a", "b");
        assertThat(texts(entries("query", "tag:x", "--scope", "project", "--scope", "global"), "key")).containsExactly("a", "b", "g");
        assertThat(texts(entries("query", "--order", "key-desc", "--limit", "2"), "key")).containsExactly("c", "b");
        assertThat(texts(entries("query", "*", "--offset", "1", "--limit", "1"), "key")).containsExactly("b");
        assertThat(texts(entries("query", "*", "--order", "updated-desc"), "key")).containsExactly("c", "b", "a");
        JsonNode entry = entries("query", "a").get(0);
        assertThat(entry.path("value").asText()).isEqualTo("1");
        assertThat(entry.path("scope").asText()).isEqualTo("project");
    }

    @Test
    void query_without_matches_prints_nothing_on_stdout() {
        CliHarness.Result result = cli.ok("query", "nothing:*");
        assertThat(result.out()).isEmpty();
        assertThat(result.err()).contains("No entries match");
        assertThat(entries("query", "nothing:*")).isEmpty();
    }

    @Test
    void search_prints_score_scope_and_key_best_first() {
        cli.ok("set", "db", "We use SQLite for local state.");
        cli.ok("set", "ui", "The UI is written in React.");
        List<String> lines = cli.ok("search", "sqlite state").out().lines().toList();
        assertThat(lines).isNotEmpty();
        assertThat(lines.get(0)).matches("(0|1)\\.\\d{3} project db");
    }

    @Test
    void search_with_a_threshold_above_every_hit_says_the_best_score() {
        cli.ok("set", "db", "We use SQLite for local state.");
        double best = Double.parseDouble(cli.ok("search", "sqlite state").out().lines().findFirst().orElseThrow().split(" ")[0]);
        double above = Math.min(1.0, best + 0.0005);
        CliHarness.Result result = cli.ok("search", "sqlite state", "--threshold", String.valueOf(above));
        assertThat(result.out()).isEmpty();
        assertThat(result.err()).contains("No matches for 'sqlite state' at or above the threshold " + String.format(java.util.Locale.ROOT, "%.3f", above))
                .contains(String.format(java.util.Locale.ROOT, "the best score was %.3f (project db)", best))
                .contains("--threshold");
        assertThat(cli.ok("search", "nothing like it", "--threshold", "0.5").err()).doesNotContain("best score");
    }

    @Test
    void search_json_gives_key_scope_score_and_entry() {
        cli.ok("set", "db", "We use SQLite for local state.", "--tag", "architecture");
        cli.ok("set", "ui", "The UI is written in React.");
        JsonNode document = json("search", "sqlite", "--limit", "5", "--tag", "architecture");
        assertThat(document.isObject()).as("one JSON object, like the other commands").isTrue();
        assertThat(document.size()).isEqualTo(1);
        JsonNode hits = document.path("hits");
        assertThat(hits).hasSize(1);
        JsonNode hit = hits.get(0);
        assertThat(hit.path("key").asText()).isEqualTo("db");
        assertThat(hit.path("scope").asText()).isEqualTo("project");
        assertThat(hit.path("score").asDouble()).isBetween(0.0, 1.0).isPositive();
        assertThat(hit.path("entry").path("value").asText()).isEqualTo("We use SQLite for local state.");
        JsonNode none = json("search", "react", "--scope", "global");
        assertThat(none.isObject()).isTrue();
        assertThat(none.path("hits").isArray()).isTrue();
        assertThat(none.path("hits")).isEmpty();
    }

    @Test
    void delete_removes_the_entry() {
        cli.ok("set", "k", "v");
        assertThat(cli.ok("delete", "k").out()).isEqualTo("Deleted project:k.\n");
        assertThat(cli.run("get", "k").exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        cli.ok("set", "k2", "v", "--scope", "global");
        JsonNode deleted = json("delete", "k2", "--scope", "global");
        assertThat(deleted.path("deleted").asBoolean()).isTrue();
        assertThat(deleted.path("scope").asText()).isEqualTo("global");
    }

    @Test
    void clear_with_yes_removes_only_that_scope() {
        cli.ok("set", "a", "1");
        cli.ok("set", "b", "2");
        cli.ok("set", "g", "3", "--scope", "global");
        assertThat(cli.ok("clear", "--scope", "project", "--yes").out()).isEqualTo("Removed 2 entries from scope project.\n");
        assertThat(entries("query", "*")).isEmpty();
        cli.ok("get", "g", "--scope", "global");
        JsonNode cleared = json("clear", "--scope", "global", "--yes");
        assertThat(cleared.path("removed").asInt()).isEqualTo(1);
        assertThat(cleared.path("scope").asText()).isEqualTo("global");
    }

    @Test
    void relate_and_traverse_follow_typed_relations() {
        cli.ok("set", "service", "S");
        cli.ok("set", "db", "D");
        cli.ok("set", "backup", "B", "--scope", "global");
        assertThat(cli.ok("relate", "service", "db", "USES").out()).isEqualTo("project:service -[USES]-> project:db\n");
        JsonNode relation = json("relate", "db", "backup", "BACKED_UP_BY", "--to-scope", "global");
        assertThat(relation.path("from").path("key").asText()).isEqualTo("db");
        assertThat(relation.path("to").path("scope").asText()).isEqualTo("global");
        assertThat(relation.path("type").asText()).isEqualTo("BACKED_UP_BY");
        assertThat(relation.path("createdAt").asText()).matches(ISO_INSTANT);

        assertThat(cli.ok("traverse", "service").out().lines().toList()).containsExactly(
                "project:service -[USES]-> project:db",
                "project:service -[USES]-> project:db -[BACKED_UP_BY]-> global:backup");
        assertThat(cli.ok("traverse", "service", "--depth", "1").out().lines().toList())
                .containsExactly("project:service -[USES]-> project:db");
        assertThat(cli.ok("traverse", "service", "BACKED_UP_BY").out()).isEmpty();
        assertThat(cli.ok("traverse", "backup", "--scope", "global", "--direction", "incoming").out().lines().toList())
                .containsExactly("global:backup <-[BACKED_UP_BY]- project:db",
                        "global:backup <-[BACKED_UP_BY]- project:db <-[USES]- project:service");

        JsonNode traversal = json("traverse", "service", "USES", "BACKED_UP_BY", "--depth", "3");
        assertThat(traversal.path("start").path("key").asText()).isEqualTo("service");
        JsonNode paths = traversal.path("paths");
        assertThat(paths).hasSize(2);
        assertThat(paths.get(1).path("end").path("key").asText()).isEqualTo("backup");
        assertThat(paths.get(1).path("length").asInt()).isEqualTo(2);
        assertThat(texts(paths.get(1).path("relations"), "type")).containsExactly("USES", "BACKED_UP_BY");
    }

    @Test
    void history_lists_every_version_oldest_first() {
        cli.ok("set", "k", "first version");
        cli.ok("set", "k", "second version\nwith a second line");
        List<String> lines = cli.ok("history", "k").out().lines().toList();
        assertThat(lines).satisfiesExactly(
                line -> assertThat(line).matches("v1 " + ISO_INSTANT + " first version"),
                line -> assertThat(line).matches("v2 " + ISO_INSTANT + " second version"));
        JsonNode history = json("history", "k");
        assertThat(history.isObject()).isTrue();
        assertThat(history.path("key").asText()).isEqualTo("k");
        assertThat(history.path("scope").asText()).isEqualTo("project");
        JsonNode versions = history.path("versions");
        assertThat(texts(versions, "version")).containsExactly("1", "2");
        assertThat(versions.get(1).path("value").asText()).isEqualTo("second version\nwith a second line");
    }

    @Test
    void session_entries_survive_across_calls_with_the_same_session() {
        cli.ok("--session", "s-1", "set", "scratch", "work in progress", "--scope", "session");
        assertThat(cli.ok("--session", "s-1", "get", "scratch", "--scope", "session").out()).isEqualTo("work in progress\n");
        assertThat(cli.run("--session", "s-2", "get", "scratch", "--scope", "session").exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
    }

    @Test
    void session_entries_use_forge_session_id_then_cli_by_default() {
        cli.ok("set", "scratch", "default session", "--scope", "session");
        assertThat(cli.ok("get", "scratch", "--scope", "session").out()).isEqualTo("default session\n");
        assertThat(cli.ok("--session", "cli", "get", "scratch", "--scope", "session").out()).isEqualTo("default session\n");
        cli.env.put("FORGE_SESSION_ID", "agent-7");
        assertThat(cli.run("get", "scratch", "--scope", "session").exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        cli.ok("set", "scratch", "agent session", "--scope", "session");
        assertThat(cli.ok("--session", "agent-7", "get", "scratch", "--scope", "session").out()).isEqualTo("agent session\n");
    }

    @Test
    void providers_lists_name_capabilities_description_and_module() {
        String out = cli.ok("providers").out();
        assertThat(out).containsPattern("(?m)^file\\s+keyword_search, graph, transactions, history, restore$")
                .containsPattern("(?m)^in-memory\\s+keyword_search, graph, transactions, history, restore$")
                .containsPattern("(?m)^markdown\\s+keyword_search, graph, history, tombstones, restore$")
                .containsPattern("(?m)^vector\\s+keyword_search, semantic_search, reindex, restore$")
                .contains("module: ").doesNotContain("Problems:");
        JsonNode providers = json("providers");
        assertThat(texts(providers.path("providers"), "name")).containsExactly("file", "hybrid", "in-memory", "markdown", "postgres", "relational", "sqlite", "vector");
        JsonNode file = providers.path("providers").get(0);
        assertThat(texts(file.path("capabilities"), "")).containsExactly("keyword_search", "graph", "transactions", "history", "restore");
        assertThat(file.path("description").asText()).contains("JSON file per memory");
        assertThat(file.path("module").asText()).contains("provider-file");
        assertThat(providers.path("providers").get(1).path("module").asText()).contains("provider-hybrid");
        assertThat(providers.path("providers").get(2).path("module").asText()).contains("memory-runtime");
        assertThat(providers.path("providers").get(3).path("module").asText()).contains("provider-markdown");
        assertThat(providers.path("problems")).isEmpty();
    }

    @Test
    void config_prints_the_resolution_in_text() {
        String out = cli.ok("config").out();
        assertThat(out).as(out).contains("provider: markdown    (from built-in default")
                .contains("project:  my-project    (from project directory name)")
                .contains("files read: none")
                .contains("session:  cli    (from default)")
                .contains("providers found: file, hybrid, in-memory, markdown");
    }

    @Test
    void every_json_output_is_one_object() {
        List<List<String>> commands = List.of(
                List.of("providers"), List.of("config"), List.of("set", "a", "alpha"), List.of("set", "b", "beta"),
                List.of("get", "a"), List.of("query"), List.of("search", "alpha"), List.of("relate", "a", "b", "USES"),
                List.of("traverse", "a"), List.of("history", "a"), List.of("delete", "b"), List.of("history", "b"),
                List.of("purge", "b"), List.of("doctor"), List.of("clear", "--scope", "project", "--yes"),
                List.of("purge", "--all", "--scope", "project", "--yes"), List.of("init"));
        for (List<String> command : commands) {
            JsonNode document = json(command.toArray(String[]::new));
            assertThat(document.isObject()).as(command + " --json printed " + document).isTrue();
        }
    }

    @Test
    void timestamps_are_iso_8601_instants() {
        Instant before = Instant.now().minusSeconds(1);
        JsonNode entry = json("set", "k", "v");
        assertThat(Instant.parse(entry.path("updatedAt").asText())).isAfter(before);
    }

    @Test
    void help_and_version_exit_0_and_no_subcommand_exits_2_with_usage() {
        CliHarness.Result help = cli.ok("--help");
        assertThat(help.out()).contains("Usage: forge-memory").contains("Exit codes:").contains("FORGE_SESSION_ID")
                .contains("unset ${VAR}").contains("126").containsPattern("(?m)^\\s+4\\s+backend or I/O")
                .contains("JSON Lines").contains("one line on stderr");
        assertThat(cli.ok("set", "--help").out()).contains("--value-file");
        assertThat(cli.ok("--version").out()).startsWith("forge-memory ");
        CliHarness.Result none = cli.run();
        assertThat(none.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(none.err()).contains("Usage: forge-memory");
    }
}
