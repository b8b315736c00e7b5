package dev.forge.memory.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.spi.ProviderRegistry;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A config file is bounded before it is parsed: an oversized file is refused without being read (a stream is read no
 * further than the limit: {@code LimitedTextTest}), the YAML parser itself is bounded, aliases are refused rather than read as their anchor's
 * name, and nested {@code ${VAR:-default}}s are bounded. None of this is measured in time: each test checks what was
 * read or what was refused.
 */
class ConfigFileLimitsTest {

    private static final String VALID = "memory:\n  provider: in-memory\n  project: limits\n";

    @TempDir
    Path root;

    private Path project;
    private Path configFile;

    @BeforeEach
    void layout() throws IOException {
        project = Files.createDirectories(root.resolve("project"));
        configFile = Files.createDirectories(project.resolve(".forge")).resolve("config.yaml");
    }

    private ResolvedConfig resolve(Map<String, String> env) {
        return Memories.builder().projectDirectory(project).environment(env).userHome(root.resolve("no-home"))
                .plugins(false).resolve(ProviderRegistry.load());
    }

    private ResolvedConfig resolve() {
        return resolve(Map.of("FORGE_HOME", root.resolve("no-forge-home").toString()));
    }

    @Test
    void a_config_file_over_the_limit_is_refused_by_its_size_before_it_is_read() throws IOException {
        // 8 GiB without a byte written: a read of it would need 8 GiB of memory, a parse minutes.
        try (RandomAccessFile file = new RandomAccessFile(configFile.toFile(), "rw")) {
            file.setLength(8L << 30);
        }

        assertThatThrownBy(this::resolve).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(configFile.toString())
                .hasMessageContaining("8589934592 bytes")
                .hasMessageContaining("at most " + ConfigText.MAX_BYTES + " bytes");
    }

    @Test
    void a_file_of_exactly_the_limit_is_read_and_one_byte_more_is_refused() throws IOException {
        String padded = VALID + "#".repeat(ConfigText.MAX_BYTES - VALID.length() - 1) + "\n";
        assertThat(padded.getBytes(StandardCharsets.UTF_8)).hasSize(ConfigText.MAX_BYTES);
        Files.writeString(configFile, padded);

        assertThat(resolve().projectId()).isEqualTo("limits");

        Files.writeString(configFile, padded + "\n");
        assertThatThrownBy(this::resolve).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("at most " + ConfigText.MAX_BYTES + " bytes");
    }

    @Test
    void the_yaml_parser_itself_refuses_text_over_the_limit() {
        String oversized = "memory:\n  provider: " + "x".repeat(ConfigText.MAX_BYTES) + "\n";

        assertThatThrownBy(() -> ConfigFile.parse(configFile, oversized, name -> null))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining(configFile.toString());
    }

    @Test
    void nesting_deeper_than_the_bound_is_refused_even_in_another_tool_s_section() throws IOException {
        StringBuilder nested = new StringBuilder(VALID).append("other-tool:\n");
        for (int level = 1; level <= ConfigText.MAX_DEPTH; level++) {
            nested.append("  ".repeat(level)).append("level").append(level).append(":\n");
        }
        nested.append("  ".repeat(ConfigText.MAX_DEPTH + 1)).append("leaf: 1\n");
        Files.writeString(configFile, nested.toString());

        assertThatThrownBy(this::resolve).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(configFile.toString()).hasMessageContaining("malformed YAML");
    }

    @Test
    void a_yaml_alias_is_refused_with_its_position_instead_of_read_as_the_anchor_name() throws IOException {
        // Jackson reads an alias as its anchor's name: this file would silently give the project id "name".
        Files.writeString(configFile, "memory:\n  provider: &name in-memory\n  project: *name\n");

        assertThatThrownBy(this::resolve).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(configFile + ":3:12")
                .hasMessageContaining("alias");
    }

    @Test
    void nested_defaults_are_bounded_instead_of_overflowing_the_stack() throws IOException {
        int depth = 5_000;
        Files.writeString(configFile, "memory:\n  provider: \"" + "${UNSET:-".repeat(depth) + "in-memory" + "}".repeat(depth) + "\"\n");

        assertThatThrownBy(this::resolve).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("memory.provider")
                .hasMessageContaining("nested more than " + Interpolation.MAX_NESTING + " deep");
    }

    @Test
    void defaults_nested_up_to_the_bound_still_resolve() throws IOException {
        int depth = Interpolation.MAX_NESTING;
        Files.writeString(configFile, "memory:\n  provider: \"" + "${UNSET:-".repeat(depth) + "in-memory" + "}".repeat(depth) + "\"\n");

        assertThat(resolve().provider()).isEqualTo("in-memory");
    }
}
