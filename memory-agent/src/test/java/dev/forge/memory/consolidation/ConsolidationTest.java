package dev.forge.memory.consolidation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.Capability;
import dev.forge.memory.EntryRef;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.consolidation.ConsolidationPlan.Merge;
import dev.forge.memory.consolidation.ConsolidationReport.Group;
import dev.forge.memory.consolidation.ConsolidationReport.Outcome;
import dev.forge.memory.context.TokenEstimator;
import dev.forge.memory.testing.Stores;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The consolidation runner with the deterministic consolidator and with hand-made plans, on a real in-memory store. */
public class ConsolidationTest {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private final MemoryProvider provider = Stores.inMemory(new Stores.Ticking());

    @AfterEach
    void close() {
        provider.close();
    }

    public static List<MemoryEntry> everything(MemoryProvider provider) {
        return provider.query(Query.builder().build());
    }

    /** The {@code supersedes} record of an entry as it was read: what a consolidation must store. */
    public static Map<String, Object> record(MemoryEntry entry) {
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("key", entry.key());
        record.put("value", entry.value());
        record.put("tags", entry.tags());
        Map<String, Object> metadata = new LinkedHashMap<>(entry.metadata());
        metadata.remove("supersedes");
        record.put("metadata", metadata);
        record.put("created_at", TIME.format(entry.createdAt()));
        record.put("updated_at", TIME.format(entry.updatedAt()));
        record.put("version", entry.version());
        return record;
    }

    private Consolidation.Builder always() {
        return Consolidation.builder().provider(provider).threshold(0);
    }

    private Map<String, MemoryEntry> fill() {
        Map<String, MemoryEntry> written = new LinkedHashMap<>();
        written.put("a", provider.set("a", "Use SQLite for storage.", Scope.PROJECT, List.of("db"), Map.of("author", "ana")));
        written.put("b", provider.set("b", "use   sqlite FOR storage.", Scope.PROJECT, List.of("storage"), Map.of()));
        written.put("c", provider.set("c", "Deploy with Docker compose on the staging host every Friday", Scope.PROJECT));
        written.put("d", provider.set("d", "Deploy with Docker compose on the staging host every Friday afternoon",
                Scope.PROJECT, List.of("deploy"), Map.of()));
        written.put("e", provider.set("e", "Unrelated fact.", Scope.PROJECT));
        written.put("f", provider.set("f", "use sqlite for storage.", Scope.PROJECT, List.of("sqlite"), Map.of()));
        written.put("g", provider.set("g", "Use SQLite for storage.", Scope.GLOBAL));
        return written;
    }

    @Test
    void exact_and_near_duplicates_merge_into_the_newest_and_supersedes_holds_the_others_exactly() {
        Map<String, MemoryEntry> before = fill();

        ConsolidationReport report = always().build().run();

        assertThat(report.outcome()).isEqualTo(Outcome.MERGED);
        assertThat(report.merged()).containsExactly(new Group(Scope.PROJECT, "f", List.of("b", "a"), ""),
                new Group(Scope.PROJECT, "d", List.of("c"), ""));
        assertThat(report.removed()).containsExactly(new EntryRef("b", Scope.PROJECT), new EntryRef("a", Scope.PROJECT),
                new EntryRef("c", Scope.PROJECT));
        assertThat(report.skipped()).isEmpty();
        assertThat(report.failures()).isEmpty();
        assertThat(report.tokens()).isEqualTo(before.values().stream().filter(e -> e.scope() == Scope.PROJECT)
                .mapToLong(e -> TokenEstimator.DEFAULT.estimate(e.value())).sum());

        assertThat(everything(provider)).extracting(MemoryEntry::key).containsExactly("d", "e", "f", "g");
        MemoryEntry f = provider.get("f", Scope.PROJECT).orElseThrow();
        assertThat(f.value()).isEqualTo("use sqlite for storage.");
        assertThat(f.tags()).containsExactly("sqlite", "storage", "db");
        assertThat(f.version()).isEqualTo(2);
        assertThat(f.metadata()).isEqualTo(Map.of("supersedes", List.of(record(before.get("b")), record(before.get("a")))));
        assertThat(((Map<?, ?>) ((List<?>) f.metadata().get("supersedes")).get(1)).get("metadata"))
                .isEqualTo(Map.of("author", "ana"));
        MemoryEntry d = provider.get("d", Scope.PROJECT).orElseThrow();
        assertThat(d.value()).isEqualTo(before.get("d").value());
        assertThat(d.metadata()).isEqualTo(Map.of("supersedes", List.of(record(before.get("c")))));
        assertThat(provider.get("e", Scope.PROJECT)).contains(before.get("e"));
        assertThat(provider.get("g", Scope.GLOBAL)).as("another scope is untouched").contains(before.get("g"));
    }

