package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.forge.memory.config.Memories;
import dev.forge.memory.file.FileConfig;
import dev.forge.memory.hybrid.HybridConfig;
import dev.forge.memory.markdown.MarkdownConfig;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.sqlite.SqliteConfig;
import dev.forge.memory.vector.VectorConfig;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code init}: a commented config file that the config loader accepts as written. */
class InitCommandTest {

    private static final Pattern SETTING = Pattern.compile("(?m)^    # (\\w+): (.+?) {2,}# .*$");

    @TempDir
    Path root;

    CliHarness cli;
    Path configFile;

    @BeforeEach
    void setUp() {
        cli = new CliHarness(root);
        configFile = cli.project.resolve(".forge/config.yaml");
    }

    private static Map<String, Object> commentedSettings(String yaml) {
        Map<String, Object> settings = new LinkedHashMap<>();
        Matcher m = SETTING.matcher(yaml);
        while (m.find()) {
            settings.put(m.group(1), m.group(2));
        }
        return settings;
    }

    private static List<String> settingKeys(Class<? extends Record> config) {
        return Arrays.stream(config.getRecordComponents())
                .map(c -> new PropertyNamingStrategies.SnakeCaseStrategy().translate(c.getName())).toList();
    }

    /** The config file with every commented setting uncommented, at the value the comment shows. */
    private void uncommentEverySetting() throws IOException {
        Files.writeString(configFile, Files.readString(configFile).replaceAll("(?m)^    # (\\w+: )", "    $1"));
    }

    @Test
    void init_writes_the_default_provider_markdown_with_its_settings_as_comments() throws IOException {
        assertThat(cli.ok("init").out()).isEqualTo("Wrote " + configFile + " for the 'markdown' provider.\n");
        String yaml = Files.readString(configFile);
        assertThat(yaml).contains("  provider: markdown\n").contains("# project: my-project")
                .contains("# path: .forge/memory").contains("{project}")
                .contains("# global_path: ${FORGE_HOME:-~/.forge}/memory").contains("# max_file_size: 8MB")
                .contains("# fsync: true").contains("${VAR:-default}");
        var config = cli.ok("config", "--json").json();
        assertThat(config.path("provider").asText()).isEqualTo(Memories.DEFAULT_PROVIDER);
        assertThat(config.path("providerSource").path("file").asText()).isEqualTo(configFile.toString());
        cli.ok("set", "k", "v");
        assertThat(cli.ok("get", "k").out()).isEqualTo("v\n");
    }

    @Test
    void the_commented_settings_are_every_markdown_setting_at_its_default() throws IOException {
        cli.ok("init", "--provider", "markdown");
        Map<String, Object> settings = commentedSettings(Files.readString(configFile));
        assertThat(settings.keySet()).containsExactlyElementsOf(settingKeys(MarkdownConfig.class));
        // global_path has no fixed default (it follows $FORGE_HOME): the comment shows an expression that means it.
        assertThat(settings.remove("global_path")).isEqualTo("${FORGE_HOME:-~/.forge}/memory");
        assertThat(ProviderConfig.of(settings).bind(MarkdownConfig.class)).isEqualTo(MarkdownConfig.defaults());
    }

    @Test
    void uncommenting_every_markdown_setting_changes_nothing() throws IOException {
        cli.ok("init");
        uncommentEverySetting();
        var config = cli.ok("config", "--json").json().path("config");
        assertThat(config.path("path").asText()).isEqualTo(".forge/memory");
        assertThat(config.path("global_path").asText()).isEqualTo(cli.forgeHome + "/memory");
        assertThat(config.path("max_file_size").asText()).isEqualTo("8MB");
        assertThat(config.path("fsync").asBoolean(false)).isTrue();
        cli.ok("set", "p", "project memory");
        cli.ok("set", "g", "global memory", "--scope", "global");
        assertThat(Files.readString(configFile)).doesNotContain("# path:");
        try (var files = Files.list(cli.forgeHome.resolve("memory"))) {
            assertThat(files.filter(f -> f.getFileName().toString().endsWith(".md"))).hasSize(1);
        }
        try (var files = Files.list(cli.project.resolve(".forge/memory"))) {
            assertThat(files.filter(f -> f.getFileName().toString().endsWith(".md"))).hasSize(1);
        }
        // Without $FORGE_HOME, the user's ~/.forge, as when the setting is left out. Only resolved here: opening the
        // provider would touch the real home directory, which a test must not.
        cli.env.remove("FORGE_HOME");
        assertThat(cli.ok("config", "--json").json().path("config").path("global_path").asText()).isEqualTo("~/.forge/memory");
    }

    @Test
    void the_commented_settings_are_every_file_and_every_sqlite_setting_at_its_default() throws IOException {
        assertEverySettingAtItsDefault("file", FileConfig.class, FileConfig.defaults());
        assertEverySettingAtItsDefault("sqlite", SqliteConfig.class, SqliteConfig.defaults());
    }

    private <T extends Record> void assertEverySettingAtItsDefault(String provider, Class<T> config, T defaults)
            throws IOException {
        cli.ok("init", "--provider", provider, "--force");
        Map<String, Object> settings = commentedSettings(Files.readString(configFile));
        assertThat(settings.keySet()).as(provider).containsExactlyElementsOf(settingKeys(config));
        // A global_path follows $FORGE_HOME: its comment shows an expression that means the default (null when bound).
        Object globalPath = settings.remove("global_path");
        if (globalPath != null) {
            assertThat(globalPath.toString()).as(provider).startsWith("${FORGE_HOME:-~/.forge}/");
        }
        assertThat(ProviderConfig.of(settings).bind(config)).as(provider).isEqualTo(defaults);
    }

