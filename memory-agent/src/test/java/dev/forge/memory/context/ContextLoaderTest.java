package dev.forge.memory.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.Capability;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.testing.Stores;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** ContextLoader on a real in-memory store: format, ordering, budget, paging, truncation, relevance. */
class ContextLoaderTest {

    private final MemoryProvider provider = Stores.inMemory(new Stores.Ticking());

    @AfterEach
    void close() {
        provider.close();
    }

    private static List<String> keys(List<ContextEntry> entries) {
        return entries.stream().map(e -> e.entry().key()).toList();
    }

    @Test
    void the_default_estimator_counts_code_points_over_3_5_rounded_up() {
        assertThat(TokenEstimator.DEFAULT.estimate("")).isZero();
        assertThat(TokenEstimator.DEFAULT.estimate("1234567")).isEqualTo(2);
        assertThat(TokenEstimator.DEFAULT.estimate("12345678")).isEqualTo(3);
        assertThat(TokenEstimator.DEFAULT.estimate("\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00")).isEqualTo(2);
        assertThatThrownBy(() -> TokenEstimator.charsPerToken(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_page_has_a_heading_per_non_empty_category_and_memories_newest_first() {
        provider.set("decision:db", "Use SQLite.\nWAL mode.", Scope.PROJECT);
        provider.set("learning:git", "Rebase before merge.", Scope.GLOBAL);
        provider.set("todo", "Write docs.", Scope.PROJECT);
        provider.set("note", "Scratch.", Scope.SESSION, List.of(), Map.of("category", "Scratchpad"));
        provider.set("decision:api", "REST.", Scope.PROJECT);

        ContextPages pages = ContextLoader.builder().provider(provider).build().load();

        assertThat(pages.size()).isEqualTo(1);
        assertThat(pages.selected()).isEqualTo(5);
        ContextPage page = pages.first();
        assertThat(page.text()).isEqualTo("""
                # Memory context

                ## decision

                - `decision:api` (project, 2026-01-01)
                  REST.
                - `decision:db` (project, 2026-01-01)
                  Use SQLite.
                  WAL mode.

                ## Scratchpad

                - `note` (session, 2026-01-01)
                  Scratch.

                ## project

                - `todo` (project, 2026-01-01)
                  Write docs.

                ## learning

                - `learning:git` (global, 2026-01-01)
                  Rebase before merge.
                """);
        assertThat(keys(page.entries())).containsExactly("decision:api", "decision:db", "note", "todo", "learning:git");
        assertThat(page.entries()).extracting(ContextEntry::category)
                .containsExactly("decision", "decision", "Scratchpad", "project", "learning");
        assertThat(page.tokens()).isEqualTo(TokenEstimator.DEFAULT.estimate(page.text()));
        assertThat(page.hasNext()).isFalse();
        assertThat(pages.next(page)).isEmpty();
    }

    @Test
    void only_the_chosen_scopes_are_read_and_an_empty_selection_is_one_empty_page() {
        provider.set("a", "in project", Scope.PROJECT);
        assertThat(keys(ContextLoader.builder().provider(provider).scopes(Scope.PROJECT).build().load().first().entries()))
                .containsExactly("a");

        ContextPages none = ContextLoader.builder().provider(provider).scopes(Scope.GLOBAL).build().load();

        assertThat(none.size()).isEqualTo(1);
        assertThat(none.first().text()).isEmpty();
        assertThat(none.first().isEmpty()).isTrue();
        assertThat(none.first().hasNext()).isFalse();
    }

    @Test
    void every_page_fits_the_budget_and_the_pages_hold_every_memory_exactly_once_in_rank_order() {
        for (int i = 0; i < 40; i++) {
            provider.set((i % 2 == 0 ? "even:" : "odd:") + i, ("memory number " + i + ". ").repeat(i % 7 + 1), Scope.PROJECT);
        }
        ContextLoader loader = ContextLoader.builder().provider(provider).budget(60).build();
        List<String> ranked = loader.select().stream().map(MemoryEntry::key).toList();

        ContextPages pages = loader.load();

        assertThat(pages.size()).isGreaterThan(3);
        List<String> seen = new ArrayList<>();
        int lastRank = -1;
        Optional<ContextPage> page = Optional.of(pages.first());
        int number = 0;
        while (page.isPresent()) {
            ContextPage current = page.get();
            number++;
            assertThat(current.number()).isEqualTo(number);
            assertThat(current.pageCount()).isEqualTo(pages.size());
            assertThat(TokenEstimator.DEFAULT.estimate(current.text())).as("page %d", number).isLessThanOrEqualTo(60);
            assertThat(current.entries()).isNotEmpty().noneMatch(ContextEntry::truncated);
            Set<Integer> ranks = new HashSet<>();
            for (ContextEntry entry : current.entries()) {
                ranks.add(ranked.indexOf(entry.entry().key()));
                assertThat(current.text()).contains("`" + entry.entry().key() + "`");
            }
            assertThat(ranks.stream().mapToInt(Integer::intValue).min().getAsInt()).as("pages follow the ranking")
                    .isEqualTo(lastRank + 1);
            lastRank = ranks.stream().mapToInt(Integer::intValue).max().getAsInt();
            assertThat(ranks).hasSize(current.entries().size());
            assertThat(lastRank - ranks.stream().mapToInt(Integer::intValue).min().getAsInt() + 1).isEqualTo(ranks.size());
            seen.addAll(keys(current.entries()));
            assertThat(current.hasNext()).isEqualTo(number < pages.size());
            page = pages.next(current);
        }
        assertThat(number).isEqualTo(pages.size());
        assertThat(seen).hasSize(40).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(ranked);
        assertThat(loader.page(2)).isEqualTo(pages.page(2));
        assertThatThrownBy(() -> pages.page(pages.size() + 1)).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("no context page " + (pages.size() + 1));
    }

    @Test
    void a_memory_larger_than_the_budget_is_cut_to_fit_with_a_visible_marker_and_paging_moves_on() {
        String big = "abcdefghij".repeat(200);
        provider.set("small:1", "first small", Scope.PROJECT);
        provider.set("big", big, Scope.PROJECT);
        provider.set("small:2", "second small", Scope.PROJECT);

        ContextPages pages = ContextLoader.builder().provider(provider).budget(100).build().load();

        assertThat(pages.size()).isEqualTo(3);
        assertThat(keys(pages.page(1).entries())).containsExactly("small:2");
        ContextPage cut = pages.page(2);
        assertThat(keys(cut.entries())).containsExactly("big");
        assertThat(cut.entries().get(0).truncated()).isTrue();
        assertThat(cut.entries().get(0).entry().value()).as("the entry itself is whole").isEqualTo(big);
        Matcher marker = Pattern.compile("\\[truncated: (\\d+) of 2000 characters shown]").matcher(cut.text());
        assertThat(marker.find()).as(cut.text()).isTrue();
        int shown = Integer.parseInt(marker.group(1));
        assertThat(cut.text()).contains("  " + big.substring(0, shown) + "\n  [truncated: ");
        assertThat(TokenEstimator.DEFAULT.estimate(cut.text())).isLessThanOrEqualTo(100);
        String oneMore = cut.text().replace(big.substring(0, shown) + "\n", big.substring(0, shown + 1) + "\n")
                .replace("[truncated: " + shown + " of", "[truncated: " + (shown + 1) + " of");
        assertThat(TokenEstimator.DEFAULT.estimate(oneMore)).as("as much as fits is shown").isGreaterThan(100);
        assertThat(keys(pages.page(3).entries())).containsExactly("small:1");
        assertThat(pages.page(3).entries().get(0).truncated()).isFalse();
    }

    @Test
    void with_query_text_memories_come_in_the_order_of_the_providers_search() {
        provider.set("a", "alpha beta gamma", Scope.PROJECT);
        provider.set("b", "alpha", Scope.PROJECT);
        provider.set("c", "delta", Scope.PROJECT);
        provider.set("d", "beta alpha", Scope.GLOBAL);
        List<String> expected = provider.search(SearchRequest.builder("alpha beta").limit(SearchRequest.MAX_LIMIT).build())
                .stream().map(h -> h.entry().key()).toList();

        List<MemoryEntry> selected = ContextLoader.builder().provider(provider).query("alpha beta").build().select();

        assertThat(expected).containsExactlyInAnyOrder("a", "b", "d");
        assertThat(selected).extracting(MemoryEntry::key).containsExactlyElementsOf(expected);
    }

    @Test
    void without_keyword_search_the_query_filters_keys_values_and_tags_by_words_matched_then_newest() {
        provider.set("k1", "alpha beta", Scope.PROJECT);
        provider.set("k2", "alpha only", Scope.PROJECT);
        provider.set("k3", "zzz", Scope.PROJECT, List.of("beta"), Map.of());
        provider.set("k4", "nothing here", Scope.PROJECT);
        provider.set("alpha:k5", "none", Scope.SESSION);
        MemoryProvider plain = Stores.without(provider, Capability.KEYWORD_SEARCH);
        assertThat(plain.capabilities()).doesNotContain(Capability.KEYWORD_SEARCH);

        List<MemoryEntry> selected = ContextLoader.builder().provider(plain).query("Alpha, BETA!").build().select();

        assertThat(selected).extracting(MemoryEntry::key).containsExactly("k1", "alpha:k5", "k3", "k2");
    }

    @Test
    void a_budget_that_cannot_hold_one_heading_is_refused_with_the_key() {
        provider.set("k".repeat(300), "value", Scope.PROJECT);
        assertThatThrownBy(() -> ContextLoader.builder().provider(provider).budget(40).build().load())
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("40 tokens").hasMessageContaining("kkk");
        assertThatThrownBy(() -> ContextLoader.builder().budget(19)).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("at least 20");
        assertThatThrownBy(() -> ContextLoader.builder().query(" ")).isInstanceOf(InvalidRequestException.class);
    }
}
