package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Get, set, overwrite, delete and clear: versions, timestamps, tags and metadata round-trip exactly. */
public abstract class CoreContract extends ContractSupport {

    @Test
    void get_of_missing_key_is_empty() {
        assertThat(provider.get("never-written", Scope.PROJECT)).isEmpty();
    }

    @Test
    void set_then_get_returns_what_set_returned() {
        MemoryEntry stored = put("decision:db", "We use SQLite for local state.", List.of("arch", "db"), Map.of("author", "ana"));
        assertThat(provider.get("decision:db", Scope.PROJECT)).contains(stored);
    }

    @Test
    void set_returns_the_entry_with_every_field_as_given() {
        MemoryEntry stored = put("k", "value text", List.of("t1", "t2"), Map.of("a", "b"));
        assertThat(stored.key()).isEqualTo("k");
        assertThat(stored.value()).isEqualTo("value text");
        assertThat(stored.scope()).isEqualTo(Scope.PROJECT);
        assertThat(stored.tags()).containsExactly("t1", "t2");
        assertThat(stored.metadata()).isEqualTo(Map.of("a", "b"));
    }

    @Test
    void first_write_has_version_1_and_equal_timestamps_from_the_context_clock() {
        Instant before = clock.peek();
        MemoryEntry stored = put("k", "v");
        Instant after = clock.peek();
        assertThat(stored.version()).isEqualTo(1);
        assertThat(stored.createdAt()).isEqualTo(stored.updatedAt());
        assertThat(stored.createdAt()).isBetween(before, after);
    }

    @Test
    void overwrite_increments_version_keeps_created_at_and_moves_updated_at() {
        MemoryEntry first = put("k", "one");
        clock.advance(Duration.ofMinutes(5));
        MemoryEntry second = put("k", "two");
        assertThat(second.version()).isEqualTo(2);
        assertThat(second.createdAt()).isEqualTo(first.createdAt());
        assertThat(second.updatedAt()).isAfterOrEqualTo(first.updatedAt().plus(Duration.ofMinutes(5)));
        assertThat(provider.get("k", Scope.PROJECT).orElseThrow().value()).isEqualTo("two");
    }

    @Test
    void overwrite_with_identical_content_still_increments_version() {
        put("k", "same");
        put("k", "same");
        assertThat(put("k", "same").version()).isEqualTo(3);
    }

    @Test
    void overwrite_replaces_tags_and_metadata_instead_of_merging() {
        put("k", "v", List.of("old", "both"), Map.of("old", 1, "both", 1));
        MemoryEntry second = put("k", "v", List.of("both", "new"), Map.of("both", 2, "new", true));
        assertThat(second.tags()).containsExactly("both", "new");
        assertThat(second.metadata()).isEqualTo(Map.of("both", 2L, "new", true));
        assertThat(provider.get("k", Scope.PROJECT)).contains(second);
    }

    @Test
    void updated_at_never_goes_back_when_the_clock_does() {
        MemoryEntry first = put("k", "one");
        clock.rewind(Duration.ofHours(1));
        MemoryEntry second = put("k", "two");
        assertThat(second.updatedAt()).isAfterOrEqualTo(first.updatedAt());
        assertThat(second.createdAt()).isEqualTo(first.createdAt());
        assertThat(second.version()).isEqualTo(2);
    }

    @Test
    void tags_keep_their_order() {
        assertThat(put("k", "v", List.of("zeta", "alpha", "mid"), Map.of()).tags()).containsExactly("zeta", "alpha", "mid");
        assertThat(provider.get("k", Scope.PROJECT).orElseThrow().tags()).containsExactly("zeta", "alpha", "mid");
    }

    @Test
    void duplicate_tags_are_dropped_after_the_first() {
        MemoryEntry stored = put("k", "v", List.of("b", "a", "b", "c", "a"), Map.of());
        assertThat(stored.tags()).containsExactly("b", "a", "c");
        assertThat(provider.get("k", Scope.PROJECT).orElseThrow().tags()).containsExactly("b", "a", "c");
    }

