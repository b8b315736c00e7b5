package dev.forge.memory.conformance.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.forge.memory.MemoryException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.config.Memories;
import dev.forge.memory.conformance.Reliability;
import dev.forge.memory.spi.ProviderRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code .forge/config.yaml} parsing, {@code ${ENV}} substitution and provider config binding, fuzzed: hostile files
 * (alias bombs, 100,000 open brackets, invalid UTF-8, Java type tags, merge keys, interpolation cycles) and random
 * edits of a valid file are either resolved and opened, or refused with a {@code MemoryException} (a
 * {@code ConfigurationException} for every file problem), never another exception or error.
 */
@Tag(Reliability.TAG)
class ConfigFuzzTest {

    private static final String VALID = """
            memory:
              provider: in-memory
              project: ${PROJECT_NAME}
              config:
                tombstones: true
                embedding: { model: hashing }
            """;

    @TempDir
    Path root;

    private Path project;
    private final Map<String, String> env = new HashMap<>();
    private long tried;
    private long rejected;

    @BeforeEach
    void layout() throws IOException {
        project = Files.createDirectories(root.resolve("project"));
        env.put("FORGE_HOME", Files.createDirectories(root.resolve("home")).toString());
        env.put("PROJECT_NAME", "fuzzed");
        env.put("HUGE", "h".repeat(1024 * 1024));
        env.put("SELF", "${SELF}");
        env.put("PING", "${PONG}");
        env.put("PONG", "${PING}");
        env.put("NUL", "a\u0000b");
    }

    static List<String> hostileFiles() {
        StringBuilder laughs = new StringBuilder("memory:\n  config:\n    a0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (int i = 1; i < 10; i++) {
            laughs.append("    a").append(i).append(": &a").append(i).append(" [")
                    .append(String.join(",", java.util.Collections.nCopies(10, "*a" + (i - 1)))).append("]\n");
        }
        return List.of(VALID, laughs.toString(), "[".repeat(100_000), "{".repeat(100_000), "- ".repeat(50_000) + "x",
                "memory:\n" + "  ".repeat(1) + "config:\n" + nestedYaml(5_000),
                "memory: !!java.net.URL [\"http://example.com\"]", "memory:\n  provider: !!java.lang.Runtime {}",
                "memory:\n  provider: !!binary AAAA", "memory:\n  <<: *missing", "base: &b {provider: in-memory}\nmemory:\n  <<: *b",
                "memory:\n  provider: ${SELF}", "memory:\n  provider: ${PING}", "memory:\n  provider: ${UNSET_VARIABLE}",
                "memory:\n  provider: ${", "memory:\n  provider: $${PROJECT_NAME}", "memory:\n  project: ${HUGE}",
                "memory:\n  project: ${NUL}", "memory:\n  provider: in-memory\n  project: ../../escape",
                "memory:\n  provider: in-memory\n  project: \"a\\u0000b\"", "memory:\n  provider: in-memory\n  config:\n    tombstones: [1]",
                "memory:\n  provider: in-memory\n  config:\n    embedding: ${HUGE}", "memory:\n  provider: \"\\ud800\"",
                "memory:\n  provider: in-memory\n  provider: file", "? [a, b]\n: c", "memory:\n  ? {a: b}\n  : c", "---\n---\n---",
                "memory: {provider: in-memory}\n---\nmemory: {provider: file}", "%YAML 9.9\n---\nmemory: {}", "\ufeffmemory: {}",
                "memory:\n\tprovider: in-memory", "memory: [provider, in-memory]", "memory: 1e999999", "memory: .nan", "",
                "\u0000", "memory:\n  provider: \"" + "x".repeat(64 * 1024) + "\"", "memory:\n  provider: in-memory\n  config:\n    "
                        + "k".repeat(100_000) + ": 1");
    }

    private static String nestedYaml(int depth) {
        StringBuilder yaml = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            yaml.append("  ".repeat(i + 2)).append("k:\n");
        }
        return yaml.append("  ".repeat(depth + 2)).append("v\n").toString();
    }

    @Test
    void hostile_and_mutated_config_files_open_or_fail_with_a_configuration_exception() throws IOException {
        for (String text : hostileFiles()) {
            tryConfig(text.getBytes(StandardCharsets.UTF_8), "hostile file starting '" + shorten(text) + "'");
        }
        tryConfig(new byte[] {'m', 'e', 'm', 'o', 'r', 'y', ':', ' ', (byte) 0xC3, (byte) 0x28}, "invalid UTF-8");
        tryConfig(new byte[] {(byte) 0xFF, (byte) 0xFE, 0, 0}, "a UTF-32 byte order mark");
        tryConfig(new byte[] {'m', ':', ' ', (byte) 0xED, (byte) 0xA0, (byte) 0x80}, "an encoded surrogate");
        long seed = FuzzInputs.seed();
        int tries = Reliability.count("fuzz.config", 100, 20_000);
        Gen<Integer> at = Gen.between(0, VALID.length());
        Gen<Integer> cut = Gen.between(0, 8);
        Gen<String> insert = Gen.oneOf(FuzzInputs.text(6), Gen.of("&a ", "*a", "<<: ", "${", "}", "${PROJECT_NAME}", "!!str ",
                "? ", ": ", "- ", "\n  ", "\t", "'", "\"", "#", "|\n", ">-\n", "---\n", "[", "{"));
        Gen<String> edit = random -> {
            int from = at.next(random);
            int length = cut.next(random);
            return VALID.substring(0, from) + insert.next(random) + VALID.substring(Math.min(VALID.length(), from + length));
        };
        List<String> failures = new ArrayList<>();
        FuzzInputs.sample(edit, seed, tries, text -> {
            try {
                tryConfig(text.getBytes(StandardCharsets.UTF_8), "edited file '" + text + "'");
            } catch (IOException e) {
                failures.add(e.toString());
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + " (replay with -Dforge.fuzz.seed=" + seed + ")", e);
            }
        });
        assertThat(failures).isEmpty();
        Reliability.report("fuzz", "config", "inputs tried", tried);
        Reliability.report("fuzz", "config", "typed rejections", rejected);
        assertThat(rejected).as("some inputs must be refused").isPositive().isLessThan(tried);
    }

    private void tryConfig(byte[] content, String what) throws IOException {
        Path file = project.resolve(".forge/config.yaml");
        Files.createDirectories(file.getParent());
        Files.write(file, content);
        tried++;
        Memories.Builder builder = Memories.builder().projectDirectory(project).environment(env)
                .userHome(root.resolve("no-home")).plugins(false);
        try {
            builder.resolve(ProviderRegistry.load());
            try (MemoryProvider provider = builder.open()) {
                provider.set("k", "v", Scope.PROJECT);
                assertThat(provider.get("k", Scope.PROJECT).orElseThrow().value()).isEqualTo("v");
            }
        } catch (MemoryException e) {
            rejected++;
            assertThat(e.getMessage()).as("the message for " + what).isNotBlank().doesNotContain("h".repeat(1000));
        } catch (Throwable e) {
            fail("The " + what + " threw " + e.getClass().getName() + " instead of a MemoryException: " + e.getMessage(), e);
        }
    }

    private static String shorten(String text) {
        String start = text.length() > 40 ? text.substring(0, 40) : text;
        return start.replace("\n", "\\n").replace("\u0000", "\\0");
    }
}
