package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Capability;
import dev.forge.memory.EntryRef;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Keyword search: matching, ranking, scores, threshold, limit, scopes and filters.
 *
 * <p>Written to hold for any reasonable engine (BM25 in Lucene or SQLite FTS5, Neo4j full-text, the
 * in-memory scorer): documents are clearly separated and of equal length where ranking matters, and no test
 * depends on exact score values. The refusal where keyword search is missing lives in
 * {@link SemanticSearchContract}, since this whole class needs the capability.
 */
@RequiresCapability(Capability.KEYWORD_SEARCH)
public abstract class KeywordSearchContract extends ContractSupport {

    // ---------------------------------------------------------------- matching

    @Test
    void word_in_the_value_is_found() {
        put("note:db", "We chose PostgreSQL for the billing service.");
        put("note:ui", "The dashboard uses a dark theme.");
        assertThat(hitKeys(search("billing"))).containsExactly("note:db");
    }

    @Test
    void word_in_the_key_is_found() {
        put("release-checklist", "Steps to follow before shipping.");
        put("other", "Nothing about lists here.");
        assertThat(hitKeys(search("checklist"))).containsExactly("release-checklist");
    }

    @Test
    void word_in_a_tag_is_found() {
        put("cluster-notes", "Node pools and autoscaling.", List.of("kubernetes", "ops"), Map.of());
        put("other", "Unrelated text.", List.of("frontend"), Map.of());
        assertThat(hitKeys(search("kubernetes"))).containsExactly("cluster-notes");
    }

    @Test
    void search_ignores_case() {
        put("db", "PostgreSQL Replication setup");
        put("other", "Unrelated text.");
        assertThat(hitKeys(search("postgresql"))).containsExactly("db");
        assertThat(hitKeys(search("REPLICATION"))).containsExactly("db");
        assertThat(hitKeys(search("pOsTgReSqL rEpLiCaTiOn"))).containsExactly("db");
    }

    @Test
    void no_match_gives_an_empty_list() {
        put("a", "apples and pears");
        put("b", "bananas", List.of("fruit"), Map.of());
        assertThat(search("xylophone")).isEmpty();
    }

    @Test
    void words_match_whole_words_not_substrings() {
        put("strings", "concatenate the strings");
        put("catalog", "the catalog of parts");
        assertThat(search("cat")).isEmpty();
        assertThat(hitKeys(search("catalog"))).containsExactly("catalog");
    }

    // ---------------------------------------------------------------- ranking and scores

    @Test
    void entry_with_every_query_term_ranks_above_entries_with_only_some() {
        seedRanked();
        List<Hit> hits = search("orbit lander thruster");
        assertThat(hitKeys(hits)).as("entries holding some of the terms are found too")
                .containsExactlyInAnyOrder("doc-full", "doc-two", "doc-one");
        assertThat(hits.get(0).entry().key()).isEqualTo("doc-full");
        assertThat(hits.get(0).score()).isGreaterThan(hits.get(1).score());
    }

    @Test
    void hits_are_sorted_by_score_descending_with_scores_in_range() {
        seedRanked();
        List<Hit> hits = search("orbit lander thruster");
        assertThat(hits).hasSize(3);
        assertThat(hits).allSatisfy(hit -> assertThat(hit.score()).isGreaterThan(0.0).isLessThanOrEqualTo(1.0));
        assertThat(hits).extracting(Hit::score).isSortedAccordingTo((a, b) -> Double.compare(b, a));
        assertThat(hitKeys(hits)).containsExactly("doc-full", "doc-two", "doc-one");
    }

    @Test
    void equal_scores_are_ordered_by_key() {
        // identical values under keys of one shape give identical scores in any engine; the keys end in digits,
        // not letters, since a letter such as "a" is a stop word that some engines drop, changing the length
        for (String key : List.of("tie-3", "tie-1", "tie-4", "tie-2")) {
            put(key, "identical zephyr text");
        }
        List<Hit> hits = search("zephyr");
        assertThat(hits).hasSize(4);
        assertThat(hits).extracting(Hit::score).as("scores of identical entries").containsOnly(hits.get(0).score());
        assertThat(hitKeys(hits)).containsExactly("tie-1", "tie-2", "tie-3", "tie-4");
        assertThat(hitKeys(provider.search(SearchRequest.builder("zephyr").limit(2).build()))).containsExactly("tie-1", "tie-2");
    }

