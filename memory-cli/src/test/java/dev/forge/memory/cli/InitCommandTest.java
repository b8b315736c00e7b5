package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.forge.memory.file.FileConfig;
import dev.forge.memory.spi.ProviderConfig;
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

    private static final Pattern SETTING = Pattern.compile("(?m)^    # (\\w+): (\\S+)\\s+# .*$");

    @TempDir
    Path root;

    CliHarness cli;
    Path configFile;

    @BeforeEach
    void setUp() {
        cli = new CliHarness(root);
        configFile = cli.project.resolve(".forge/config.yaml");
    }

    private CliHarness.Result ok(String... args) {
        CliHarness.Result result = cli.run(args);
        assertThat(result.exitCode()).as(result.toString()).isZero();
        return result;
    }

    private static Map<String, Object> commentedSettings(String yaml) {
        Map<String, Object> settings = new LinkedHashMap<>();
        Matcher m = SETTING.matcher(yaml);
        while (m.find()) {
            settings.put(m.group(1), m.group(2));
        }
        return settings;
    }

    @Test
    void init_writes_the_default_provider_with_its_settings_as_comments() throws IOException {
        assertThat(ok("init").out()).isEqualTo("Wrote " + configFile + " for the 'file' provider.\n");
        String yaml = Files.readString(configFile);
        assertThat(yaml).contains("  provider: file\n").contains("# project: my-project")
                .contains("# base_path: .forge/memory").contains("# compression: none").contains("# max_file_size: 8MB")
                .contains("# fsync: true").contains("${VAR:-default}");
        var config = ok("config", "--json").json();
        assertThat(config.path("provider").asText()).isEqualTo("file");
        assertThat(config.path("providerSource").path("file").asText()).isEqualTo(configFile.toString());
        ok("set", "k", "v");
        assertThat(ok("get", "k").out()).isEqualTo("v\n");
    }

    @Test
    void the_commented_settings_are_every_file_setting_at_its_default() throws IOException {
        ok("init", "--provider", "file");
        Map<String, Object> settings = commentedSettings(Files.readString(configFile));
        List<String> components = Arrays.stream(FileConfig.class.getRecordComponents())
                .map(c -> new PropertyNamingStrategies.SnakeCaseStrategy().translate(c.getName())).toList();
        assertThat(settings.keySet()).containsExactlyElementsOf(components);
        assertThat(ProviderConfig.of(settings).bind(FileConfig.class)).isEqualTo(FileConfig.defaults());
    }

    @Test
    void uncommenting_a_setting_takes_effect() throws IOException {
        ok("init");
        Files.writeString(configFile, Files.readString(configFile).replace("    # base_path: .forge/memory", "    base_path: my-store"));
        assertThat(ok("config", "--json").json().path("config").path("base_path").asText()).isEqualTo("my-store");
        ok("set", "k", "v");
        assertThat(cli.project.resolve("my-store")).isDirectory();
    }

    @Test
    void init_refuses_to_overwrite_without_force() throws IOException {
        cli.projectConfig("memory:\n  provider: in-memory\n");
        CliHarness.Result refused = cli.run("init");
        assertThat(refused.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(refused.err()).contains("already exists").contains("--force");
        assertThat(Files.readString(configFile)).isEqualTo("memory:\n  provider: in-memory\n");
        ok("init", "--force");
        assertThat(Files.readString(configFile)).contains("provider: file");
    }

    @Test
    void init_for_the_in_memory_provider_says_it_takes_no_settings() throws IOException {
        var written = ok("init", "--provider", "in-memory", "--json").json();
        assertThat(written.path("provider").asText()).isEqualTo("in-memory");
        assertThat(written.path("file").asText()).isEqualTo(configFile.toString());
        assertThat(Files.readString(configFile)).contains("provider: in-memory").contains("takes no settings");
        assertThat(ok("config", "--json").json().path("provider").asText()).isEqualTo("in-memory");
    }

    @Test
    void init_for_an_unknown_provider_exits_3_and_writes_nothing() {
        CliHarness.Result result = cli.run("init", "--provider", "sqlitee");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(result.err()).contains("sqlitee").contains("file, in-memory");
        assertThat(configFile).doesNotExist();
    }

    @Test
    void init_works_even_when_the_existing_config_is_broken() throws IOException {
        cli.projectConfig("memory: [broken\n");
        ok("init", "--force");
        ok("config");
    }
}
