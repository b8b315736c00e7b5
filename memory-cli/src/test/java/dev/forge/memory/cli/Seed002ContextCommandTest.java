package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 002's memory directory (resources {@code seeds/002/}) stored with {@code set} as GLOBAL memories, one per
 * category file, then loaded with {@code context} on the default (markdown) provider.
 */
class Seed002ContextCommandTest {

    private CliHarness cli;
    private Path seeds;

    @BeforeEach
    void setUp(@TempDir Path root) throws IOException {
        cli = new CliHarness(root);
        seeds = Files.createDirectories(root.resolve("seed-002"));
        for (String name : new String[] {"decisions.md", "preferences.md", "facts.md"}) {
            try (InputStream in = getClass().getResourceAsStream("/seeds/002/" + name)) {
                Files.write(seeds.resolve(name), in.readAllBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private void store(String key, String file) {
        cli.ok("set", key, "--value-file", seeds.resolve(file).toString(), "--scope", "global",
                "--meta", "category=" + file.replace(".md", ""));
    }

    @Test
    void context_shows_only_the_non_empty_categories() {
        store("decisions", "decisions.md");
        store("preferences", "preferences.md");
        store("facts", "facts.md");

        String text = cli.ok("context").out();

        assertThat(text).contains("## decisions", "## facts", "Free-form Markdown over structured YAML",
                "Persistence tracking").doesNotContain("preferences");
    }

    @Test
    void context_consolidate_merges_over_the_threshold_and_shows_the_result() {
        store("decisions-earlier", "decisions.md");
        store("decisions", "decisions.md");
        store("preferences", "preferences.md");
        store("facts", "facts.md");
        JsonNode factsBefore = cli.ok("--json", "get", "facts", "--scope", "global").json();

        assertThat(cli.fails(ExitCodes.USAGE, "context", "--threshold", "50").err()).contains("--consolidate");
        assertThat(cli.ok("get", "decisions-earlier", "--scope", "global").out()).contains("Free-form Markdown");

        JsonNode page = cli.ok("--json", "context", "--consolidate", "--threshold", "50").json();

        JsonNode consolidation = page.path("consolidation");
        assertThat(consolidation.path("outcome").asText()).as(page.toString()).isEqualTo("merged");
        assertThat(consolidation.path("merged").get(0).path("kept").asText()).isEqualTo("decisions");
        assertThat(consolidation.path("merged").get(0).path("removed").get(0).asText()).isEqualTo("decisions-earlier");
        assertThat(page.path("text").asText().split("Free-form Markdown over structured YAML", -1)).hasSize(2);
        cli.fails(ExitCodes.NOT_FOUND, "get", "decisions-earlier", "--scope", "global");
        JsonNode kept = cli.ok("--json", "get", "decisions", "--scope", "global").json();
        assertThat(kept.path("metadata").path("supersedes").get(0).path("key").asText()).isEqualTo("decisions-earlier");
        assertThat(cli.ok("--json", "get", "facts", "--scope", "global").json()).isEqualTo(factsBefore);

        CliHarness.Result again = cli.ok("context", "--consolidate");
        assertThat(again.err()).contains("Consolidation: ").contains("not more than the threshold of 5000");
    }
}