    @Test
    void limit_keeps_the_best_hits() {
        seedRanked();
        put("doc-more", "orbit lander spare parts inventory list");
        assertThat(provider.search(SearchRequest.builder("orbit lander thruster").limit(1).build()))
                .extracting(h -> h.entry().key()).containsExactly("doc-full");
        assertThat(hitKeys(provider.search(SearchRequest.builder("orbit lander thruster").limit(2).build())))
                .containsExactly("doc-full", "doc-two");
    }

    @Test
    void default_limit_is_ten() {
        for (int i = 1; i <= 12; i++) {
            put(String.format("doc-%02d", i), "shared harbour word");
        }
        assertThat(search("harbour")).hasSize(SearchRequest.DEFAULT_LIMIT);
        assertThat(provider.search(SearchRequest.builder("harbour").limit(50).build())).hasSize(12);
    }

    @Test
    void threshold_excludes_lower_scores_and_keeps_equal_ones() {
        seedRanked();
        List<Hit> all = search("orbit lander thruster");
        int lastOfTop = firstDrop(all);
        double between = (all.get(lastOfTop).score() + all.get(lastOfTop + 1).score()) / 2;

        List<Hit> top = provider.search(SearchRequest.builder("orbit lander thruster").threshold(between).build());
        assertThat(hitKeys(top)).containsExactlyElementsOf(hitKeys(all.subList(0, lastOfTop + 1)));
        assertThat(top).allSatisfy(hit -> assertThat(hit.score()).isGreaterThanOrEqualTo(between));

        double lowest = all.get(all.size() - 1).score();
        assertThat(hitKeys(provider.search(SearchRequest.builder("orbit lander thruster").threshold(lowest).build())))
                .as("the threshold is inclusive").containsExactlyElementsOf(hitKeys(all));
    }

    // ---------------------------------------------------------------- scopes and filters

    @Test
    void search_looks_only_in_the_given_scopes() {
        provider.set("in-session", "walrus facts", Scope.SESSION);
        put("in-project", "walrus facts");
        provider.set("in-global", "walrus facts", Scope.GLOBAL);
        assertThat(hitKeys(provider.search(SearchRequest.builder("walrus").scopes(Scope.PROJECT, Scope.GLOBAL).build())))
                .containsExactlyInAnyOrder("in-project", "in-global");
        assertThat(hitKeys(provider.search(SearchRequest.builder("walrus").scopes(Scope.SESSION).build())))
                .containsExactly("in-session");
    }

    @Test
    void same_key_in_several_scopes_gives_one_hit_each_ties_ordered_by_scope() {
        provider.set("shared-key", "walrus facts", Scope.GLOBAL);
        put("shared-key", "walrus facts");
        provider.set("shared-key", "walrus facts", Scope.SESSION);
        List<Hit> hits = search("walrus");
        assertThat(hits).extracting(h -> h.entry().ref()).containsExactlyInAnyOrder(
                EntryRef.of("shared-key", Scope.SESSION), EntryRef.of("shared-key", Scope.PROJECT),
                EntryRef.of("shared-key", Scope.GLOBAL));
        // Identical documents score the same in most engines, and ties go by key then scope (SESSION, PROJECT,
        // GLOBAL). An engine whose statistics differ per scope may score them apart: then the score decides first.
        Comparator<Hit> byScoreThenScope = Comparator.comparingDouble(Hit::score).reversed()
                .thenComparing(h -> h.entry().scope());
        assertThat(hits).as("hits with scores %s", hits.stream().map(Hit::score).toList())
                .isSortedAccordingTo(byScoreThenScope);
    }