    @Test
    void a_second_consolidation_keeps_the_supersedes_list_flat_and_complete() {
        Map<String, MemoryEntry> before = fill();
        always().build().run();
        MemoryEntry f = provider.get("f", Scope.PROJECT).orElseThrow();
        MemoryEntry h = provider.set("h", "Use SQLite for storage", Scope.PROJECT);

        ConsolidationReport report = always().build().run();

        assertThat(report.merged()).containsExactly(new Group(Scope.PROJECT, "h", List.of("f"), ""));
        assertThat(provider.get("h", Scope.PROJECT).orElseThrow().metadata()).isEqualTo(Map.of("supersedes",
                List.of(record(before.get("b")), record(before.get("a")), record(f))));
        assertThat(record(f)).containsEntry("version", 2L).containsEntry("metadata", Map.of());
        assertThat(h.version()).isEqualTo(1);
    }

    @Test
    void without_transactions_the_same_merge_is_written_kept_entry_first() {
        Map<String, MemoryEntry> before = fill();
        MemoryProvider plain = Stores.without(provider, Capability.TRANSACTIONS);
        assertThat(plain.transactions()).isEmpty();

        ConsolidationReport report = Consolidation.builder().provider(plain).threshold(0).build().run();

        assertThat(report.outcome()).isEqualTo(Outcome.MERGED);
        assertThat(report.merged()).extracting(Group::kept).containsExactly("f", "d");
        assertThat(everything(provider)).extracting(MemoryEntry::key).containsExactly("d", "e", "f", "g");
        assertThat(provider.get("f", Scope.PROJECT).orElseThrow().metadata())
                .isEqualTo(Map.of("supersedes", List.of(record(before.get("b")), record(before.get("a")))));
    }

    @Test
    void at_or_under_the_threshold_nothing_is_planned() {
        fill();
        List<MemoryEntry> before = everything(provider);
        Consolidator never = entries -> {
            throw new AssertionError("must not be asked");
        };

        ConsolidationReport report = Consolidation.builder().provider(provider).consolidator(never).build().run();

        assertThat(report.outcome()).isEqualTo(Outcome.BELOW_THRESHOLD);
        assertThat(report.ran()).isFalse();
        assertThat(report.threshold()).isEqualTo(5000);
        assertThat(report.reason()).contains("about " + report.tokens() + " tokens").contains("threshold of 5000");
        int exactly = (int) report.tokens();
        assertThat(Consolidation.builder().provider(provider).consolidator(never).threshold(exactly).build().run().outcome())
                .isEqualTo(Outcome.BELOW_THRESHOLD);
        assertThat(Consolidation.builder().provider(provider).threshold(exactly - 1).build().run().outcome())
                .isEqualTo(Outcome.MERGED);
        assertThat(before).hasSize(7);
    }

