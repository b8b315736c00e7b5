package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.forge.memory.config.ConfigSource.Kind;
import dev.forge.memory.config.Memories;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which provider and settings a call uses, seen two ways: in {@code config --json} and in where {@code set}
 * writes. Every file below selects the file provider with its own {@code base_path}, so the store directory tells
 * which source won; with no file at all, the built-in default (markdown) writes under {@code .forge/memory}.
 */
class ConfigPrecedenceTest {

    private CliHarness cli;

    @BeforeEach
    void setUp(@TempDir Path root) {
        cli = new CliHarness(root);
    }

    private JsonNode config(String... options) {
        String[] args = Stream.concat(Stream.of(options), Stream.of("config", "--json")).toArray(String[]::new);
        return cli.ok(args).json();
    }

    private void set(String... options) {
        String[] args = Stream.concat(Stream.of(options), Stream.of("set", "greeting", "hello")).toArray(String[]::new);
        cli.ok(args);
    }

    /**
     * Whether the store under {@code directory} (relative to the project) holds the entry "greeting": a file named
     * after it (the file provider's {@code greeting.json}) or one whose text names it (the markdown provider's
     * {@code mem_<id>.md}, whose front-matter holds {@code key: greeting}).
     */
    private boolean storeHoldsGreeting(String directory) {
        Path store = cli.project.resolve(directory);
        if (!Files.isDirectory(store)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(store)) {
            return files.filter(Files::isRegularFile).anyMatch(f -> f.getFileName().toString().startsWith("greeting.json")
                    || new String(read(f), StandardCharsets.UTF_8).contains("key: greeting\n"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String fileProvider(String basePath) {
        return "memory:\n  provider: file\n  config:\n    base_path: " + basePath + "\n";
    }

    @Test
    void with_nothing_configured_the_built_in_default_writes_under_dot_forge_memory() {
        JsonNode config = config();
        assertThat(config.path("provider").asText()).isEqualTo(Memories.DEFAULT_PROVIDER);
        assertThat(config.path("providerSource").path("kind").asText()).isEqualTo(Kind.DEFAULT.name());
        assertThat(config.path("project").asText()).isEqualTo("my-project");
        assertThat(config.path("filesRead")).isEmpty();
        set();
        assertThat(storeHoldsGreeting(".forge/memory")).isTrue();
    }

    @Test
    void global_memories_of_the_built_in_default_go_under_forge_home() {
        cli.ok("set", "greeting", "hello", "--scope", "global");
        assertThat(storeHoldsGreeting(cli.forgeHome.resolve("memory").toString())).isTrue();
        assertThat(cli.userHome).isEmptyDirectory();
    }

    @Test
    void the_user_file_is_used_when_the_project_has_none() {
        cli.userConfig(fileProvider("user-store"));
        JsonNode config = config();
        assertThat(config.path("providerSource").path("kind").asText()).isEqualTo(Kind.USER_FILE.name());
        assertThat(config.path("config").path("base_path").asText()).isEqualTo("user-store");
        set();
        assertThat(storeHoldsGreeting("user-store")).isTrue();
    }

    @Test
    void the_project_file_beats_the_user_file() {
        cli.userConfig(fileProvider("user-store"));
        cli.projectConfig(fileProvider("project-store"));
        JsonNode config = config();
        assertThat(config.path("providerSource").path("kind").asText()).isEqualTo(Kind.PROJECT_FILE.name());
        assertThat(config.path("configSource").path("file").asText()).endsWith(".forge/config.yaml");
        assertThat(config.path("filesRead")).hasSize(2);
        set();
        assertThat(storeHoldsGreeting("project-store")).isTrue();
        assertThat(storeHoldsGreeting("user-store")).isFalse();
    }

    @Test
    void forge_memory_provider_beats_the_project_file_and_takes_settings_from_a_file_naming_that_provider() {
        cli.userConfig(fileProvider("user-store"));
        cli.projectConfig("memory:\n  provider: in-memory\n");
        cli.env.put("FORGE_MEMORY_PROVIDER", "file");
        JsonNode config = config();
        assertThat(config.path("provider").asText()).isEqualTo("file");
        assertThat(config.path("providerSource").path("kind").asText()).isEqualTo(Kind.ENVIRONMENT.name());
        assertThat(config.path("configSource").path("kind").asText()).isEqualTo(Kind.USER_FILE.name());
        set();
        assertThat(storeHoldsGreeting("user-store")).isTrue();
    }

    @Test
    void forge_memory_provider_naming_in_memory_writes_nothing_to_disk() {
        cli.projectConfig(fileProvider("project-store"));
        cli.env.put("FORGE_MEMORY_PROVIDER", "in-memory");
        assertThat(config().path("provider").asText()).isEqualTo("in-memory");
        set();
        assertThat(storeHoldsGreeting("project-store")).isFalse();
        assertThat(storeHoldsGreeting(".forge/memory")).isFalse();
    }

    @Test
    void a_memory_config_file_beats_forge_memory_provider_and_the_project_file() {
        cli.projectConfig(fileProvider("project-store"));
        cli.env.put("FORGE_MEMORY_PROVIDER", "in-memory");
        Path override = cli.write(cli.root.resolve("override.yaml"), fileProvider("override-store") + "  project: shared\n");
        JsonNode config = config("--memory-config", override.toString());
        assertThat(config.path("provider").asText()).isEqualTo("file");
        assertThat(config.path("providerSource").path("kind").asText()).isEqualTo(Kind.OVERRIDE_FILE.name());
        assertThat(config.path("project").asText()).isEqualTo("shared");
        set("--memory-config", override.toString());
        assertThat(storeHoldsGreeting("override-store")).isTrue();
        assertThat(storeHoldsGreeting("project-store")).isFalse();
    }

    @Test
    void the_memory_provider_option_beats_everything() {
        cli.userConfig(fileProvider("user-store"));
        cli.projectConfig(fileProvider("project-store"));
        cli.env.put("FORGE_MEMORY_PROVIDER", "file");
        Path override = cli.write(cli.root.resolve("override.yaml"), fileProvider("override-store"));
        String[] options = {"--memory-config", override.toString(), "--memory-provider", "in-memory"};
        JsonNode config = config(options);
        assertThat(config.path("provider").asText()).isEqualTo("in-memory");
        assertThat(config.path("providerSource").path("kind").asText()).isEqualTo(Kind.OVERRIDE_OPTION.name());
        assertThat(config.path("config")).isEmpty();
        set(options);
        assertThat(storeHoldsGreeting("override-store")).isFalse();
        assertThat(storeHoldsGreeting("project-store")).isFalse();
    }

    @Test
    void options_are_accepted_after_the_subcommand_too() {
        JsonNode config = cli.run("config", "--memory-provider", "in-memory", "--json").json();
        assertThat(config.path("provider").asText()).isEqualTo("in-memory");
    }

    @Test
    void variables_are_interpolated_with_their_defaults() {
        cli.projectConfig("memory:\n  provider: file\n  config:\n    base_path: ${STORE_DIR:-default-store}\n");
        assertThat(config().path("config").path("base_path").asText()).isEqualTo("default-store");
        cli.env.put("STORE_DIR", "from-variable");
        assertThat(config().path("config").path("base_path").asText()).isEqualTo("from-variable");
        set();
        assertThat(storeHoldsGreeting("from-variable")).isTrue();
    }

    @Test
    void config_masks_secrets_in_text_and_json_but_shows_where_they_came_from() {
        cli.env.put("NEO4J_PASSWORD", "s3cret-value");
        cli.projectConfig("""
                memory:
                  provider: graph
                  config:
                    url: "bolt://${NEO4J_HOST:-localhost}:7687"
                    password: ${NEO4J_PASSWORD}
                    nested: { api_key: "${NEO4J_PASSWORD}", user: neo4j }
                """);
        // No 'graph' provider is installed here: config still shows the resolution, then exits 3 (see ErrorReportingTest).
        CliHarness.Result text = cli.run("config");
        assertThat(text.exitCode()).as(text.toString()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(text.out()).doesNotContain("s3cret-value").contains("password: ****").contains("provider: graph")
                .contains("bolt://localhost:7687").contains(".forge/config.yaml").contains("session:  cli");
        assertThat(text.err()).doesNotContain("s3cret-value");
        CliHarness.Result json = cli.run("config", "--json");
        assertThat(json.exitCode()).as(json.toString()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(json.out()).doesNotContain("s3cret-value");
        assertThat(json.err()).doesNotContain("s3cret-value");
        JsonNode config = json.json().path("config");
        assertThat(config.path("password").asText()).isEqualTo("****");
        assertThat(config.path("nested").path("api_key").asText()).isEqualTo("****");
        assertThat(config.path("nested").path("user").asText()).isEqualTo("neo4j");
    }

    @Test
    void the_session_comes_from_the_option_then_forge_session_id_then_cli() {
        assertThat(config().path("session").asText()).isEqualTo("cli");
        cli.env.put("FORGE_SESSION_ID", "from-env");
        assertThat(config().path("session").asText()).isEqualTo("from-env");
        assertThat(config().path("sessionSource").asText()).isEqualTo("FORGE_SESSION_ID");
        assertThat(config("--session", "from-option").path("session").asText()).isEqualTo("from-option");
    }
}
