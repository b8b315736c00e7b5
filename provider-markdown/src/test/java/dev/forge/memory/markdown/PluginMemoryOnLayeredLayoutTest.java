package dev.forge.memory.markdown;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.support.LayeredKey;
import dev.forge.memory.lifecycle.MemoryDocument;
import dev.forge.memory.lifecycle.PluginMemory;
import dev.forge.memory.lifecycle.PruneAction;
import dev.forge.memory.lifecycle.PruneReport;
import dev.forge.memory.lifecycle.PruneRequest;
import dev.forge.memory.lifecycle.Staleness;
import dev.forge.memory.lifecycle.StalenessEntry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lifecycle API on a plugin memory directory as the plugin left it: {@link PluginMemory} over the markdown
 * provider in {@code layout: layered} reads the plugin's files, dates them by their first line, and prunes them into
 * the files the plugin itself would have written.
 */
class PluginMemoryOnLayeredLayoutTest {

    private static final Clock TODAY = Clock.fixed(Instant.parse("2026-02-10T12:00:00Z"), ZoneOffset.UTC);
    private static final String REVIEWS = "skills/python-code-review/my-api/review_history";

    @TempDir
    Path base;

    private Path file(String key) {
        return base.resolve("memory").resolve(key + ".md");
    }

    private void write(String key, String content) throws IOException {
        Files.createDirectories(file(key).getParent());
        Files.writeString(file(key), content, StandardCharsets.UTF_8);
    }

    private static String reviews(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> "## Review #" + i + "\n- finding " + i + "\n")
                .collect(Collectors.joining("\n"));
    }

    @Test
    void the_plugins_own_files_are_read_dated_and_pruned_in_place() throws IOException {
        write(REVIEWS, "<!-- Last Updated: 2026-02-01 -->\n\n# Review History\n\n" + reviews(1, 13));
        write("projects/my-api/project_profile", "<!-- Last Updated: 2025-10-01 -->\n\n# Project Profile\n");
        write("skills/python-code-review/my-api/known_issues", "# Known Issues (no stamp)\n");
        write("skills/python-code-review/index", "# index, structural\n");

        try (MarkdownMemoryProvider markdown = Stores.open(base, LayeredLayoutTest.layered("memory"))) {
            PluginMemory plugin = PluginMemory.builder(markdown).clock(TODAY).build();

            MemoryDocument reviews = plugin.read(LayeredKey.skill("python-code-review", "my-api", "review_history")).orElseThrow();
            assertThat(reviews.value()).isEqualTo(Files.readString(file(REVIEWS)));
            assertThat(reviews.staleness()).isEqualTo(Staleness.FRESH);
            List<StalenessEntry> stale = plugin.getStalenessReport().stale();
            assertThat(stale).extracting(e -> e.key().key())
                    .containsExactlyInAnyOrder("projects/my-api/project_profile", "skills/python-code-review/my-api/known_issues");
            assertThat(plugin.getSkillMemory("python-code-review", "my-api")).extracting(d -> d.key().fileType())
                    .containsExactlyInAnyOrder("review_history", "known_issues");

            plugin.append(LayeredKey.skill("python-code-review", "my-api", "review_history"), "## Review #14\n- finding 14\n");

            String main = Files.readString(file(REVIEWS));
            String archive = Files.readString(file(REVIEWS + "_archive"));
            assertThat(main).startsWith("<!-- Last Updated: 2026-02-10 -->\n").contains("# Review History")
                    .doesNotContain("## Review #3\n").contains("## Review #4\n").endsWith("## Review #14\n- finding 14\n");
            assertThat(archive).startsWith("<!-- Last Updated: 2026-02-10 -->\n").contains(reviews(1, 3).strip())
                    .doesNotContain("## Review #4\n");
            // The plugin's version before the append is kept in the history of the key.
            assertThat(markdown.requireHistory().versions(REVIEWS, dev.forge.memory.Scope.PROJECT))
                    .extracting(e -> e.value().contains("## Review #1\n")).containsExactly(true, false);

            // An append prunes what was there, then appends (the adapter's example: 11 reviews after #14 lands); a
            // prune on demand takes the document to 10, and a second one finds nothing to do.
            PruneReport onDemand = plugin.prune(PruneRequest.all());
            assertThat(onDemand.actions()).extracting(PruneAction::kind).containsExactly(PruneAction.Kind.ARCHIVED);
            assertThat(Files.readString(file(REVIEWS + "_archive"))).contains(reviews(1, 4).strip());
            assertThat(Files.readString(file(REVIEWS))).doesNotContain("## Review #4\n").contains("## Review #5\n");
            assertThat(plugin.prune(PruneRequest.all()).actions()).isEmpty();
        }
        try (MarkdownMemoryProvider reopened = Stores.open(base, LayeredLayoutTest.layered("memory"))) {
            assertThat(reopened.get(REVIEWS + "_archive", dev.forge.memory.Scope.PROJECT).orElseThrow().value())
                    .isEqualTo(Files.readString(file(REVIEWS + "_archive")));
        }
    }
}