    @Test
    void uncommenting_a_setting_takes_effect() throws IOException {
        cli.ok("init");
        Files.writeString(configFile, Files.readString(configFile).replace("    # path: .forge/memory", "    path: my-store"));
        assertThat(cli.ok("config", "--json").json().path("config").path("path").asText()).isEqualTo("my-store");
        cli.ok("set", "k", "v");
        assertThat(cli.project.resolve("my-store")).isDirectory();
        assertThat(cli.project.resolve(".forge/memory")).doesNotExist();
    }

    @Test
    void uncommenting_a_file_setting_takes_effect() throws IOException {
        cli.ok("init", "--provider", "file");
        Files.writeString(configFile, Files.readString(configFile).replace("    # base_path: .forge/memory", "    base_path: my-store"));
        assertThat(cli.ok("config", "--json").json().path("config").path("base_path").asText()).isEqualTo("my-store");
        cli.ok("set", "k", "v");
        assertThat(cli.project.resolve("my-store")).isDirectory();
    }

    @Test
    void init_refuses_to_overwrite_without_force() throws IOException {
        cli.projectConfig("memory:\n  provider: in-memory\n");
        CliHarness.Result refused = cli.run("init");
        assertThat(refused.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(refused.err()).contains("already exists").contains("--force");
        assertThat(Files.readString(configFile)).isEqualTo("memory:\n  provider: in-memory\n");
        cli.ok("init", "--force");
        assertThat(Files.readString(configFile)).contains("provider: markdown");
    }

    @Test
    void init_for_the_in_memory_provider_shows_its_one_setting() throws IOException {
        var written = cli.ok("init", "--provider", "in-memory", "--json").json();
        assertThat(written.path("provider").asText()).isEqualTo("in-memory");
        assertThat(written.path("file").asText()).isEqualTo(configFile.toString());
        assertThat(Files.readString(configFile)).contains("provider: in-memory").contains("# tombstones: false");
        assertThat(cli.ok("config", "--json").json().path("provider").asText()).isEqualTo("in-memory");
    }

    @Test
    void init_for_an_unknown_provider_exits_3_and_writes_nothing() {
        CliHarness.Result result = cli.run("init", "--provider", "sqlitee");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(result.err()).contains("sqlitee").contains("file, hybrid, in-memory, markdown");
        assertThat(configFile).doesNotExist();
    }

    @Test
    void init_works_even_when_the_existing_config_is_broken() throws IOException {
        cli.projectConfig("memory: [broken\n");
        cli.ok("init", "--force");
        cli.ok("config");
    }

    @Test
    void uncommenting_every_vector_setting_gives_the_vector_defaults() throws IOException {
        cli.ok("init", "--provider", "vector");
        assertThat(commentedSettings(Files.readString(configFile)).keySet())
                .containsExactlyInAnyOrderElementsOf(settingKeys(VectorConfig.class));
        uncommentEverySetting();
        @SuppressWarnings("unchecked")
        Map<String, Object> memory = (Map<String, Object>) new ObjectMapper(new YAMLFactory())
                .readValue(configFile.toFile(), Map.class).get("memory");
        @SuppressWarnings("unchecked")
        Map<String, Object> settings = (Map<String, Object>) memory.get("config");
        // global_path follows $FORGE_HOME: the comment shows an expression that means its default.
        assertThat(settings.remove("global_path")).isEqualTo("${FORGE_HOME:-~/.forge}/vectors");
        // The model line names the model a new index gets; the default leaves it out (an old index keeps its own).
        VectorConfig defaults = VectorConfig.defaults();
        assertThat(ProviderConfig.of(settings).bind(VectorConfig.class)).isEqualTo(new VectorConfig(defaults.path(),
                defaults.globalPath(), Map.of("model", VectorConfig.DEFAULT_MODEL), defaults.fusion(), defaults.rrfK(),
                defaults.keywordWeight(), defaults.overfetch(), defaults.exactLimit(), defaults.searchFields()));
    }

    @Test
    void the_hybrid_template_opens_as_written_and_with_every_optional_block_but_relationships_uncommented()
            throws IOException {
        cli.ok("init", "--provider", "hybrid");
        cli.ok("set", "k", "stored through the hybrid router");
        assertThat(cli.ok("search", "router").out()).contains("k");
        String text = Files.readString(configFile);
        assertThat(text).containsPattern("(?m)^    storage: \\{ provider: sqlite \\} +# required: ");
        assertThat(commentedSettings(text).keySet()).containsExactlyInAnyOrderElementsOf(settingKeys(HybridConfig.class)
                .stream().filter(k -> !k.equals("storage")).toList());
        Files.writeString(configFile, text.replace("    # cache:", "    cache:").replace("    # outbox:", "    outbox:")
                .replace("    # fusion:", "    fusion:").replace("    # search:", "    search:"));
        assertThat(cli.ok("get", "k").out()).contains("stored through the hybrid router");
        @SuppressWarnings("unchecked")
        Map<String, Object> memory = (Map<String, Object>) new ObjectMapper(new YAMLFactory())
                .readValue(configFile.toFile(), Map.class).get("memory");
        @SuppressWarnings("unchecked")
        HybridConfig bound = ProviderConfig.of((Map<String, Object>) memory.get("config")).bind(HybridConfig.class);
        assertThat(bound.cache()).isEqualTo(HybridConfig.Cache.defaults());
        assertThat(bound.outbox()).isEqualTo(HybridConfig.Outbox.defaults());
        assertThat(bound.fusion()).isEqualTo(HybridConfig.Fusion.defaults());
    }
}