    @Test
    void metadata_of_every_json_type_round_trips() {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("string", "text");
        metadata.put("int", 42);
        metadata.put("long", 9_007_199_254_740_993L);
        metadata.put("negative", -7L);
        metadata.put("double", 0.1);
        metadata.put("bool", false);
        metadata.put("list", List.of("a", 1, true, List.of()));
        metadata.put("map", Map.of("nested", Map.of("deeper", List.of(1.5, "x"))));
        metadata.put("empty-map", Map.of());
        MemoryEntry stored = put("k", "v", List.of(), metadata);
        MemoryEntry read = provider.get("k", Scope.PROJECT).orElseThrow();
        assertThat(read.metadata()).isEqualTo(stored.metadata());
        assertThat(read.metadata().get("int")).isEqualTo(42L);
        assertThat(read.metadata().get("long")).isEqualTo(9_007_199_254_740_993L);
        assertThat(read.metadata().get("double")).isEqualTo(0.1);
        assertThat(read.metadata().get("list")).isEqualTo(List.of("a", 1L, true, List.of()));
    }

    @Test
    void whole_double_metadata_stays_a_double() {
        put("k", "v", List.of(), Map.of("ratio", 2.0));
        assertThat(provider.get("k", Scope.PROJECT).orElseThrow().metadata().get("ratio")).isEqualTo(2.0);
    }

    @Test
    void empty_value_is_stored_and_read_back_empty() {
        put("k", "");
        assertThat(provider.get("k", Scope.PROJECT).orElseThrow().value()).isEmpty();
    }

