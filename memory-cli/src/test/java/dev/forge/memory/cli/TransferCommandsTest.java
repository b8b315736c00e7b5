package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** export, import and migrate as a person runs them: files, stdout, summaries, progress, exit codes. */
class TransferCommandsTest {

    private CliHarness cli;
    private Path root;

    @BeforeEach
    void setUp(@TempDir Path root) {
        this.root = root;
        cli = new CliHarness(root);
        cli.ok("set", "decision:db", "SQLite it is.", "--tag", "decision");
        cli.ok("set", "decision:db", "SQLite it is, WAL mode.", "--tag", "decision");
        cli.ok("set", "style", "Short answers.", "--scope", "global");
        cli.ok("set", "task", "Writing the importer.", "--scope", "session");
    }

    @Test
    void export_to_a_file_and_import_into_another_store_keeps_versions_and_history() throws IOException {
        Path file = root.resolve("memories.json");
        CliHarness.Result exported = cli.ok("export", "--out", file.toString(), "--json", "--no-progress");
        JsonNode summary = exported.json();
        assertThat(summary.path("entries").path("project").asInt()).isEqualTo(1);
        assertThat(summary.path("history_versions").asInt()).isEqualTo(1);
        assertThat(summary.path("format").asText()).isEqualTo("json");
        JsonNode document = Json.MAPPER.readTree(file.toFile());
        assertThat(document.path("format").asText()).isEqualTo("forge-memory");
        assertThat(document.path("project").asText()).isEqualTo("my-project");
        assertThat(root.toFile().list()).noneMatch(n -> n.endsWith(".partial"));

        JsonNode imported = cli.ok("--memory-provider", "sqlite", "import", file.toString(), "--json", "--no-progress").json();

        assertThat(imported.path("provider").asText()).isEqualTo("sqlite");
        assertThat(imported.path("created").asInt()).isEqualTo(3);
        assertThat(imported.path("history_versions").asInt()).isEqualTo(1);
        assertThat(imported.path("lossless").asBoolean()).isTrue();
        JsonNode original = cli.ok("get", "decision:db", "--json").json();
        JsonNode copy = cli.ok("--memory-provider", "sqlite", "get", "decision:db", "--json").json();
        assertThat(copy).isEqualTo(original);
        assertThat(cli.ok("--memory-provider", "sqlite", "history", "decision:db", "--json").json().path("versions"))
                .isEqualTo(cli.ok("history", "decision:db", "--json").json().path("versions"));
    }

    @Test
    void export_to_stdout_as_json_lines_and_import_from_stdin() {
        CliHarness.Result exported = cli.ok("export", "--format", "jsonl", "--scope", "project", "--no-progress");
        List<String> lines = Arrays.asList(exported.out().split("\n"));
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).contains("\"format\":\"forge-memory\"");
        assertThat(lines.get(1)).contains("\"kind\":\"entry\"").contains("decision:db");
        assertThat(exported.err()).contains("Exported 1 entry, 1 earlier version, 0 relations");

        CliHarness.Result imported = cli.runWithStdin(exported.out(), "--memory-provider", "sqlite", "import", "-",
                "--format", "jsonl", "--no-progress");

