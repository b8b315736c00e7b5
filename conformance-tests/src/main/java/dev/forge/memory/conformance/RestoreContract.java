package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Capability;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.Hit;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.InvalidKeyException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Restoring;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.ValueTooLargeException;
import dev.forge.memory.EntryRules;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Restoring entries as they were ({@link Capability#RESTORE}): the versions, timestamps and history given are what
 * get, query, history and search see afterwards, across reopen; a restore replaces the key, keeps its relations, is
 * idempotent, and refuses a broken chain without changing anything.
 */
@RequiresCapability(Capability.RESTORE)
public abstract class RestoreContract extends ContractSupport {

    private static final Instant T1 = Instant.parse("2021-03-04T05:06:07.008Z");
    private static final Instant T2 = Instant.parse("2022-05-06T07:08:09.010Z");
    private static final Instant T3 = Instant.parse("2023-07-08T09:10:11.012Z");

    /** A version of {@code key} in {@code scope} created at T1. */
    private static MemoryEntry version(String key, Scope scope, String value, long version, Instant updatedAt) {
        return new MemoryEntry(key, value, scope, List.of("imported", "t" + version),
                Map.of("source", "export", "n", version, "nested", Map.of("list", List.of(1, "two", true))),
                T1, updatedAt, version);
    }

    private static List<MemoryEntry> chain(String key, Scope scope) {
        return List.of(version(key, scope, "first words about caching", 1, T1),
                version(key, scope, "second words about caching", 2, T2),
                version(key, scope, "third words about caching, the current ones", 3, T3));
    }

    private Restoring restoring() {
        return provider.requireRestoring();
    }

    /** What the provider keeps of a restored chain: all of it with history, else the current version. */
    private List<MemoryEntry> kept(List<MemoryEntry> chain) {
        return has(Capability.HISTORY) ? chain : List.of(chain.get(chain.size() - 1));
    }

    @Test
    void restore_stores_versions_timestamps_tags_and_metadata_exactly() {
        List<MemoryEntry> chain = chain("decision:db", Scope.PROJECT);

        MemoryEntry stored = restoring().restore(chain);

        assertThat(stored).isEqualTo(chain.get(2));
        assertThat(provider.get("decision:db", Scope.PROJECT)).contains(chain.get(2));
        assertThat(provider.query(Query.of("decision:*"))).containsExactly(chain.get(2));
        if (has(Capability.HISTORY)) {
            assertThat(provider.requireHistory().versions("decision:db", Scope.PROJECT)).containsExactlyElementsOf(chain);
        }
    }

    @Test
    void restore_works_in_every_scope_and_keeps_projects_and_sessions_apart() {
        for (Scope scope : Scope.values()) {
            restoring().restore(chain("k", scope));
        }
        for (Scope scope : Scope.values()) {
            assertThat(provider.get("k", scope)).contains(chain("k", scope).get(2));
        }
        MemoryProvider otherProject = open("project-b", "session-9");
        MemoryProvider otherSession = open(PROJECT, "session-2");
        assertThat(otherProject.get("k", Scope.PROJECT)).isEmpty();
        assertThat(otherProject.get("k", Scope.SESSION)).isEmpty();
        assertThat(otherSession.get("k", Scope.SESSION)).isEmpty();
        assertThat(otherSession.get("k", Scope.PROJECT)).contains(chain("k", Scope.PROJECT).get(2));
        assertThat(otherProject.get("k", Scope.GLOBAL)).contains(chain("k", Scope.GLOBAL).get(2));
    }

    @Test
    void restore_replaces_what_the_key_held_before() {
        put("k", "written here once");
        put("k", "written here twice");
        put("k", "written here three times");
        put("k", "written here four times");
        MemoryEntry only = version("k", Scope.PROJECT, "the imported value", 2, T2);

        restoring().restore(List.of(only));

        assertThat(provider.get("k", Scope.PROJECT)).contains(only);
        if (has(Capability.HISTORY)) {
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).containsExactly(only);
        }
    }

    @Test
    void a_set_after_a_restore_continues_after_the_last_version() {
        restoring().restore(chain("k", Scope.PROJECT));

        MemoryEntry next = put("k", "written after the import");

        assertThat(next.version()).isEqualTo(4);
        assertThat(next.createdAt()).isEqualTo(T1);
        assertThat(next.updatedAt()).isAfterOrEqualTo(T3);
        if (has(Capability.HISTORY)) {
            List<MemoryEntry> expected = new ArrayList<>(chain("k", Scope.PROJECT));
            expected.add(next);
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void gaps_in_version_numbers_are_kept() {
        List<MemoryEntry> gapped = List.of(version("k", Scope.PROJECT, "before a deletion", 1, T1),
                new MemoryEntry("k", "after the deletion", Scope.PROJECT, List.of(), Map.of(), T2, T3, 3));

        restoring().restore(gapped);

        assertThat(provider.get("k", Scope.PROJECT)).contains(gapped.get(1));
        if (has(Capability.HISTORY)) {
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).containsExactlyElementsOf(gapped);
        }
    }

    @Test
    void restoring_the_same_chain_twice_changes_nothing_the_second_time() {
        restoring().restore(chain("a", Scope.PROJECT));
        restoring().restore(chain("b", Scope.GLOBAL));
        List<MemoryEntry> before = everything();

        restoring().restore(chain("a", Scope.PROJECT));

        assertUnchanged(before);
        if (has(Capability.HISTORY)) {
            assertThat(provider.requireHistory().versions("a", Scope.PROJECT)).containsExactlyElementsOf(chain("a", Scope.PROJECT));
        }
    }

    @Test
    @RequiresCapability(Capability.TOMBSTONES)
    void a_deleted_key_can_be_restored() {
        put("k", "soon deleted");
        provider.delete("k", Scope.PROJECT);

        restoring().restore(chain("k", Scope.PROJECT));

        assertThat(provider.get("k", Scope.PROJECT)).contains(chain("k", Scope.PROJECT).get(2));
        assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).containsExactlyElementsOf(chain("k", Scope.PROJECT));
    }

    @Test
    @RequiresCapability(Capability.GRAPH)
    void relations_of_a_restored_key_stay() {
        put("a", "one end");
        put("b", "other end");
        provider.requireGraph().relate(new EntryRef("a", Scope.PROJECT), new EntryRef("b", Scope.PROJECT), "DEPENDS_ON");

        restoring().restore(chain("a", Scope.PROJECT));

        assertThat(provider.requireGraph().relations(new EntryRef("a", Scope.PROJECT), Direction.OUTGOING))
                .singleElement().satisfies(r -> assertThat(r.to()).isEqualTo(new EntryRef("b", Scope.PROJECT)));
    }

    @Test
    @RequiresCapability(Capability.KEYWORD_SEARCH)
    void restored_entries_are_found_by_search_with_their_current_value() {
        put("other", "nothing relevant here at all");
        restoring().restore(List.of(version("k", Scope.PROJECT, "zebras graze on the savanna", 1, T1),
                version("k", Scope.PROJECT, "penguins swim in cold water", 2, T2)));

        List<Hit> penguins = provider.search(SearchRequest.builder("penguins").mode(SearchMode.KEYWORD).build());
        List<Hit> zebras = provider.search(SearchRequest.builder("zebras").mode(SearchMode.KEYWORD).build());

        assertThat(penguins).extracting(h -> h.entry().key()).containsExactly("k");
        assertThat(penguins.get(0).entry().version()).isEqualTo(2);
        assertThat(zebras).isEmpty();
        if (has(Capability.SEMANTIC_SEARCH)) {
            List<Hit> semantic = provider.search(SearchRequest.builder("penguins swim in cold water").mode(SearchMode.SEMANTIC).build());
            assertThat(semantic).extracting(h -> h.entry().key()).first().isEqualTo("k");
            assertThat(semantic.get(0).entry()).isEqualTo(provider.get("k", Scope.PROJECT).orElseThrow());
        }
    }

    @Test
    void restored_entries_survive_a_reopen() {
        restoring().restore(chain("k", Scope.PROJECT));
        restoring().restore(chain("g", Scope.GLOBAL));

        reopen();

        assertThat(provider.get("k", Scope.PROJECT)).contains(chain("k", Scope.PROJECT).get(2));
        assertThat(provider.get("g", Scope.GLOBAL)).contains(chain("g", Scope.GLOBAL).get(2));
        if (has(Capability.HISTORY)) {
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).containsExactlyElementsOf(chain("k", Scope.PROJECT));
        }
    }

    @Test
    void broken_chains_are_refused_and_change_nothing() {
        put("k", "already here");
        List<MemoryEntry> before = everything();
        MemoryEntry v1 = version("k", Scope.PROJECT, "one", 1, T2);

        assertThatThrownBy(() -> restoring().restore(List.of())).isInstanceOf(InvalidEntryException.class);
        assertThatThrownBy(() -> restoring().restore(List.of(v1, version("j", Scope.PROJECT, "two", 2, T2))))
                .isInstanceOf(InvalidEntryException.class).hasMessageContaining("one key");
        assertThatThrownBy(() -> restoring().restore(List.of(v1, version("k", Scope.GLOBAL, "two", 2, T2))))
                .isInstanceOf(InvalidEntryException.class);
        assertThatThrownBy(() -> restoring().restore(List.of(v1, version("k", Scope.PROJECT, "again", 1, T3))))
                .isInstanceOf(InvalidEntryException.class).hasMessageContaining("increase");
        assertThatThrownBy(() -> restoring().restore(List.of(v1, version("k", Scope.PROJECT, "earlier", 2, T1))))
                .isInstanceOf(InvalidEntryException.class).hasMessageContaining("back in time");
        assertThatThrownBy(() -> restoring().restore(List.of(version("bad\u0000key", Scope.PROJECT, "x", 1, T1))))
                .isInstanceOf(InvalidKeyException.class);

        assertUnchanged(before);
        if (has(Capability.HISTORY)) {
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).hasSize(1);
        }
    }

    @Test
    void a_value_over_the_limit_is_refused_and_changes_nothing() {
        long limit = testableValueLimit();
        put("k", "already here");
        List<MemoryEntry> before = everything();
        MemoryEntry big = new MemoryEntry("k", "x".repeat((int) limit + 1), Scope.PROJECT, List.of(), Map.of(), T1, T1, 1);

        assertThatThrownBy(() -> restoring().restore(List.of(big))).isInstanceOf(ValueTooLargeException.class);

        assertUnchanged(before);
    }

    @Test
    void versions_and_times_outside_the_bounds_are_refused_and_change_nothing() {
        put("k", "already here");
        List<MemoryEntry> before = everything();
        Instant tooEarly = Instant.parse("-999999999-01-01T00:00:00Z");
        Instant justTooEarly = EntryRules.EARLIEST.minusMillis(1);
        Instant justTooLate = EntryRules.LATEST.plusMillis(1);
        List<List<MemoryEntry>> outside = List.of(
                List.of(new MemoryEntry("k", "v", Scope.PROJECT, List.of(), Map.of(), T1, T1, Long.MAX_VALUE)),
                List.of(new MemoryEntry("k", "v", Scope.PROJECT, List.of(), Map.of(), T1, T1, EntryRules.MAX_VERSION + 1)),
                List.of(version("k", Scope.PROJECT, "one", 1, T1),
                        new MemoryEntry("k", "v", Scope.PROJECT, List.of(), Map.of(), T1, T2, EntryRules.MAX_VERSION + 1)),
                List.of(new MemoryEntry("k", "v", Scope.PROJECT, List.of(), Map.of(), tooEarly, T1, 1)),
                List.of(new MemoryEntry("k", "v", Scope.PROJECT, List.of(), Map.of(), justTooEarly, justTooEarly, 1)),
                List.of(new MemoryEntry("k", "v", Scope.PROJECT, List.of(), Map.of(), T1, justTooLate, 1)),
                List.of(new MemoryEntry("k", "v", Scope.PROJECT, List.of(), Map.of(), justTooLate, Instant.MAX, 1)));

        for (List<MemoryEntry> chain : outside) {
            assertThatThrownBy(() -> restoring().restore(chain)).as("restore of %s", chain)
                    .isInstanceOf(InvalidEntryException.class).hasMessageContaining("'k'");
        }

        assertUnchanged(before);
        reopen();
        assertUnchanged(before);
    }

    @Test
    void an_entry_at_the_bounds_is_stored_exactly_and_can_be_overwritten_and_deleted() {
        List<MemoryEntry> chain = List.of(
                new MemoryEntry("k", "first, at the earliest time", Scope.PROJECT, List.of(), Map.of(),
                        EntryRules.EARLIEST, EntryRules.EARLIEST, 1),
                new MemoryEntry("k", "last, at the largest version and the latest time", Scope.PROJECT, List.of("edge"),
                        Map.of(), EntryRules.EARLIEST, EntryRules.LATEST, EntryRules.MAX_VERSION));

        restoring().restore(chain);
        reopen();

        assertThat(provider.get("k", Scope.PROJECT)).contains(chain.get(1));
        if (has(Capability.HISTORY)) {
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).containsExactlyElementsOf(chain);
        }
        MemoryEntry overwritten = put("k", "written over it");
        assertThat(overwritten.version()).isEqualTo(EntryRules.MAX_VERSION + 1);
        assertThat(overwritten.createdAt()).isEqualTo(EntryRules.EARLIEST);
        assertThat(overwritten.updatedAt()).isEqualTo(EntryRules.LATEST);
        assertThat(provider.get("k", Scope.PROJECT)).contains(overwritten);

        assertThat(provider.delete("k", Scope.PROJECT)).isTrue();

        assertThat(provider.get("k", Scope.PROJECT)).isEmpty();
        reopen();
        assertThat(provider.get("k", Scope.PROJECT)).isEmpty();
        assertThat(put("k", "a new life").version()).isEqualTo(versionAfterDelete(EntryRules.MAX_VERSION + 1));
    }

    @Test
    void restore_after_close_is_refused() {
        Restoring facet = restoring();
        provider.close();
        assertThatThrownBy(() -> facet.restore(chain("k", Scope.PROJECT))).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> facet.restoreAll(List.of(chain("k", Scope.PROJECT)))).isInstanceOf(BackendUnavailableException.class);
    }

    /** The versions {@code history} holds of each key of {@code chains}, where the provider keeps history. */
    private List<List<MemoryEntry>> histories(List<List<MemoryEntry>> chains) {
        List<List<MemoryEntry>> found = new ArrayList<>();
        if (has(Capability.HISTORY)) {
            for (List<MemoryEntry> chain : chains) {
                found.add(provider.requireHistory().versions(chain.get(0).key(), chain.get(0).scope()));
            }
        }
        return found;
    }

    @Test
    void a_batch_restore_stores_what_restoring_each_chain_stores() {
        put("b", "written before the import");
        List<List<MemoryEntry>> batch = List.of(chain("a", Scope.PROJECT), chain("b", Scope.PROJECT),
                chain("g", Scope.GLOBAL), chain("s", Scope.SESSION),
                List.of(version("one", Scope.PROJECT, "a single version", 7, T2)));

        List<MemoryEntry> stored = restoring().restoreAll(batch);

        assertThat(stored).containsExactlyElementsOf(batch.stream().map(chain -> chain.get(chain.size() - 1)).toList());
        for (List<MemoryEntry> chain : batch) {
            MemoryEntry last = chain.get(chain.size() - 1);
            assertThat(provider.get(last.key(), last.scope())).contains(last);
        }
        assertThat(histories(batch)).containsExactlyElementsOf(has(Capability.HISTORY) ? batch.stream().map(this::kept).toList() : List.of());
        List<MemoryEntry> afterBatch = everything();
        List<List<MemoryEntry>> historiesAfterBatch = histories(batch);
        // Restoring the same chains one by one changes nothing: the batch left the store as they would have.
        batch.forEach(restoring()::restore);
        assertUnchanged(afterBatch);
        assertThat(histories(batch)).isEqualTo(historiesAfterBatch);
        reopen();
        assertUnchanged(afterBatch);
        assertThat(restoring().restoreAll(List.of())).isEmpty();
    }

    @Test
    @RequiresCapability(Capability.TRANSACTIONS)
    void a_refused_chain_leaves_its_whole_batch_unapplied_with_transactions() {
        put("b", "written before the import");
        List<MemoryEntry> before = everything();
        List<List<MemoryEntry>> historiesBefore = histories(List.of(chain("b", Scope.PROJECT)));
        List<MemoryEntry> backwards = List.of(version("c", Scope.PROJECT, "one", 1, T2), version("c", Scope.PROJECT, "two", 2, T1));

        assertThatThrownBy(() -> restoring().restoreAll(List.of(chain("a", Scope.PROJECT), chain("b", Scope.PROJECT), backwards)))
                .isInstanceOf(InvalidEntryException.class).hasMessageContaining("back in time");
        assertThatThrownBy(() -> restoring().restoreAll(List.of(chain("a", Scope.PROJECT),
                List.of(version("bad\u0000key", Scope.PROJECT, "x", 1, T1))))).isInstanceOf(InvalidKeyException.class);

        assertUnchanged(before);
        assertThat(histories(List.of(chain("b", Scope.PROJECT)))).isEqualTo(historiesBefore);
        reopen();
        assertUnchanged(before);
    }

    @Test
    void a_refused_chain_in_a_batch_throws_and_leaves_every_key_whole() {
        put("b", "written before the import");
        MemoryEntry b = provider.get("b", Scope.PROJECT).orElseThrow();
        List<MemoryEntry> backwards = List.of(version("c", Scope.PROJECT, "one", 1, T2), version("c", Scope.PROJECT, "two", 2, T1));

        assertThatThrownBy(() -> restoring().restoreAll(List.of(chain("a", Scope.PROJECT), chain("b", Scope.PROJECT), backwards)))
                .isInstanceOf(InvalidEntryException.class);

        // Each key is as it was or as its chain says, never part of a chain.
        assertThat(provider.get("a", Scope.PROJECT)).isIn(java.util.Optional.empty(), java.util.Optional.of(chain("a", Scope.PROJECT).get(2)));
        assertThat(provider.get("b", Scope.PROJECT)).isIn(java.util.Optional.of(b), java.util.Optional.of(chain("b", Scope.PROJECT).get(2)));
        assertThat(provider.get("c", Scope.PROJECT)).isEmpty();
        if (has(Capability.HISTORY)) {
            assertThat(provider.requireHistory().versions("a", Scope.PROJECT)).isIn(List.of(), chain("a", Scope.PROJECT));
        }
    }
}