    @Test
    void returned_entries_are_immutable() {
        MemoryEntry stored = put("k", "v", List.of("t"), Map.of("m", List.of(1)));
        assertThatThrownBy(() -> stored.tags().add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> stored.metadata().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
        MemoryEntry read = provider.get("k", Scope.PROJECT).orElseThrow();
        assertThatThrownBy(() -> read.tags().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void caller_changing_its_own_lists_after_set_changes_nothing_stored() {
        List<String> tags = new java.util.ArrayList<>(List.of("a"));
        Map<String, Object> metadata = new java.util.HashMap<>(Map.of("m", 1));
        provider.set("k", "v", Scope.PROJECT, tags, metadata);
        tags.add("b");
        metadata.put("n", 2);
        MemoryEntry read = provider.get("k", Scope.PROJECT).orElseThrow();
        assertThat(read.tags()).containsExactly("a");
        assertThat(read.metadata()).isEqualTo(Map.of("m", 1L));
    }

    @Test
    void delete_removes_the_entry_and_returns_true() {
        put("k", "v");
        assertThat(provider.delete("k", Scope.PROJECT)).isTrue();
        assertThat(provider.get("k", Scope.PROJECT)).isEmpty();
        assertThat(everything()).isEmpty();
    }

    @Test
    void delete_of_missing_key_returns_false_and_changes_nothing() {
        put("other", "v");
        List<MemoryEntry> before = everything();
        assertThat(provider.delete("missing", Scope.PROJECT)).isFalse();
        assertUnchanged(before);
    }

    @Test
    void delete_twice_returns_false_the_second_time() {
        put("k", "v");
        assertThat(provider.delete("k", Scope.PROJECT)).isTrue();
        assertThat(provider.delete("k", Scope.PROJECT)).isFalse();
    }

    @Test
    void key_written_again_after_delete_starts_a_new_life_with_new_created_at() {
        MemoryEntry first = put("k", "v1");
        put("k", "v2");
        provider.delete("k", Scope.PROJECT);
        clock.advance(Duration.ofSeconds(10));
        MemoryEntry again = put("k", "v3");
        assertThat(again.version()).as("1, or after the tombstone where deletions are kept").isEqualTo(versionAfterDelete(2));
        assertThat(again.createdAt()).isAfter(first.createdAt());
    }

    @Test
    void same_key_in_three_scopes_holds_three_independent_entries() {
        provider.set("k", "session value", Scope.SESSION);
        provider.set("k", "project value", Scope.PROJECT);
        provider.set("k", "global value", Scope.GLOBAL);
        provider.set("k", "project value 2", Scope.PROJECT);
        assertThat(provider.get("k", Scope.SESSION).orElseThrow().value()).isEqualTo("session value");
        assertThat(provider.get("k", Scope.PROJECT).orElseThrow().version()).isEqualTo(2);
        assertThat(provider.get("k", Scope.GLOBAL).orElseThrow().version()).isEqualTo(1);
        assertThat(provider.get("k", Scope.GLOBAL).orElseThrow().scope()).isEqualTo(Scope.GLOBAL);
    }

    @Test
    void delete_affects_only_its_scope() {
        provider.set("k", "p", Scope.PROJECT);
        provider.set("k", "g", Scope.GLOBAL);
        assertThat(provider.delete("k", Scope.GLOBAL)).isTrue();
        assertThat(provider.get("k", Scope.PROJECT)).isPresent();
        assertThat(provider.get("k", Scope.GLOBAL)).isEmpty();
    }

    @Test
    void clear_removes_every_entry_of_the_scope_and_counts_them() {
        put("a", "1");
        put("b", "2");
        put("c", "3");
        assertThat(provider.clear(Scope.PROJECT)).isEqualTo(3);
        assertThat(provider.query(Query.of("*", Scope.PROJECT))).isEmpty();
    }

    @Test
    void clear_leaves_other_scopes_alone() {
        provider.set("s", "1", Scope.SESSION);
        provider.set("p", "2", Scope.PROJECT);
        provider.set("g", "3", Scope.GLOBAL);
        assertThat(provider.clear(Scope.PROJECT)).isEqualTo(1);
        assertThat(keys(everything())).containsExactly("g", "s");
    }

    @Test
    void clear_of_an_empty_scope_returns_zero() {
        provider.set("g", "3", Scope.GLOBAL);
        assertThat(provider.clear(Scope.SESSION)).isZero();
        assertThat(everything()).hasSize(1);
    }

    @Test
    void keys_are_case_sensitive() {
        put("Key", "upper");
        put("key", "lower");
        put("KEY", "all upper");
        assertThat(provider.get("Key", Scope.PROJECT).orElseThrow().value()).isEqualTo("upper");
        assertThat(provider.get("key", Scope.PROJECT).orElseThrow().value()).isEqualTo("lower");
        assertThat(provider.get("KEY", Scope.PROJECT).orElseThrow().value()).isEqualTo("all upper");
        assertThat(everything()).hasSize(3);
    }

    @Test
    void keys_that_differ_only_by_punctuation_never_collide() {
        List<String> keys = List.of("a:b", "a_b", "a-b", "a.b", "a/b", "a\\b", "a b", "a%3ab", "a%3Ab", "a^b", "a~b", "ab");
        for (String key : keys) {
            put(key, "value of " + key);
        }
        for (String key : keys) {
            assertThat(provider.get(key, Scope.PROJECT).orElseThrow().value()).isEqualTo("value of " + key);
        }
        assertThat(everything()).hasSize(keys.size());
    }

    @Test
    void name_is_a_lower_case_identifier_shared_by_every_provider_on_the_store() {
        String name = provider.name();
        assertThat(name).matches("[a-z][a-z0-9-]*");
        assertThat(open("project-b", "session-2").name()).isEqualTo(name);
        assertThat(reopen().name()).isEqualTo(name);
    }

    @Test
    void every_operation_after_close_fails_with_backend_unavailable() {
        put("k", "v");
        provider.close();
        assertThatThrownBy(() -> provider.get("k", Scope.PROJECT)).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> provider.set("k", "v2", Scope.PROJECT)).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> provider.query(Query.builder().build())).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> provider.delete("k", Scope.PROJECT)).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> provider.clear(Scope.PROJECT)).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> provider.search(SearchRequest.keyword("v"))).isInstanceOf(BackendUnavailableException.class);
    }

    @Test
    void close_is_idempotent_and_keeps_what_was_stored() {
        put("k", "v");
        provider.close();
        provider.close();
        assertThat(reopen().get("k", Scope.PROJECT)).isPresent();
    }
}
