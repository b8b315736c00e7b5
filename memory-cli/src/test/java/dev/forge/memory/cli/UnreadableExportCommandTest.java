package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code export} of a store holding entries that cannot be read: the readable ones are written, the summary names what
 * was left out and says "Not exported", and the exit code is 6 (problems in the stored data), so that a script taking a
 * backup notices; a healthy store still exports with exit 0.
 */
class UnreadableExportCommandTest {

    private CliHarness cli;

    @BeforeEach
    void setUp(@TempDir Path root) {
        cli = new CliHarness(root);
    }

    @Test
    void a_sqlite_row_that_cannot_be_read_is_named_and_the_export_exits_6() throws Exception {
        for (int i = 0; i < 5; i++) {
            cli.ok("--memory-provider", "sqlite", "set", "k" + i, "memory " + i);
        }
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + cli.project.resolve(".forge/memory.db"));
             Statement statement = raw.createStatement()) {
            statement.execute("UPDATE entries SET metadata = '{\"a\":1,\"a\":2}' WHERE key = 'k2'");
        }
        Path file = cli.root.resolve("backup.jsonl");

        CliHarness.Result text = cli.run("--memory-provider", "sqlite", "export", "--out", file.toString(), "--no-progress");

        assertThat(text.exitCode()).as(text.toString()).isEqualTo(ExitCodes.PROBLEMS_FOUND);
        assertThat(text.err()).as(text.toString()).contains("Exported 4 entries")
                .contains("Skipped entry project:k2: ").contains("cannot be read")
                .contains("Not exported: 1 stored entry that cannot be read");
        assertThat(Files.readAllLines(file)).hasSize(5).noneMatch(line -> line.contains("\"k2\""));

        CliHarness.Result json = cli.run("--memory-provider", "sqlite", "export", "--out", file.toString(), "--json",
                "--no-progress");

        assertThat(json.exitCode()).as(json.toString()).isEqualTo(ExitCodes.PROBLEMS_FOUND);
        JsonNode summary = json.json();
        assertThat(summary.path("unreadable_skipped").asInt()).isEqualTo(1);
        assertThat(summary.path("unreadable").get(0).path("location").asText()).isEqualTo("entry project:k2");
        assertThat(summary.path("lossless").asBoolean()).isFalse();
        assertThat(summary.path("losses")).hasSize(1);
    }

    @Test
    void a_markdown_file_that_cannot_be_read_is_reported_from_the_doctor_and_the_export_exits_6() {
        cli.ok("set", "good", "a readable memory");
        Path broken = cli.write(cli.project.resolve(".forge/memory/mem_0b9d6c1e-3f4a-4c2b-9d1e-5a6b7c8d9e0f.md"),
                "---\nkey: [unclosed\n---\nbody\n");

        CliHarness.Result result = cli.run("export", "--out", cli.root.resolve("backup.json").toString(), "--json",
                "--no-progress");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.PROBLEMS_FOUND);
        JsonNode summary = result.json();
        assertThat(summary.path("entries").path("project").asInt()).isEqualTo(1);
        assertThat(summary.path("source_problems").get(0).path("location").asText()).isEqualTo(broken.toString());
        assertThat(summary.path("lossless").asBoolean()).isFalse();
    }

    @Test
    void a_healthy_store_exports_losslessly_with_exit_0() {
        cli.ok("set", "good", "a readable memory");
        JsonNode summary = cli.ok("export", "--out", cli.root.resolve("backup.json").toString(), "--json",
                "--no-progress").json();
        assertThat(summary.path("lossless").asBoolean()).isTrue();
        assertThat(summary.path("losses")).isEmpty();
        assertThat(summary.path("unreadable_skipped").asInt()).isZero();
    }
}
