package dev.forge.memory.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.UnknownProviderException;
import dev.forge.memory.config.ConfigSource.Kind;
import dev.forge.memory.spi.ProviderRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoriesTest {

    @TempDir
    Path root;

    Path project;
    Path home;
    final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void layout() throws IOException {
        project = Files.createDirectories(root.resolve("my-project"));
        home = Files.createDirectories(root.resolve("forge-home"));
        env.put("FORGE_HOME", home.toString());
    }

    private void write(Path file, String yaml) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, yaml);
    }

    private Memories.Builder builder() {
        return Memories.builder().projectDirectory(project).environment(env).userHome(root.resolve("no-home")).plugins(false);
    }

    private ResolvedConfig resolve(Memories.Builder builder) {
        return builder.resolve(ProviderRegistry.load());
    }

    @Test
    void nothing_configured_falls_back_from_markdown_to_file_with_project_directory_name_as_id() {
        ResolvedConfig resolved = resolve(builder());
        assertThat(resolved.provider()).isEqualTo(Memories.FALLBACK_PROVIDER);
        assertThat(resolved.providerSource().kind()).isEqualTo(Kind.DEFAULT);
        assertThat(resolved.config().values()).isEmpty();
        assertThat(resolved.projectId()).isEqualTo("my-project");
        assertThat(resolved.filesRead()).isEmpty();
    }

    @Test
    void user_file_is_used_when_the_project_has_none() throws IOException {
        write(home.resolve("config.yaml"), "memory:\n  provider: in-memory\n");
        ResolvedConfig resolved = resolve(builder());
        assertThat(resolved.provider()).isEqualTo("in-memory");
        assertThat(resolved.providerSource().kind()).isEqualTo(Kind.USER_FILE);
    }

    @Test
    void project_file_beats_user_file() throws IOException {
        write(home.resolve("config.yaml"), "memory:\n  provider: sqlite\n  config:\n    path: user.db\n");
        write(project.resolve(".forge/config.yaml"), "memory:\n  provider: file\n  config:\n    compression: gzip\n");
        ResolvedConfig resolved = resolve(builder());
        assertThat(resolved.provider()).isEqualTo("file");
        assertThat(resolved.providerSource().kind()).isEqualTo(Kind.PROJECT_FILE);
        assertThat(resolved.config().values()).isEqualTo(Map.of("compression", "gzip"));
        assertThat(resolved.filesRead()).hasSize(2);
    }

    @Test
    void environment_beats_files_and_takes_settings_from_the_file_naming_the_same_provider() throws IOException {
        write(home.resolve("config.yaml"), "memory:\n  provider: sqlite\n  config:\n    path: user.db\n");
        write(project.resolve(".forge/config.yaml"), "memory:\n  provider: file\n  config:\n    compression: gzip\n");
        env.put("FORGE_MEMORY_PROVIDER", "sqlite");
        ResolvedConfig resolved = resolve(builder());
        assertThat(resolved.provider()).isEqualTo("sqlite");
        assertThat(resolved.providerSource().kind()).isEqualTo(Kind.ENVIRONMENT);
        assertThat(resolved.config().values()).isEqualTo(Map.of("path", "user.db"));
        assertThat(resolved.configSource().kind()).isEqualTo(Kind.USER_FILE);
    }

    @Test
    void a_provider_named_at_run_time_gets_no_settings_meant_for_another_provider() throws IOException {
        write(project.resolve(".forge/config.yaml"), "memory:\n  provider: file\n  config:\n    compression: gzip\n");
        ResolvedConfig resolved = resolve(builder().provider("in-memory"));
        assertThat(resolved.provider()).isEqualTo("in-memory");
        assertThat(resolved.providerSource().kind()).isEqualTo(Kind.OVERRIDE_OPTION);
        assertThat(resolved.config().values()).isEmpty();
    }

    @Test
    void override_file_beats_environment_and_project_but_not_the_provider_option() throws IOException {
        write(project.resolve(".forge/config.yaml"), "memory:\n  provider: file\n");
        Path override = root.resolve("override.yaml");
        write(override, "memory:\n  provider: in-memory\n  project: shared-id\n");
        env.put("FORGE_MEMORY_PROVIDER", "file");
        ResolvedConfig resolved = resolve(builder().configFile(override));
        assertThat(resolved.provider()).isEqualTo("in-memory");
        assertThat(resolved.providerSource().kind()).isEqualTo(Kind.OVERRIDE_FILE);
        assertThat(resolved.projectId()).isEqualTo("shared-id");
        assertThat(resolve(builder().configFile(override).provider("file")).provider()).isEqualTo("file");
    }

    @Test
    void variables_are_interpolated_with_defaults_and_dollar_escapes() throws IOException {
        env.put("DB_PASSWORD", "s3cret");
        write(project.resolve(".forge/config.yaml"), """
                memory:
                  provider: graph
                  config:
                    url: "bolt://${DB_HOST:-localhost}:7687"
                    password: "${DB_PASSWORD}"
                    note: "costs $$5"
                    nested: { list: ["${DB_HOST:-h}", 3], api_key: "${DB_PASSWORD}" }
                """);
        ResolvedConfig resolved = resolve(builder());
        assertThat(resolved.config().values()).containsEntry("url", "bolt://localhost:7687")
                .containsEntry("password", "s3cret").containsEntry("note", "costs $5")
                .containsEntry("nested", Map.of("list", java.util.List.of("h", 3), "api_key", "s3cret"));
        assertThat(resolved.maskedConfig().get("nested")).isEqualTo(Map.of("list", java.util.List.of("h", 3), "api_key", "****"));
        assertThat(resolved.maskedConfig()).containsEntry("password", "****");
        assertThat(resolved.describe()).doesNotContain("s3cret").contains("password: ****").contains("graph");
    }

    @Test
    void an_unset_variable_without_default_names_file_field_and_variable() throws IOException {
        write(project.resolve(".forge/config.yaml"), "memory:\n  provider: graph\n  config:\n    password: ${NEO4J_PASSWORD}\n");
        assertThatThrownBy(() -> resolve(builder())).isInstanceOfSatisfying(ConfigurationException.class, e -> {
            assertThat(e.getMessage()).contains("config.yaml").contains("memory.config.password").contains("NEO4J_PASSWORD");
            assertThat(e.field()).contains("memory.config.password");
        });
    }

    @Test
    void malformed_yaml_names_file_line_and_column_in_one_line_without_quoting_the_file() throws IOException {
        write(project.resolve(".forge/config.yaml"), "memory:\n  provider: file\n  config:\n    password: \"s3cret\n    x: 1\n");
        assertThatThrownBy(() -> resolve(builder())).isInstanceOfSatisfying(ConfigurationException.class, e -> {
            assertThat(e.getMessage()).contains(".forge/config.yaml:4:").contains("malformed YAML").doesNotContain("s3cret");
            assertThat(e.getMessage().lines().count()).isEqualTo(1);
        });
    }

    @Test
    void a_tab_used_for_indentation_is_reported_on_its_own_line() throws IOException {
        write(project.resolve(".forge/config.yaml"), "memory:\n  provider: file\n  config:\n\tbase_path: x\n");
        assertThatThrownBy(() -> resolve(builder())).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(".forge/config.yaml:4:1: malformed YAML");
    }

    @Test
    void a_backslash_path_in_double_quotes_gets_a_hint() throws IOException {
        write(project.resolve(".forge/config.yaml"), "memory:\n  provider: file\n  config:\n    base_path: \"C:\\Users\\me\"\n");
        assertThatThrownBy(() -> resolve(builder())).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("single quotes");
    }

    @Test
    void duplicate_keys_are_refused_instead_of_the_last_one_winning() throws IOException {
        write(project.resolve(".forge/config.yaml"), "memory:\n  provider: file\n  provider: in-memory\n");
        assertThatThrownBy(() -> resolve(builder())).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("provider").hasMessageContaining("malformed YAML");
    }

    @Test
    void a_misspelled_memory_key_is_not_mistaken_for_another_tools_settings() throws IOException {
        write(project.resolve(".forge/config.yaml"), "memroy:\n  provider: file\n");
        assertThatThrownBy(() -> resolve(builder())).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'memroy'").hasMessageContaining("Did you mean 'memory'?");
    }

    @Test
    void an_unset_variable_in_a_file_whose_settings_are_not_used_breaks_nothing() throws IOException {
        write(home.resolve("config.yaml"), "memory:\n  provider: graph\n  config:\n    password: ${NEO4J_PASSWORD}\n");
        write(project.resolve(".forge/config.yaml"), "memory:\n  provider: in-memory\n");
        assertThat(resolve(builder()).provider()).isEqualTo("in-memory");
        assertThat(resolve(builder().provider("file")).config().values()).isEmpty();
    }

    @Test
    void nested_defaults_braces_in_defaults_and_malformed_references() throws IOException {
        env.put("B", "bee");
        write(project.resolve(".forge/config.yaml"), """
                memory:
                  provider: file
                  config:
                    nested: "${A:-${B}}"
                    braces: "${X:-{a}b}"
                    plain: "cost $5 and $$6"
                """);
        ResolvedConfig resolved = resolve(builder());
        assertThat(resolved.config().values()).containsEntry("nested", "bee").containsEntry("braces", "{a}b")
                .containsEntry("plain", "cost $5 and $6");
        for (String bad : new String[] {"${X:default}", "${}", "${HOME", "${1X}"}) {
            write(project.resolve(".forge/config.yaml"), "memory:\n  provider: file\n  config:\n    v: '" + bad + "'\n");
            assertThatThrownBy(() -> resolve(builder())).as(bad).isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("memory.config.v");
        }
    }

    @Test
    void values_from_the_environment_are_never_interpolated_again() throws IOException {
        env.put("A", "${B}");
        write(project.resolve(".forge/config.yaml"), "memory:\n  provider: file\n  config:\n    v: ${A}\n");
        assertThat(resolve(builder()).config().values()).containsEntry("v", "${B}");
    }

    @Test
    void secrets_are_masked_in_lists_nested_blocks_urls_and_when_they_come_from_secret_variables() throws IOException {
        env.put("DB_PASSWORD", "pw1");
        env.put("GITHUB_TOKEN", "tok2");
        write(project.resolve(".forge/config.yaml"), """
                memory:
                  provider: hybrid
                  config:
                    children: [{provider: graph, api_key: k3}, {provider: sqlite, path: x.db}]
                    url: "postgres://user:pw4@host/db"
                    header: "${GITHUB_TOKEN}"
                    storage: { provider: sqlite, auth: { pwd: "${DB_PASSWORD}" } }
                """);
        ResolvedConfig resolved = resolve(builder());
        String shown = resolved.maskedConfig().toString() + resolved.describe();
        assertThat(shown).doesNotContain("pw1", "tok2", "k3", "pw4").contains("x.db").contains("postgres://user:****@host/db");
        assertThat(resolved.config().values()).containsEntry("header", "tok2");
    }

    @Test
    void an_override_file_without_a_provider_configures_the_provider_named_at_run_time() throws IOException {
        Path override = root.resolve("override.yaml");
        write(override, "memory:\n  config:\n    compression: gzip\n");
        ResolvedConfig resolved = resolve(builder().configFile(override).provider("file"));
        assertThat(resolved.config().values()).containsEntry("compression", "gzip");
        assertThat(resolved.configSource().kind()).isEqualTo(Kind.OVERRIDE_FILE);
        assertThatThrownBy(() -> resolve(builder().configFile(override))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("memory.provider");
    }

    @Test
    void a_blank_provider_name_at_run_time_is_an_error_not_ignored() {
        assertThatThrownBy(() -> resolve(builder().provider("  "))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("empty");
    }

    @Test
    void an_empty_project_id_falls_back_to_the_directory_name() throws IOException {
        write(project.resolve(".forge/config.yaml"), "memory:\n  provider: file\n  project: ${P:-}\n");
        assertThat(resolve(builder()).projectId()).isEqualTo("my-project");
    }

    @Test
    void the_default_source_says_when_markdown_is_missing() {
        assertThat(resolve(builder()).providerSource().name()).contains("markdown not installed");
    }

    @Test
    void unknown_keys_in_the_memory_block_get_a_suggestion() throws IOException {
        write(project.resolve(".forge/config.yaml"), "memory:\n  provder: file\n");
        assertThatThrownBy(() -> resolve(builder())).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("memory.provder").hasMessageContaining("Did you mean 'provider'?");
    }

    @Test
    void settings_without_a_provider_are_refused() throws IOException {
        write(project.resolve(".forge/config.yaml"), "memory:\n  config:\n    path: x\n");
        assertThatThrownBy(() -> resolve(builder())).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("memory.provider");
    }

    @Test
    void an_empty_config_block_with_only_comments_means_no_settings() throws IOException {
        write(project.resolve(".forge/config.yaml"), "memory:\n  provider: file\n  config:   # defaults\n    # base_path: x\n");
        assertThat(resolve(builder()).config().values()).isEmpty();
    }

    @Test
    void other_tools_top_level_keys_are_left_alone() throws IOException {
        write(project.resolve(".forge/config.yaml"), "agent:\n  model: x\nmemory:\n  provider: in-memory\n");
        assertThat(resolve(builder()).provider()).isEqualTo("in-memory");
    }

    @Test
    void a_missing_override_file_is_an_error_naming_it() {
        assertThatThrownBy(() -> resolve(builder().configFile(root.resolve("nope.yaml")))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("nope.yaml").hasMessageContaining("does not exist");
    }

    @Test
    void open_uses_the_resolved_provider_project_and_session() throws IOException {
        write(project.resolve(".forge/config.yaml"), "memory:\n  provider: in-memory\n  project: demo\n");
        try (MemoryProvider provider = builder().sessionId("s-1").open()) {
            assertThat(provider.name()).isEqualTo("in-memory");
            provider.set("k", "v", Scope.SESSION);
            assertThat(provider.get("k", Scope.SESSION)).isPresent();
        }
    }

    @Test
    void an_unknown_provider_lists_what_was_found() throws IOException {
        write(project.resolve(".forge/config.yaml"), "memory:\n  provider: sqlitee\n");
        assertThatThrownBy(() -> builder().open()).isInstanceOf(UnknownProviderException.class)
                .hasMessageContaining("sqlitee").hasMessageContaining("in-memory");
    }

    @Test
    void invalid_provider_settings_fail_with_the_file_in_the_message() throws IOException {
        write(project.resolve(".forge/config.yaml"), "memory:\n  provider: in-memory\n  config:\n    size: 3\n");
        assertThatThrownBy(() -> builder().open()).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(".forge/config.yaml").hasMessageContaining("memory.config.size");
    }

    @Test
    void forge_home_defaults_to_dot_forge_in_the_user_home() {
        env.remove("FORGE_HOME");
        assertThat(builder().userHome(root).forgeHome()).isEqualTo(root.resolve(".forge"));
    }

    @Test
    void a_broken_plugin_jar_is_reported_by_name_and_the_rest_still_load() throws IOException {
        Path plugins = Files.createDirectories(project.resolve(".forge/plugins"));
        Files.writeString(plugins.resolve("broken.jar"), "not a zip");
        ProviderRegistry registry = builder().plugins(true).registry();
        assertThat(registry.names()).contains("in-memory");
        assertThat(registry.problems()).anyMatch(p -> p.contains("broken.jar"));
    }
}