    @Test
    void tag_and_metadata_filters_restrict_hits() {
        put("java-urgent", "walrus facts", List.of("urgent", "java"), Map.of("lang", "java", "level", 2));
        put("java-later", "walrus facts", List.of("later"), Map.of("lang", "java", "level", 2));
        put("kotlin-urgent", "walrus facts", List.of("urgent"), Map.of("lang", "kotlin", "level", 2));
        put("no-metadata", "walrus facts", List.of("urgent", "java"), Map.of());
        assertThat(hitKeys(provider.search(SearchRequest.builder("walrus").tag("urgent").build())))
                .containsExactlyInAnyOrder("java-urgent", "kotlin-urgent", "no-metadata");
        assertThat(hitKeys(provider.search(SearchRequest.builder("walrus").tag("urgent").tag("java").build())))
                .containsExactlyInAnyOrder("java-urgent", "no-metadata");
        assertThat(hitKeys(provider.search(SearchRequest.builder("walrus").metadata("lang", "java").build())))
                .containsExactlyInAnyOrder("java-urgent", "java-later");
        assertThat(hitKeys(provider.search(SearchRequest.builder("walrus").tag("urgent").metadata("lang", "java")
                .metadata("level", 2L).build()))).containsExactly("java-urgent");
        // numbers compare by value, as in queries
        assertThat(hitKeys(provider.search(SearchRequest.builder("walrus").tag("urgent").metadata("level", 2.0).build())))
                .containsExactlyInAnyOrder("java-urgent", "kotlin-urgent");
        assertThat(provider.search(SearchRequest.builder("walrus").metadata("lang", "go").build())).isEmpty();
    }

    @Test
    void time_filters_restrict_hits() {
        MemoryEntry old = put("old", "walrus facts");
        clock.advance(Duration.ofHours(1));
        MemoryEntry recent = put("recent", "walrus facts");
        assertThat(hitKeys(provider.search(SearchRequest.builder("walrus").updatedAfter(old.updatedAt()).build())))
                .containsExactly("recent");
        assertThat(hitKeys(provider.search(SearchRequest.builder("walrus").updatedBefore(recent.updatedAt()).build())))
                .containsExactly("old");
    }

    // ---------------------------------------------------------------- changes and isolation

    @Test
    void updated_entry_is_found_by_its_new_text_not_its_old_text() {
        put("note", "apples bananas", List.of("orchard"), Map.of());
        put("note", "cherries dates", List.of("market"), Map.of());
        assertThat(search("apples")).isEmpty();
        assertThat(search("orchard")).isEmpty();
        List<Hit> hits = search("cherries");
        assertThat(hitKeys(hits)).containsExactly("note");
        assertThat(hits.get(0).entry().version()).isEqualTo(2);
        assertThat(hits.get(0).entry().value()).isEqualTo("cherries dates");
        assertThat(hitKeys(search("market"))).containsExactly("note");
    }

    @Test
    void deleted_and_cleared_entries_are_not_found() {
        put("kept", "zeppelin notes");
        put("deleted", "zeppelin notes");
        provider.set("cleared", "zeppelin notes", Scope.SESSION);
        provider.delete("deleted", Scope.PROJECT);
        provider.clear(Scope.SESSION);
        assertThat(hitKeys(search("zeppelin"))).containsExactly("kept");
    }

    @Test
    void other_projects_and_sessions_are_never_found() {
        MemoryProvider otherProject = open("project-b", "session-2");
        MemoryProvider otherSession = open(PROJECT, "session-2");
        provider.set("mine-session", "marmalade recipe", Scope.SESSION);
        otherProject.set("other-project", "marmalade recipe", Scope.PROJECT);
        otherProject.set("other-project-session", "marmalade recipe", Scope.SESSION);
        otherProject.set("shared-global", "marmalade recipe", Scope.GLOBAL);
        otherSession.set("other-session", "marmalade recipe", Scope.SESSION);
        otherSession.set("same-project", "marmalade recipe", Scope.PROJECT);
        assertThat(hitKeys(search("marmalade"))).containsExactlyInAnyOrder("mine-session", "shared-global", "same-project");
        assertThat(hitKeys(provider.search(SearchRequest.builder("marmalade").scopes(Scope.SESSION).build())))
                .containsExactly("mine-session");
    }