    @Test
    void a_dry_run_reports_the_groups_and_writes_nothing() {
        fill();
        List<MemoryEntry> before = everything(provider);

        ConsolidationReport report = always().dryRun(true).build().run();

        assertThat(report.outcome()).isEqualTo(Outcome.PLANNED);
        assertThat(report.dryRun()).isTrue();
        assertThat(report.changed()).isFalse();
        assertThat(report.merged()).extracting(Group::kept).containsExactly("f", "d");
        assertThat(report.removed()).isEmpty();
        assertThat(everything(provider)).isEqualTo(before);
    }

    private void assertRejected(ConsolidationPlan plan, String why) {
        List<MemoryEntry> before = everything(provider);

        ConsolidationReport report = always().consolidator(entries -> plan).build().run();

        assertThat(report.outcome()).as(why).isEqualTo(Outcome.REJECTED);
        assertThat(report.reason()).contains(why);
        assertThat(report.failures()).containsExactly(report.reason());
        assertThat(report.merged()).isEmpty();
        assertThat(report.removed()).isEmpty();
        assertThat(everything(provider)).as("nothing written for: " + why).isEqualTo(before);
    }

    @Test
    void an_invalid_plan_is_rejected_whole_before_anything_is_written() {
        fill();
        Merge valid = new Merge("f", List.of("f", "b"), "use sqlite");
        assertRejected(new ConsolidationPlan(List.of(valid, new Merge("d", List.of("d", "ghost"), "x"))),
                "names 'ghost', which is not a memory of this scope");
        assertRejected(new ConsolidationPlan(List.of(valid, new Merge("g", List.of("g", "e"), "x"))),
                "names 'g', which is not a memory of this scope");
        assertRejected(new ConsolidationPlan(List.of(valid, new Merge("a", List.of("a", "b"), "x"))),
                "'b' is in more than one group");
        assertRejected(new ConsolidationPlan(List.of(new Merge("e", List.of("a", "b"), "x"))),
                "does not list its kept key among its keys [a, b]");
        assertRejected(new ConsolidationPlan(List.of(new Merge("a", List.of("a", "b"), " \n"))), "has a blank merged value");
        assertRejected(new ConsolidationPlan(List.of(new Merge("a", List.of("a"), "x"))), "has fewer than two keys");
        assertRejected(new ConsolidationPlan(List.of(new Merge("a", List.of("a", "b", "a"), "x"))), "names a key twice");
    }

    @Test
    void a_consolidator_that_throws_changes_nothing() {
        fill();
        List<MemoryEntry> before = everything(provider);

        ConsolidationReport report = always().consolidator(entries -> {
            throw new IllegalStateException("model offline");
        }).build().run();

        assertThat(report.outcome()).isEqualTo(Outcome.REJECTED);
        assertThat(report.reason()).contains("consolidator failed on the project memories: model offline");
        assertThat(everything(provider)).isEqualTo(before);
    }

    @Test
    void memories_changed_while_planning_reject_the_run() {
        fill();
        MemoryEntry[] changed = new MemoryEntry[1];
        Consolidator racing = entries -> {
            changed[0] = provider.set("b", "edited meanwhile", Scope.PROJECT);
            return new ConsolidationPlan(List.of(new Merge("f", List.of("f", "b"), "use sqlite for storage.")));
        };
        List<MemoryEntry> before = everything(provider);

        ConsolidationReport report = always().consolidator(racing).build().run();

        assertThat(report.outcome()).isEqualTo(Outcome.REJECTED);
        assertThat(report.reason()).contains("'b' (project) changed while the consolidation was being planned");
        assertThat(everything(provider)).isEqualTo(before.stream().map(e -> e.key().equals("b") ? changed[0] : e).toList());
    }

