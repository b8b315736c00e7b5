package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Capability;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Write, close, reopen the same store: everything is still there, exactly. */
public abstract class DurabilityContract extends ContractSupport {

    @Test
    void entries_of_every_scope_survive_a_reopen_exactly() {
        MemoryEntry session = provider.set("s", "session", Scope.SESSION, List.of("a"), Map.of("n", 1));
        MemoryEntry project = provider.set("p", "project", Scope.PROJECT, List.of("b", "c"), Map.of("nested", Map.of("x", List.of(true))));
        MemoryEntry global = provider.set("g", "global", Scope.GLOBAL);
        reopen();
        assertThat(provider.get("s", Scope.SESSION)).contains(session);
        assertThat(provider.get("p", Scope.PROJECT)).contains(project);
        assertThat(provider.get("g", Scope.GLOBAL)).contains(global);
    }

    @Test
    void versions_and_created_at_continue_after_a_reopen() {
        MemoryEntry first = put("k", "one");
        put("k", "two");
        reopen();
        MemoryEntry third = put("k", "three");
        assertThat(third.version()).isEqualTo(3);
        assertThat(third.createdAt()).isEqualTo(first.createdAt());
    }

    @Test
    void deletes_and_clears_survive_a_reopen() {
        put("deleted", "x");
        put("kept", "x");
        provider.set("cleared", "x", Scope.GLOBAL);
        provider.delete("deleted", Scope.PROJECT);
        provider.clear(Scope.GLOBAL);
        reopen();
        assertThat(keys(everything())).containsExactly("kept");
    }

    @Test
    void many_entries_survive_a_reopen() {
        List<MemoryEntry> written = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            written.add(put(String.format("bulk:%03d", i), "value " + i, List.of("bulk", "n" + (i % 7)), Map.of("i", i)));
        }
        reopen();
        assertThat(provider.query(Query.of("bulk:*"))).containsExactlyElementsOf(written);
    }

    @Test
    void unicode_and_path_like_keys_survive_a_reopen() {
        List<String> keys = List.of("../up", "日本語/キー", "😀", "a:b", "a_b", "Con", "trailing.");
        keys.forEach(k -> put(k, "v " + k));
        reopen();
        for (String key : keys) {
            assertThat(provider.get(key, Scope.PROJECT).orElseThrow().value()).isEqualTo("v " + key);
        }
        assertThat(everything()).hasSize(keys.size());
    }

    @Test
    void a_new_session_after_reopen_sees_project_entries_but_not_old_session_entries() {
        provider.set("old-session", "x", Scope.SESSION);
        provider.set("fact", "x", Scope.PROJECT);
        provider.close();
        MemoryProvider nextSession = open(PROJECT, "session-next");
        assertThat(nextSession.get("fact", Scope.PROJECT)).isPresent();
        assertThat(nextSession.get("old-session", Scope.SESSION)).isEmpty();
    }

    @Test
    void an_ended_session_stays_empty_after_a_reopen() {
        provider.set("scratch", "x", Scope.SESSION);
        provider.endSession();
        reopen();
        assertThat(provider.query(Query.of("*", Scope.SESSION))).isEmpty();
    }

    @Test
    void a_large_value_survives_a_reopen() {
        String value = "line of text ✓\n".repeat(4000);
        put("big", value);
        reopen();
        assertThat(provider.get("big", Scope.PROJECT).orElseThrow().value()).isEqualTo(value);
    }

    @Test
    void doctor_finds_nothing_wrong_with_what_the_api_wrote() {
        put("k", "one", List.of("t"), Map.of("n", 1));
        put("k", "two");
        put("gone", "soon");
        provider.delete("gone", Scope.PROJECT);
        put("gone", "back");
        provider.set("s", "session", Scope.SESSION);
        provider.set("g", "global", Scope.GLOBAL);
        if (has(Capability.GRAPH)) {
            provider.graph().orElseThrow().relate(new EntryRef("k", Scope.PROJECT), new EntryRef("g", Scope.GLOBAL), "LINKS");
        }
        if (has(Capability.HISTORY)) {
            put("purged", "p");
            provider.history().orElseThrow().purge("purged", Scope.PROJECT);
        }
        assertThat(provider.doctor()).as("problems reported for a store only the API wrote").isEmpty();
        reopen();
        assertThat(provider.doctor()).as("problems reported after a reopen").isEmpty();
    }
}
