package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Capability;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.InvalidKeyException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Query;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.ValueTooLargeException;
import dev.forge.memory.VersionHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * Version history: every version of a key, oldest first, as it was written; gone with the key, or with
 * {@link Capability#TOMBSTONES} kept past its deletion until purged; kept apart per scope, project and session like
 * the entries themselves.
 */
@RequiresCapability(Capability.HISTORY)
public abstract class HistoryContract extends ContractSupport {

    private VersionHistory history() {
        return provider.history().orElseThrow();
    }

    private static VersionHistory historyOf(MemoryProvider p) {
        return p.history().orElseThrow();
    }

    @Test
    void versions_come_oldest_first_each_as_it_was_written() {
        MemoryEntry first = put("k", "one", List.of("a"), Map.of("n", 1));
        clock.advance(Duration.ofMinutes(1));
        MemoryEntry second = put("k", "two", List.of("b", "a"), Map.of("n", 2, "extra", true));
        clock.advance(Duration.ofMinutes(1));
        MemoryEntry third = put("k", "three");
        List<MemoryEntry> versions = history().versions("k", Scope.PROJECT);
        assertThat(versions).containsExactly(first, second, third);
        assertThat(versions).extracting(MemoryEntry::version).containsExactly(1L, 2L, 3L);
        assertThat(versions).extracting(MemoryEntry::value).containsExactly("one", "two", "three");
        assertThat(versions.get(1).tags()).containsExactly("b", "a");
        assertThat(versions.get(1).metadata()).isEqualTo(Map.of("n", 2L, "extra", true));
        assertThat(versions.get(2).tags()).isEmpty();
        assertThat(versions).extracting(MemoryEntry::createdAt).containsOnly(first.createdAt());
        assertThat(versions.get(1).updatedAt()).isAfter(versions.get(0).updatedAt());
        assertThat(versions.get(2).updatedAt()).isAfter(versions.get(1).updatedAt());
    }

    @Test
    void versions_stay_contiguous_and_in_numeric_order_past_nine() {
        for (int i = 1; i <= 12; i++) {
            put("k", "value " + i);
        }
        List<MemoryEntry> versions = history().versions("k", Scope.PROJECT);
        assertThat(versions).extracting(MemoryEntry::version)
                .containsExactlyElementsOf(LongStream.rangeClosed(1, 12).boxed().toList());
        assertThat(versions.get(9).value()).isEqualTo("value 10");
    }

    @Test
    void the_last_version_is_always_what_get_returns() {
        List<String> values = List.of("a", "b", "b", "b", "c");
        for (String value : values) {
            put("k", value, List.of(value), Map.of("v", value));
            List<MemoryEntry> versions = history().versions("k", Scope.PROJECT);
            assertThat(versions.get(versions.size() - 1)).isEqualTo(provider.get("k", Scope.PROJECT).orElseThrow());
        }
        // unchanged overwrites are versions too
        assertThat(history().versions("k", Scope.PROJECT)).hasSize(values.size());
    }

    @Test
    void version_finds_one_version_and_nothing_for_unknown_versions_or_keys() {
        put("k", "one");
        MemoryEntry second = put("k", "two");
        put("k", "three");
        assertThat(history().version("k", Scope.PROJECT, 2)).contains(second);
        assertThat(history().version("k", Scope.PROJECT, 0)).isEmpty();
        assertThat(history().version("k", Scope.PROJECT, 4)).isEmpty();
        assertThat(history().version("k", Scope.GLOBAL, 1)).isEmpty();
        assertThat(history().versions("never-written", Scope.PROJECT)).isEmpty();
        assertThat(history().version("never-written", Scope.PROJECT, 1)).isEmpty();
    }

    @Test
    @LacksCapability(Capability.TOMBSTONES)
    void delete_removes_the_history_and_a_recreated_key_starts_a_new_one() {
        put("k", "one");
        put("k", "two");
        provider.delete("k", Scope.PROJECT);
        assertThat(history().versions("k", Scope.PROJECT)).isEmpty();
        assertThat(history().version("k", Scope.PROJECT, 1)).isEmpty();
        MemoryEntry fresh = put("k", "fresh");
        assertThat(fresh.version()).isEqualTo(1);
        assertThat(history().versions("k", Scope.PROJECT)).containsExactly(fresh);
    }

    @Test
    @LacksCapability(Capability.TOMBSTONES)
    void clear_removes_the_history_of_that_scope_only() {
        put("k", "p1");
        put("k", "p2");
        provider.set("k", "s1", Scope.SESSION);
        provider.set("k", "s2", Scope.SESSION);
        MemoryEntry global = provider.set("k", "g1", Scope.GLOBAL);
        provider.clear(Scope.SESSION);
        assertThat(history().versions("k", Scope.SESSION)).isEmpty();
        assertThat(history().versions("k", Scope.PROJECT)).extracting(MemoryEntry::value).containsExactly("p1", "p2");
        assertThat(history().versions("k", Scope.GLOBAL)).containsExactly(global);
        MemoryEntry again = provider.set("k", "s3", Scope.SESSION);
        assertThat(history().versions("k", Scope.SESSION)).containsExactly(again);
    }

    @Test
    @RequiresCapability(Capability.TOMBSTONES)
    void with_tombstones_delete_keeps_the_history_and_the_numbering_continues_after_the_tombstone() {
        MemoryEntry one = put("k", "one", List.of("t"), Map.of("n", 1));
        MemoryEntry two = put("k", "two");
        clock.advance(Duration.ofMinutes(1));
        assertThat(provider.delete("k", Scope.PROJECT)).isTrue();
        assertThat(provider.get("k", Scope.PROJECT)).isEmpty();
        assertThat(history().versions("k", Scope.PROJECT)).containsExactly(one, two);
        assertThat(history().version("k", Scope.PROJECT, 3)).as("the tombstone is not a version to read").isEmpty();
        assertThat(provider.delete("k", Scope.PROJECT)).as("a deleted key is not deleted again").isFalse();
        clock.advance(Duration.ofMinutes(1));
        MemoryEntry four = put("k", "four");
        assertThat(four.version()).isEqualTo(4);
        assertThat(four.createdAt()).as("a new life").isEqualTo(four.updatedAt()).isAfter(two.updatedAt());
        assertThat(history().versions("k", Scope.PROJECT)).containsExactly(one, two, four);
        assertThat(put("k", "five").createdAt()).isEqualTo(four.createdAt());
    }

    @Test
    @RequiresCapability(Capability.TOMBSTONES)
    void with_tombstones_clear_keeps_the_histories_of_that_scope_only() {
        MemoryEntry p1 = put("k", "p1");
        MemoryEntry s1 = provider.set("k", "s1", Scope.SESSION);
        MemoryEntry s2 = provider.set("k", "s2", Scope.SESSION);
        MemoryEntry other = provider.set("other", "o", Scope.SESSION);
        assertThat(provider.clear(Scope.SESSION)).isEqualTo(2);
        assertThat(provider.query(Query.builder().scopes(Scope.SESSION).build())).isEmpty();
        assertThat(history().versions("k", Scope.SESSION)).containsExactly(s1, s2);
        assertThat(history().versions("other", Scope.SESSION)).containsExactly(other);
        assertThat(history().versions("k", Scope.PROJECT)).containsExactly(p1);
        assertThat(provider.clear(Scope.SESSION)).as("deleted keys are not counted again").isZero();
        assertThat(provider.set("k", "s4", Scope.SESSION).version()).isEqualTo(4);
    }

    @Test
    @RequiresCapability(Capability.TOMBSTONES)
    void with_tombstones_the_history_of_a_deleted_key_survives_reopen() {
        MemoryEntry one = put("k", "one");
        provider.delete("k", Scope.PROJECT);
        reopen();
        assertThat(provider.get("k", Scope.PROJECT)).isEmpty();
        assertThat(history().versions("k", Scope.PROJECT)).containsExactly(one);
        assertThat(put("k", "three").version()).isEqualTo(3);
    }

    @Test
    void purge_erases_every_version_and_the_key_starts_again_at_version_1() {
        put("k", "one");
        MemoryEntry kept = put("other", "o");
        put("k", "two");
        assertThat(history().purge("k", Scope.PROJECT)).isTrue();
        assertThat(provider.get("k", Scope.PROJECT)).isEmpty();
        assertThat(history().versions("k", Scope.PROJECT)).isEmpty();
        assertThat(history().purge("k", Scope.PROJECT)).as("nothing left to purge").isFalse();
        assertThat(history().purge("never-written", Scope.PROJECT)).isFalse();
        assertThat(everything()).containsExactly(kept);
        MemoryEntry fresh = put("k", "fresh");
        assertThat(fresh.version()).isEqualTo(1);
        assertThat(history().versions("k", Scope.PROJECT)).containsExactly(fresh);
        reopen();
        assertThat(history().versions("k", Scope.PROJECT)).containsExactly(fresh);
    }

    @Test
    void purge_of_a_deleted_key_erases_whatever_the_deletion_kept() {
        put("k", "one");
        put("k", "two");
        provider.delete("k", Scope.PROJECT);
        assertThat(history().purge("k", Scope.PROJECT)).as("true exactly when the deletion kept the versions")
                .isEqualTo(has(Capability.TOMBSTONES));
        assertThat(history().versions("k", Scope.PROJECT)).isEmpty();
        assertThat(put("k", "fresh").version()).isEqualTo(1);
    }

    @Test
    void purge_of_a_scope_erases_that_scope_only_deleted_keys_included() {
        MemoryEntry p1 = put("k", "p1");
        provider.set("k", "s1", Scope.SESSION);
        provider.set("gone", "s", Scope.SESSION);
        provider.delete("gone", Scope.SESSION);
        MemoryEntry g1 = provider.set("k", "g1", Scope.GLOBAL);
        MemoryProvider otherSession = open(PROJECT, "session-2");
        MemoryEntry theirs = otherSession.set("k", "theirs", Scope.SESSION);
        assertThat(history().purge(Scope.SESSION)).isEqualTo(has(Capability.TOMBSTONES) ? 2 : 1);
        assertThat(history().versions("k", Scope.SESSION)).isEmpty();
        assertThat(history().versions("gone", Scope.SESSION)).isEmpty();
        assertThat(history().purge(Scope.SESSION)).isZero();
        assertThat(history().versions("k", Scope.PROJECT)).containsExactly(p1);
        assertThat(history().versions("k", Scope.GLOBAL)).containsExactly(g1);
        assertThat(historyOf(otherSession).versions("k", Scope.SESSION)).containsExactly(theirs);
        assertThat(provider.set("k", "again", Scope.SESSION).version()).isEqualTo(1);
    }

    @Test
    void purge_never_touches_another_projects_keys() {
        MemoryProvider otherProject = open("project-b", "session-2");
        MemoryEntry theirs = otherProject.set("k", "theirs", Scope.PROJECT);
        put("k", "mine");
        assertThat(history().purge(Scope.PROJECT)).isEqualTo(1);
        assertThat(history().purge("k", Scope.PROJECT)).isFalse();
        assertThat(historyOf(otherProject).versions("k", Scope.PROJECT)).containsExactly(theirs);
        assertThat(otherProject.get("k", Scope.PROJECT)).contains(theirs);
    }

    @Test
    @RequiresCapability(Capability.GRAPH)
    void purge_removes_the_keys_relations_for_good() {
        put("a", "a");
        put("b", "b");
        put("c", "c");
        EntryRef a = new EntryRef("a", Scope.PROJECT);
        EntryRef b = new EntryRef("b", Scope.PROJECT);
        EntryRef c = new EntryRef("c", Scope.PROJECT);
        MemoryGraph graph = provider.graph().orElseThrow();
        graph.relate(a, b, "LINKS");
        graph.relate(c, a, "LINKS");
        Relation kept = graph.relate(b, c, "LINKS");
        assertThat(history().purge("a", Scope.PROJECT)).isTrue();
        assertThat(graph.relations(b, Direction.BOTH)).containsExactly(kept);
        assertThat(graph.relations(c, Direction.BOTH)).containsExactly(kept);
        put("a", "again");
        assertThat(graph.relations(a, Direction.BOTH)).isEmpty();
    }

    @Test
    void histories_are_per_scope() {
        MemoryEntry p1 = put("k", "p1");
        MemoryEntry g1 = provider.set("k", "g1", Scope.GLOBAL);
        MemoryEntry p2 = put("k", "p2");
        assertThat(history().versions("k", Scope.PROJECT)).containsExactly(p1, p2);
        assertThat(history().versions("k", Scope.GLOBAL)).containsExactly(g1);
        assertThat(history().versions("k", Scope.SESSION)).isEmpty();
    }

    @Test
    void histories_are_per_project_and_per_session() {
        MemoryEntry mine = put("k", "mine");
        MemoryEntry myScratch = provider.set("scratch", "mine", Scope.SESSION);
        MemoryProvider otherProject = open("project-b", "session-2");
        assertThat(historyOf(otherProject).versions("k", Scope.PROJECT)).isEmpty();
        MemoryEntry theirs = otherProject.set("k", "theirs", Scope.PROJECT);
        assertThat(historyOf(otherProject).versions("k", Scope.PROJECT)).containsExactly(theirs);
        assertThat(history().versions("k", Scope.PROJECT)).containsExactly(mine);

        MemoryProvider otherSession = open(PROJECT, "session-2");
        assertThat(historyOf(otherSession).versions("scratch", Scope.SESSION)).isEmpty();
        assertThat(historyOf(otherSession).versions("k", Scope.PROJECT)).containsExactly(mine);
        assertThat(history().versions("scratch", Scope.SESSION)).containsExactly(myScratch);
    }

    @Test
    void global_history_is_shared_by_every_project() {
        MemoryProvider otherProject = open("project-b", "session-2");
        MemoryEntry tabs = provider.set("style", "tabs", Scope.GLOBAL);
        MemoryEntry spaces = otherProject.set("style", "spaces", Scope.GLOBAL);
        assertThat(history().versions("style", Scope.GLOBAL)).containsExactly(tabs, spaces);
        assertThat(historyOf(otherProject).versions("style", Scope.GLOBAL)).containsExactly(tabs, spaces);
    }

    @Test
    void history_survives_reopen() {
        List<MemoryEntry> written = new ArrayList<>();
        for (String value : List.of("one", "two", "three")) {
            written.add(put("k", value, List.of(value), Map.of("v", value)));
        }
        written.add(provider.set("k", "global", Scope.GLOBAL));
        reopen();
        assertThat(history().versions("k", Scope.PROJECT)).containsExactlyElementsOf(written.subList(0, 3));
        assertThat(history().versions("k", Scope.GLOBAL)).containsExactly(written.get(3));
    }

    @Test
    void a_failed_write_adds_no_version() {
        MemoryEntry only = put("k", "v");
        assertThatThrownBy(() -> put("k", "v", List.of(""), Map.of())).isInstanceOf(InvalidEntryException.class);
        assertThatThrownBy(() -> put("k", "broken \ud83d text")).isInstanceOf(InvalidEntryException.class);
        assertThat(history().versions("k", Scope.PROJECT)).containsExactly(only);
        assertThat(put("k", "w").version()).isEqualTo(2);
    }

    @Test
    void a_value_over_the_limit_adds_no_version() {
        String tooLarge = "x".repeat((int) testableValueLimit() + 1);
        MemoryEntry only = put("k", "v");
        assertThatThrownBy(() -> put("k", tooLarge)).isInstanceOf(ValueTooLargeException.class);
        assertThat(history().versions("k", Scope.PROJECT)).containsExactly(only);
        assertThat(put("k", "w").version()).isEqualTo(2);
    }

    @Test
    @RequiresCapability(Capability.TRANSACTIONS)
    void several_sets_of_one_key_in_a_transaction_each_add_a_version() {
        MemoryEntry first = put("k", "one");
        List<MemoryEntry> written = new ArrayList<>(List.of(first));
        List<MemoryEntry> fresh = new ArrayList<>();
        try (MemoryTransaction tx = provider.transactions().orElseThrow().begin()) {
            for (String value : List.of("two", "three", "four")) {
                clock.advance(Duration.ofMinutes(1));
                written.add(tx.set("k", value, Scope.PROJECT, List.of(value), Map.of("v", value)));
                fresh.add(tx.set("new", value, Scope.PROJECT));
            }
            tx.commit();
        }
        List<MemoryEntry> versions = history().versions("k", Scope.PROJECT);
        assertThat(versions).containsExactlyElementsOf(written);
        assertThat(versions).extracting(MemoryEntry::version).containsExactly(1L, 2L, 3L, 4L);
        assertThat(versions).extracting(MemoryEntry::createdAt).containsOnly(first.createdAt());
        assertThat(history().versions("new", Scope.PROJECT)).containsExactlyElementsOf(fresh);
        assertThat(fresh).extracting(MemoryEntry::version).containsExactly(1L, 2L, 3L);
        assertThat(put("k", "five").version()).isEqualTo(5);
    }

    @Test
    void history_after_close_fails_with_backend_unavailable() {
        MemoryEntry stored = put("k", "v");
        VersionHistory history = history();
        provider.close();
        assertThat(provider.history()).as("the accessor keeps answering after close").isPresent();
        assertThatThrownBy(() -> history.versions("k", Scope.PROJECT)).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> history.version("k", Scope.PROJECT, 1)).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> provider.history().orElseThrow().versions("k", Scope.PROJECT))
                .isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> history.purge("k", Scope.PROJECT)).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> history.purge(Scope.PROJECT)).isInstanceOf(BackendUnavailableException.class);
        reopen();
        assertThat(history().versions("k", Scope.PROJECT)).containsExactly(stored);
    }

    @Test
    void an_invalid_key_is_rejected() {
        for (String key : List.of("", "line\nbreak", "x".repeat(513))) {
            assertThatThrownBy(() -> history().versions(key, Scope.PROJECT)).as("key of %s chars", key.length())
                    .isInstanceOf(InvalidKeyException.class);
            assertThatThrownBy(() -> history().version(key, Scope.PROJECT, 1)).as("key of %s chars", key.length())
                    .isInstanceOf(InvalidKeyException.class);
            assertThatThrownBy(() -> history().purge(key, Scope.PROJECT)).as("key of %s chars", key.length())
                    .isInstanceOf(InvalidKeyException.class);
        }
    }
}