    @Test
    void a_group_whose_merged_memory_breaks_the_limits_is_skipped_and_the_rest_merged() {
        String big = "forty kilobytes of the same words ".repeat(1200);
        for (String key : List.of("big1", "big2", "big3")) {
            provider.set(key, big, Scope.PROJECT);
        }
        provider.set("small1", "a duplicate", Scope.PROJECT);
        provider.set("small2", "A duplicate", Scope.PROJECT);
        MemoryEntry big3 = provider.get("big3", Scope.PROJECT).orElseThrow();

        ConsolidationReport report = always().build().run();

        assertThat(report.outcome()).isEqualTo(Outcome.MERGED);
        assertThat(report.merged()).containsExactly(new Group(Scope.PROJECT, "small2", List.of("small1"), ""));
        assertThat(report.skipped()).hasSize(1);
        Group skipped = report.skipped().get(0);
        assertThat(skipped.kept()).isEqualTo("big3");
        assertThat(skipped.removed()).containsExactly("big2", "big1");
        assertThat(skipped.note()).contains("limits").contains("metadata of key 'big3'");
        assertThat(everything(provider)).extracting(MemoryEntry::key).containsExactly("big1", "big2", "big3", "small2");
        assertThat(provider.get("big3", Scope.PROJECT)).contains(big3);
    }

    @Test
    void the_deterministic_similarity_is_the_jaccard_of_word_shingles_and_groups_do_not_chain() {
        DeterministicConsolidator three = DeterministicConsolidator.create();
        assertThat(three.similarity("a b c d", "A b, c e")).isEqualTo(1.0 / 3);
        assertThat(three.similarity("hello world", "Hello   WORLD!")).isEqualTo(1.0);
        assertThat(three.similarity("...", "...")).isZero();
        assertThat(three.duplicates("  Same\tText ", "same text")).isTrue();
        assertThat(DeterministicConsolidator.create(0.5, 1).similarity("a b c d", "a b c e")).isEqualTo(3.0 / 5);

        provider.set("x", "one two three four five", Scope.PROJECT);
        provider.set("y", "one two three four six", Scope.PROJECT);
        provider.set("z", "one two three six seven", Scope.PROJECT);
        ConsolidationPlan plan = DeterministicConsolidator.create(0.6, 1).plan(everything(provider));

        assertThat(plan.merges()).containsExactly(new Merge("z", List.of("z", "y"), "one two three six seven"));
    }

    @Test
    void the_report_of_an_empty_plan_says_nothing_to_merge() {
        provider.set("a", "one", Scope.PROJECT);
        provider.set("b", "two", Scope.PROJECT);

        ConsolidationReport report = always().build().run();

        assertThat(report.outcome()).isEqualTo(Outcome.NOTHING_TO_MERGE);
        assertThat(report.ran()).isTrue();
        assertThat(report.changed()).isFalse();
    }

    @Test
    void plugin_memory_documents_are_never_merged_even_when_alike() {
        String template = "<!-- Last Updated: 2026-02-10 -->\n\n# Known Issues\n\nNone yet.\n";
        provider.set("skills/review/blog/known_issues", template, Scope.PROJECT);
        provider.set("skills/review/shop/known_issues", template, Scope.PROJECT);
        provider.set("x", "Use SQLite for storage.", Scope.PROJECT);
        provider.set("y", "Use SQLite for storage.", Scope.PROJECT);

        ConsolidationReport report = always().build().run();

        assertThat(report.outcome()).isEqualTo(ConsolidationReport.Outcome.MERGED);
        assertThat(report.merged()).extracting(ConsolidationReport.Group::kept).containsExactly("y");
        assertThat(provider.get("skills/review/blog/known_issues", Scope.PROJECT)).isPresent();
        assertThat(provider.get("skills/review/shop/known_issues", Scope.PROJECT)).isPresent();
    }

    @Test
    void out_of_range_settings_of_the_deterministic_consolidator_are_typed_errors() {
        assertThatThrownBy(() -> DeterministicConsolidator.create(1.5, 3)).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("above 0 and at most 1");
        assertThatThrownBy(() -> DeterministicConsolidator.create(0.8, 0)).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("1 to 10 words");
    }
}
