package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 004's export and import ("Migration Between Providers") through the command line: its export file (a verbatim
 * fixture) imports into the default provider, with what was defaulted said in the summary; and {@code migrate}
 * accepts the {@code --skip-invalid} its error suggests.
 */
class SeedTransferCommandsTest {

    private CliHarness cli;
    private Path root;

    @BeforeEach
    void setUp(@TempDir Path root) {
        this.root = root;
        cli = new CliHarness(root);
    }

    private Path seedExport(String name) throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/seeds/seed-004-export.json")) {
            Path file = root.resolve(name);
            Files.copy(in, file);
            return file;
        }
    }

    @Test
    void the_seeds_export_file_imports_into_the_default_provider_and_the_summary_names_the_defaults() throws IOException {
        Path file = seedExport("memory-export.txt");

        CliHarness.Result text = cli.ok("import", file.toString(), "--no-progress");

        assertThat(text.out()).contains("Imported 6 entries").contains("6 created")
                .contains("Defaulted (not in the input): created_at in 6 version(s), version in 6 version(s).");
        JsonNode decision = cli.ok("get", "decision:auth-strategy", "--json").json();
        assertThat(decision.path("value").asText()).isEqualTo("Using JWT with refresh tokens because...");
        assertThat(decision.path("updatedAt").asText()).startsWith("2024-11-27T09:33:30");
        assertThat(cli.ok("get", "learning:async-file-io", "--scope", "global").out())
                .isEqualTo("Always use aiofiles for async file operations. Regular open() blocks.\n");
        assertThat(cli.ok("get", "current_task", "--scope", "session").out()).isEqualTo("Implementing user authentication\n");

        JsonNode again = cli.ok("import", file.toString(), "--json", "--no-progress").json();
        assertThat(again.path("unchanged").asInt()).isEqualTo(6);
        assertThat(again.path("defaulted").path("version").asInt()).isEqualTo(6);
        assertThat(again.path("lossless").asBoolean()).isTrue();
    }

    @Test
    void the_seeds_export_file_imports_from_stdin_without_a_format_option() throws IOException {
        String document = Files.readString(seedExport("seed.json"));

        CliHarness.Result imported = cli.runWithStdin(document, "--memory-provider", "sqlite", "import", "-", "--no-progress");

        assertThat(imported.exitCode()).as(imported.toString()).isZero();
        assertThat(cli.ok("--memory-provider", "sqlite", "query", "decision:*", "--json").json().path("entries")).hasSize(2);
    }

    @Test
    void migrate_takes_the_skip_invalid_its_error_suggests() throws IOException {
        cli.ok("set", "small", "fits anywhere");
        cli.ok("set", "large", "x".repeat(4000));
        Path config = Files.writeString(root.resolve("small-files.yaml"), "memory:\n  provider: file\n  config:\n"
                + "    base_path: " + root.resolve("small-store") + "\n    max_file_size: 2KB\n");

        CliHarness.Result refused = cli.fails(ExitCodes.INVALID_INPUT, "migrate", "--to-provider", "file", "--to-config",
                config.toString(), "--no-progress");
        assertThat(refused.err()).contains("large").contains("Nothing was imported").contains("--skip-invalid");

        CliHarness.Result migrated = cli.ok("migrate", "--to-provider", "file", "--to-config", config.toString(),
                "--skip-invalid", "--no-progress");

        assertThat(migrated.out()).contains("1 created").contains("Skipped entry project:large");
        assertThat(cli.ok("--memory-config", config.toString(), "get", "small").out()).isEqualTo("fits anywhere\n");
    }
}