        assertThat(imported.exitCode()).as(imported.toString()).isZero();
        assertThat(imported.out()).startsWith("Imported 1 entry from stdin into 'sqlite': 1 created");
    }

    @Test
    void importing_twice_changes_nothing_and_says_so() {
        Path file = root.resolve("memories.jsonl");
        cli.ok("export", "--out", file.toString(), "--no-progress");
        cli.ok("--memory-provider", "sqlite", "import", file.toString(), "--no-progress");

        CliHarness.Result again = cli.ok("--memory-provider", "sqlite", "import", file.toString());

        assertThat(again.out()).contains("0 created, 0 overwritten, 3 unchanged");
        assertThat(again.err()).as("a progress bar per phase on stderr").contains("Checking").contains("Importing").contains("3/3");
    }

    @Test
    void a_truncated_file_exits_7_names_the_line_and_imports_nothing() throws IOException {
        Path file = root.resolve("memories.jsonl");
        cli.ok("export", "--out", file.toString(), "--no-progress");
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length - 30));

        CliHarness.Result failed = cli.fails(ExitCodes.INVALID_INPUT, "--memory-provider", "sqlite", "import", file.toString(), "--no-progress");

        assertThat(failed.err()).contains("line 4").contains("truncated").contains("Nothing was imported").contains("--skip-invalid");
        assertThat(cli.ok("--memory-provider", "sqlite", "query", "*", "--json").json().path("entries")).isEmpty();

        CliHarness.Result skipped = cli.ok("--memory-provider", "sqlite", "import", file.toString(), "--skip-invalid", "--no-progress");
        assertThat(skipped.out()).contains("Skipped line 4:").contains("Not kept: 1 invalid record(s), skipped.");
        assertThat(cli.ok("--memory-provider", "sqlite", "query", "*", "--json").json().path("entries")).hasSize(1);
        assertThat(cli.ok("--memory-provider", "sqlite", "get", "task", "--scope", "session").out()).isEqualTo("Writing the importer.\n");
        assertThat(cli.run("--memory-provider", "sqlite", "get", "style", "--scope", "global").exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
    }

    @Test
    void versions_and_times_no_store_can_hold_exit_7_on_every_file_provider_and_import_nothing() throws IOException {
        Path file = root.resolve("memories.jsonl");
        cli.ok("export", "--out", file.toString(), "--no-progress");
        String entry = "{\"kind\":\"entry\",\"key\":\"%s\",\"value\":\"v\",\"scope\":\"project\",\"created_at\":\"%s\","
                + "\"updated_at\":\"%s\",\"version\":%s}\n";
        Files.writeString(file, String.format(entry, "year-minus-999999999", "-999999999-01-01T00:00:00Z", "2026-01-01T00:00:00Z", 1)
                + String.format(entry, "version-long-max", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z", Long.MAX_VALUE),
                StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);

        for (String provider : List.of("sqlite", "markdown", "file")) {
            CliHarness target = new CliHarness(Files.createDirectories(root.resolve(provider + "-target")));

            CliHarness.Result failed = target.fails(ExitCodes.INVALID_INPUT, "--memory-provider", provider, "import",
                    file.toString(), "--no-progress");

            assertThat(failed.err()).as(provider).contains("2 invalid record(s)").contains("line 5")
                    .contains("-999999999-01-01T00:00:00Z").contains("Nothing was imported");
            assertThat(target.ok("--memory-provider", provider, "query", "*", "--json").json().path("entries")).as(provider).isEmpty();
        }
    }

    @Test
    void hand_edited_chains_name_their_key_and_line_and_stop_nothing_but_themselves_with_skip_invalid() throws IOException {
        String version = "{\"value\": \"%s\", \"created_at\": \"2026-01-01T00:00:00Z\", \"updated_at\": \"%s\", \"version\": %d}";
        String entry = "{\"key\": \"%s\", \"value\": \"current\", \"created_at\": \"2026-01-01T00:00:00Z\", "
                + "\"updated_at\": \"%s\", \"version\": %d, \"history\": [%s]}";
        Path file = Files.writeString(root.resolve("hand-edited.json"), String.join("\n",
                "{\"format\": \"forge-memory\", \"version\": \"1.0\", \"scopes\": {\"project\": [",
                String.format(entry, "fine", "2026-01-03T00:00:00Z", 2, String.format(version, "old", "2026-01-02T00:00:00Z", 1)) + ",",
                String.format(entry, "twice-one", "2026-01-03T00:00:00Z", 1, String.format(version, "old", "2026-01-02T00:00:00Z", 1)) + ",",
                String.format(entry, "back-in-time", "2026-01-02T00:00:00Z", 2, String.format(version, "old", "2026-01-05T00:00:00Z", 1)),
                "]}}"), StandardCharsets.UTF_8);
        CliHarness target = new CliHarness(Files.createDirectories(root.resolve("target")));

        CliHarness.Result refused = target.fails(ExitCodes.INVALID_INPUT, "import", file.toString(), "--no-progress");

        assertThat(refused.err()).contains("2 invalid record(s)").contains("line 3").contains("'twice-one'")
                .contains("Nothing was imported").contains("--skip-invalid");
        assertThat(target.ok("query", "*", "--json").json().path("entries")).isEmpty();

        JsonNode skipped = target.ok("import", file.toString(), "--skip-invalid", "--json", "--no-progress").json();

        assertThat(skipped.path("created").asInt()).isEqualTo(1);
        assertThat(skipped.path("invalid")).extracting(p -> p.path("message").asText())
                .anySatisfy(m -> assertThat(m).contains("'twice-one'").contains("increase"))
                .anySatisfy(m -> assertThat(m).contains("'back-in-time'").contains("back in time"));
        assertThat(skipped.path("lossless").asBoolean()).isFalse();
        assertThat(target.ok("get", "fine").out()).isEqualTo("current\n");
    }

    @Test
    void a_file_that_is_not_an_export_exits_7() throws IOException {
        Path file = Files.writeString(root.resolve("other.json"), "{\"entities\": []}", StandardCharsets.UTF_8);
        assertThat(cli.fails(ExitCodes.INVALID_INPUT, "import", file.toString()).err()).contains("unknown field 'entities'");
        assertThat(cli.fails(ExitCodes.USAGE, "import", file.toString(), "--on-conflict", "maybe").err())
                .contains("overwrite, skip or newer");
    }

    @Test
    void conflict_policy_skip_keeps_what_the_target_has() {
        Path file = root.resolve("memories.json");
        cli.ok("export", "--out", file.toString(), "--no-progress");
        cli.ok("set", "decision:db", "Changed after the export.");

        CliHarness.Result result = cli.ok("import", file.toString(), "--on-conflict", "skip", "--json", "--no-progress");

        assertThat(result.json().path("skipped").asInt()).isEqualTo(3);
        assertThat(cli.ok("get", "decision:db").out()).isEqualTo("Changed after the export.\n");
    }

    @Test
    void migrate_copies_everything_into_another_provider_with_versions_and_timestamps() {
        JsonNode before = cli.ok("get", "decision:db", "--json").json();

        JsonNode result = cli.ok("migrate", "--to-provider", "sqlite", "--json", "--no-progress").json();

        assertThat(result.path("created").asInt()).isEqualTo(3);
        assertThat(result.path("lossless").asBoolean()).isTrue();
        assertThat(cli.ok("--memory-provider", "sqlite", "get", "decision:db", "--json").json()).isEqualTo(before);
        assertThat(cli.ok("--memory-provider", "sqlite", "get", "task", "--scope", "session").out()).isEqualTo("Writing the importer.\n");
        assertThat(cli.ok("get", "decision:db", "--json").json()).as("the source is unchanged").isEqualTo(before);
    }

    @Test
    void migrate_into_the_source_itself_is_refused() {
        assertThat(cli.fails(ExitCodes.USAGE, "migrate", "--to-provider", "markdown").err()).contains("the source itself");
        assertThat(cli.fails(ExitCodes.CONFIGURATION, "migrate", "--to-provider", "nosuch").err()).contains("nosuch");
    }

    @Test
    void an_export_into_a_missing_directory_exits_4_and_writes_nothing() {
        Path file = root.resolve("missing").resolve("memories.json");
        assertThat(cli.fails(ExitCodes.BACKEND, "export", "--out", file.toString()).err()).contains(file.toString());
        assertThat(root.resolve("missing")).doesNotExist();
    }
}
