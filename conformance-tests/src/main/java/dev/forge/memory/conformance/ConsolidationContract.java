package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.consolidation.Consolidation;
import dev.forge.memory.consolidation.ConsolidationReport;
import dev.forge.memory.context.ContextEntry;
import dev.forge.memory.context.ContextLoader;
import dev.forge.memory.context.ContextPage;
import dev.forge.memory.context.ContextPages;
import dev.forge.memory.context.TokenEstimator;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Consolidation and prompt context through the public API on this provider: duplicates merge with nothing lost, a failed
 * consolidation changes nothing, and context pages show every entry once. Cheap on purpose: it runs on every provider.
 */
public abstract class ConsolidationContract extends ContractSupport {

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    /** The record consolidation keeps of a replaced entry in the kept entry's {@code supersedes}. */
    private static Map<String, Object> record(MemoryEntry entry) {
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("key", entry.key());
        record.put("value", entry.value());
        record.put("tags", entry.tags());
        record.put("metadata", entry.metadata());
        record.put("created_at", TIME.format(entry.createdAt()));
        record.put("updated_at", TIME.format(entry.updatedAt()));
        record.put("version", entry.version());
        return record;
    }

    @Test
    void deterministic_consolidation_merges_duplicates_and_the_kept_entry_supersedes_the_removed_exactly() {
        MemoryEntry first = put("note:1", "Run the tests before every push.", List.of("process"), Map.of("author", "ana"));
        MemoryEntry second = put("note:2", "run the tests  before every push.", List.of("ci"), Map.of());
        MemoryEntry other = put("note:3", "Releases are tagged by hand.");
        MemoryEntry global = provider.set("note:1", "Run the tests before every push.", Scope.GLOBAL);

        ConsolidationReport report = Consolidation.builder().provider(provider).threshold(0).build().run();

        assertThat(report.outcome()).as(report.reason()).isEqualTo(ConsolidationReport.Outcome.MERGED);
        assertThat(report.merged()).containsExactly(
                new ConsolidationReport.Group(Scope.PROJECT, "note:2", List.of("note:1"), ""));
        MemoryEntry kept = provider.get("note:2", Scope.PROJECT).orElseThrow();
        assertThat(kept.value()).isEqualTo(second.value());
        assertThat(kept.tags()).containsExactly("ci", "process");
        assertThat(kept.metadata()).isEqualTo(Map.of("supersedes", List.of(record(first))));
        assertThat(provider.get("note:1", Scope.PROJECT)).isEmpty();
        assertThat(provider.get("note:3", Scope.PROJECT)).contains(other);
        assertThat(provider.get("note:1", Scope.GLOBAL)).as("other scopes are left alone").contains(global);
    }

    @Test
    void a_failing_consolidator_leaves_every_entry_unchanged() {
        put("a", "same text");
        put("b", "same text");
        put("c", "other text", List.of("t"), Map.of("n", 1));
        List<MemoryEntry> before = everything();

        ConsolidationReport report = Consolidation.builder().provider(provider).threshold(0)
                .consolidator(entries -> {
                    throw new IllegalStateException("planner broke");
                }).build().run();

        assertThat(report.outcome()).isEqualTo(ConsolidationReport.Outcome.REJECTED);
        assertThat(report.reason()).contains("planner broke");
        assertUnchanged(before);
    }

    @Test
    void context_pages_hold_every_entry_exactly_once_within_the_budget() {
        for (int i = 0; i < 12; i++) {
            provider.set((i % 3 == 0 ? "decision:" : "fact:") + i, ("entry " + i + " says something. ").repeat(i % 4 + 1),
                    Scope.values()[i % 3]);
        }

        ContextPages pages = ContextLoader.builder().provider(provider).budget(60).build().load();

        List<String> shown = new ArrayList<>();
        for (ContextPage page : pages.pages()) {
            assertThat(TokenEstimator.DEFAULT.estimate(page.text())).isLessThanOrEqualTo(60);
            page.entries().stream().map(ContextEntry::entry).forEach(e -> shown.add(e.scope() + ":" + e.key()));
        }
        assertThat(pages.size()).isGreaterThan(1);
        assertThat(shown).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(
                everything().stream().map(e -> e.scope() + ":" + e.key()).toList());
    }
}
