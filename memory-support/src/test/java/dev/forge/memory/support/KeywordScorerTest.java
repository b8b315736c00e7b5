package dev.forge.memory.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Hit;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KeywordScorerTest {

    @Test
    void words_match_by_their_english_stem() {
        List<MemoryEntry> entries = List.of(
                entry("deploy", "We deployed the billing service on Friday."),
                entry("other", "The dashboard uses a dark theme."));
        assertThat(keys(rank("deploys", entries))).containsExactly("deploy");
        assertThat(keys(rank("deploying", entries))).containsExactly("deploy");
    }

    @Test
    void a_rare_term_weighs_more_than_a_common_one() {
        List<MemoryEntry> entries = new ArrayList<>();
        entries.add(entry("rare", "the walrus sleeps"));
        entries.add(entry("common", "harbour harbour harbour"));
        for (int i = 0; i < 8; i++) {
            entries.add(entry("filler-" + i, "the harbour at dawn number " + i));
        }
        assertThat(keys(rank("walrus harbour", entries)).get(0)).isEqualTo("rare");
    }

    @Test
    void question_words_do_not_outrank_the_words_that_matter() {
        List<MemoryEntry> entries = List.of(
                entry("D1:1", "Caroline: I researched adoption agencies last week."),
                entry("D1:2", "Melanie: What did you do? What did he say?"),
                entry("D1:3", "Melanie: Nice weather today."));
        assertThat(keys(rank("What did Caroline research?", entries)).get(0)).isEqualTo("D1:1");
    }

    @Test
    void words_of_keys_and_tags_are_split_at_colons() {
        List<MemoryEntry> entries = List.of(
                new MemoryEntry("note:db", "Replicas in two zones.", Scope.PROJECT, List.of("lang:java"), Map.of(),
                        Instant.EPOCH, Instant.EPOCH, 1),
                entry("other", "Nothing here."));
        assertThat(keys(rank("db", entries))).containsExactly("note:db");
        assertThat(keys(rank("java", entries))).containsExactly("note:db");
    }

    @Test
    void a_query_of_stop_words_only_still_finds_what_holds_them() {
        List<MemoryEntry> entries = List.of(entry("motto", "It is what it is."), entry("other", "Walrus facts."));
        assertThat(keys(rank("what is it", entries))).containsExactly("motto");
    }

    @Test
    void text_in_other_scripts_and_accented_words_are_found() {
        List<MemoryEntry> entries = List.of(
                entry("japanese", "東京 の 夜景"),
                entry("french", "une crème brûlée au café"),
                entry("german", "Straße und Größe"),
                entry("ascii", "plain english words"));
        assertThat(keys(rank("東京", entries))).containsExactly("japanese");
        assertThat(keys(rank("Crème", entries))).containsExactly("french");
        assertThat(keys(rank("the café", entries))).as("a stop word beside an accented word").containsExactly("french");
        assertThat(keys(rank("GRÖSSE größe", entries))).containsExactly("german");
    }

    @Test
    void scores_lie_in_the_open_unit_interval_and_the_threshold_is_a_share_of_a_perfect_match() {
        List<MemoryEntry> entries = List.of(
                entry("full", "orbit lander thruster"),
                entry("some", "orbit lander telemetry"),
                entry("one", "orbit insertion burn"),
                entry("none", "garden roses"));
        List<Hit> hits = rank("orbit lander thruster", entries);
        assertThat(keys(hits)).containsExactly("full", "some", "one");
        assertThat(hits).allSatisfy(h -> assertThat(h.score()).isGreaterThan(0.0).isLessThan(1.0));
        double between = (hits.get(0).score() + hits.get(1).score()) / 2;
        SearchRequest strict = SearchRequest.builder("orbit lander thruster").threshold(between).build();
        assertThat(keys(KeywordScorer.rank(strict, entries))).containsExactly("full");
    }

    @Test
    void statistics_come_from_the_entries_the_search_considers() {
        // in PROJECT "walrus" is in every entry, so "tusk" decides; GLOBAL entries are not considered
        List<MemoryEntry> entries = new ArrayList<>();
        entries.add(entry("a", "walrus walrus walrus"));
        entries.add(entry("b", "walrus tusk"));
        for (int i = 0; i < 5; i++) {
            entries.add(new MemoryEntry("g" + i, "tusk tusk", Scope.GLOBAL, List.of(), Map.of(), Instant.EPOCH,
                    Instant.EPOCH, 1));
        }
        SearchRequest projectOnly = SearchRequest.builder("walrus tusk").scopes(Scope.PROJECT).build();
        assertThat(keys(KeywordScorer.rank(projectOnly, entries))).containsExactly("b", "a");
    }

    @Test
    void the_words_given_to_engines_with_their_own_analysis_are_unstemmed() {
        assertThat(KeywordScorer.terms("Deploys the note:db, Größe!")).containsExactly("deploys", "the", "note", "db", "größe");
    }

    @Test
    void stop_words_are_left_out_of_word_lists_unless_nothing_else_is_left() {
        assertThat(EnglishTerms.withoutStopWords(List.of("what", "did", "caroline", "research"))).containsExactly("caroline", "research");
        assertThat(EnglishTerms.withoutStopWords(List.of("what", "is", "it"))).containsExactly("what", "is", "it");
    }

    private static List<Hit> rank(String text, List<MemoryEntry> entries) {
        return KeywordScorer.rank(SearchRequest.keyword(text), entries);
    }

    private static List<String> keys(List<Hit> hits) {
        return hits.stream().map(h -> h.entry().key()).toList();
    }

    private static MemoryEntry entry(String key, String value) {
        return EntryWrite.validate(key, value, Scope.PROJECT, List.of(), Map.of(), Limits.DEFAULT)
                .toEntry(Optional.empty(), Instant.EPOCH);
    }
}
