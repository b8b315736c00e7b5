package dev.forge.memory.context;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.consolidation.ConsolidationReport;
import dev.forge.memory.testing.Stores;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Seed 002's memory directory (resources {@code seeds/002/}: decisions, preferences, facts) loaded as prompt context:
 * only non-empty categories are shown, and consolidation at load time when asked for and over the threshold.
 */
class Seed002ContextTest {

    private final MemoryProvider provider = Stores.inMemory(new Stores.Ticking());

    @AfterEach
    void close() {
        provider.close();
    }

    static String seedFile(String name) {
        try (InputStream in = Seed002ContextTest.class.getResourceAsStream("/seeds/002/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Each category file as one GLOBAL memory (seed 002's memory is one directory for every project). */
    private void storeCategory(String key, String file) {
        provider.set(key, seedFile(file), Scope.GLOBAL, List.of(), Map.of("category", file.replace(".md", "")));
    }

    private Map<String, MemoryEntry> stored() {
        return provider.query(Query.builder().build()).stream()
                .collect(Collectors.toMap(MemoryEntry::key, Function.identity()));
    }

    @Test
    void only_non_empty_categories_get_a_heading() {
        storeCategory("decisions", "decisions.md");
        storeCategory("preferences", "preferences.md");
        storeCategory("facts", "facts.md");
        assertThat(seedFile("preferences.md")).isEmpty();

        ContextPage page = ContextLoader.builder().provider(provider).build().load().first();

        assertThat(page.text()).contains("## decisions", "## facts", "Free-form Markdown over structured YAML",
                "Persistence tracking").doesNotContain("preferences");
        assertThat(page.entries()).extracting(e -> e.entry().key()).containsExactlyInAnyOrder("decisions", "facts");
    }

    @Test
    void a_blank_memory_in_a_non_empty_category_is_left_out_too() {
        storeCategory("facts", "facts.md");
        provider.set("facts-draft", " \n\t\n", Scope.GLOBAL, List.of(), Map.of("category", "facts"));

        ContextPages pages = ContextLoader.builder().provider(provider).build().load();

        assertThat(pages.selected()).isEqualTo(1);
        assertThat(pages.first().text()).doesNotContain("facts-draft");
    }

    @Test
    void over_the_threshold_load_time_consolidation_merges_and_the_context_shows_the_result() {
        storeCategory("decisions-earlier", "decisions.md");
        storeCategory("decisions", "decisions.md");
        storeCategory("preferences", "preferences.md");
        storeCategory("facts", "facts.md");
        Map<String, MemoryEntry> before = stored();

        ContextPages pages = ContextLoader.builder().provider(provider).consolidateOver(50).build().load();

        ConsolidationReport report = pages.consolidation().orElseThrow();
        assertThat(report.outcome()).as(report.reason()).isEqualTo(ConsolidationReport.Outcome.MERGED);
        assertThat(report.merged()).singleElement().satisfies(group -> {
            assertThat(group.kept()).isEqualTo("decisions");
            assertThat(group.removed()).containsExactly("decisions-earlier");
        });
        // The store changed only as consolidation documents: the kept memory records the removed one, the rest is as it was.
        Map<String, MemoryEntry> after = stored();
        assertThat(after).doesNotContainKey("decisions-earlier");
        assertThat(after.get("facts")).isEqualTo(before.get("facts"));
        assertThat(after.get("preferences")).isEqualTo(before.get("preferences"));
        MemoryEntry kept = after.get("decisions");
        assertThat(kept.value()).isEqualTo(before.get("decisions").value());
        assertThat(kept.version()).isEqualTo(2);
        assertThat(kept.metadata().get("supersedes")).asList().singleElement()
                .satisfies(record -> assertThat(((Map<?, ?>) record).get("key")).isEqualTo("decisions-earlier"))
                .satisfies(record -> assertThat(((Map<?, ?>) record).get("value")).isEqualTo(seedFile("decisions.md")));
        assertThat(pages.first().entries()).extracting(e -> e.entry().key()).containsExactlyInAnyOrder("decisions", "facts");
        assertThat(pages.first().text().split("Free-form Markdown over structured YAML", -1)).hasSize(2);
    }

    @Test
    void load_time_consolidation_is_off_by_default_and_does_nothing_at_or_under_the_threshold() {
        storeCategory("decisions-earlier", "decisions.md");
        storeCategory("decisions", "decisions.md");
        Map<String, MemoryEntry> before = stored();

        ContextPages plain = ContextLoader.builder().provider(provider).build().load();
        assertThat(plain.consolidation()).isEmpty();
        assertThat(stored()).isEqualTo(before);

        ContextPages under = ContextLoader.builder().provider(provider).consolidateOver(100_000).build().load();
        assertThat(under.consolidation().orElseThrow().outcome()).isEqualTo(ConsolidationReport.Outcome.BELOW_THRESHOLD);
        assertThat(stored()).isEqualTo(before);
        assertThat(under.selected()).isEqualTo(2);
    }
}