    // ---------------------------------------------------------------- awkward text

    @Test
    void punctuation_in_the_query_does_not_break_it() {
        put("target", "The quoted parens example");
        put("other", "Nothing relevant here");
        List<Hit> hits = search("C++ \"quoted\" (parens) AND OR NOT * ? : -");
        assertThat(hitKeys(hits)).contains("target").doesNotContain("other");
        assertThat(hits.get(0).entry().key()).isEqualTo("target");
    }

    @Test
    void search_engine_syntax_in_the_query_is_treated_as_text() {
        put("target", "The quoted parens example");
        put("other", "Nothing relevant here");
        List<String> queries = List.of("value:parens", "parens*", "-parens", "+parens", "parens~2", "parens^3", "\"parens",
                "parens)", "[parens TO z]", "{parens}", "parens/", "\\parens", "parens && ||", "NEAR(parens)", "parens'",
                "parens'; DROP TABLE memories; --", "parens%", "parens_", "^parens$", "parens OR", "AND parens", "NOT parens");
        for (String query : queries) {
            assertThat(hitKeys(search(query))).as("search for %s", query).contains("target").doesNotContain("other");
        }
        assertThat(everything()).hasSize(2);
    }

    @Test
    void query_without_any_word_finds_nothing() {
        put("target", "The quoted parens example");
        for (String query : List.of("?", "*", "\"\"", "() - :", "&& || !")) {
            assertThat(search(query)).as("search for %s", query).isEmpty();
        }
    }

    @Test
    void unicode_words_are_found_ignoring_case() {
        put("japanese", "東京 の 夜景");
        put("greek", "Καλημέρα κόσμε");
        put("cyrillic", "Привет мир");
        put("french", "une crème brûlée");
        put("german", "Straße und Größe");
        put("ascii", "plain english words");
        assertThat(hitKeys(search("東京"))).containsExactly("japanese");
        assertThat(hitKeys(search("καλημέρα"))).containsExactly("greek");
        assertThat(hitKeys(search("ПРИВЕТ"))).containsExactly("cyrillic");
        assertThat(hitKeys(search("мир"))).containsExactly("cyrillic");
        assertThat(hitKeys(search("brûlée"))).containsExactly("french");
        assertThat(hitKeys(search("Crème"))).containsExactly("french");
        assertThat(hitKeys(search("größe"))).containsExactly("german");
    }

    @Test
    void hits_carry_the_full_entry_as_get_returns_it() {
        put("entry", "first walrus", List.of("a"), Map.of("n", 1));
        clock.advance(Duration.ofMinutes(1));
        put("entry", "# Walrus\n\nsecond walrus text", List.of("zoo", "animals"), Map.of("n", 2, "nested", Map.of("ok", true)));
        provider.set("entry", "walrus in global", Scope.GLOBAL);
        List<Hit> hits = search("walrus");
        assertThat(hits).extracting(Hit::entry).containsExactlyInAnyOrder(
                provider.get("entry", Scope.PROJECT).orElseThrow(), provider.get("entry", Scope.GLOBAL).orElseThrow());
    }

    // ---------------------------------------------------------------- helpers

    /**
     * Entries of equal length holding all three terms of "orbit lander thruster" once, two of them twice each, and
     * one of them once, among unrelated entries (so that no term is common enough to lose its weight).
     */
    private void seedRanked() {
        put("doc-full", "orbit lander thruster checked before launch");
        put("doc-two", "orbit lander orbit lander telemetry archived");
        put("doc-one", "orbit insertion burn planned next month");
        put("doc-budget", "quarterly budget review notes for finance");
        put("doc-garden", "garden roses need water every morning");
        put("doc-printer", "the printer downstairs is jammed again");
        put("doc-lunch", "team lunch moved to thursday at noon");
    }

    private List<Hit> search(String text) {
        return provider.search(SearchRequest.keyword(text));
    }
}
