package dev.forge.memory.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.EntryRef;
import dev.forge.memory.EntryRules;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one version-stamping rule: {@link EntryWrite#toEntry} and {@link EntryWrite#nextVersion}. */
class EntryWriteVersionTest {

    private static final Instant T1 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Instant T2 = Instant.parse("2026-01-02T00:00:00Z");

    private static EntryWrite write(String key) {
        return EntryWrite.validate(key, "new value", Scope.PROJECT, List.of(), Map.of(), Limits.DEFAULT);
    }

    private static MemoryEntry stored(String key, long version) {
        return new MemoryEntry(key, "old value", Scope.PROJECT, List.of(), Map.of(), T1, T1, version);
    }

    @Test
    void an_overwrite_of_a_key_at_the_largest_long_fails_with_a_typed_error_naming_the_key() {
        MemoryEntry full = stored("notes:full", Long.MAX_VALUE);

        assertThatThrownBy(() -> write("notes:full").toEntry(Optional.of(full), T2))
                .isInstanceOf(InvalidEntryException.class)
                .hasMessageContaining("'notes:full'")
                .hasMessageContaining(String.valueOf(Long.MAX_VALUE))
                .hasMessageContaining("nothing was written");
    }

    @Test
    void a_write_after_a_tombstone_at_the_largest_long_fails_with_a_typed_error() {
        assertThatThrownBy(() -> write("gone").toEntry(Optional.empty(), Long.MAX_VALUE, T2))
                .isInstanceOf(VersionOverflowException.class)
                .hasMessageContaining("'gone' (project)")
                .hasMessageContaining("versions from 1");
    }

    @Test
    void a_tombstone_after_the_largest_long_is_refused() {
        assertThatThrownBy(() -> EntryWrite.nextVersion(EntryRef.of("k", Scope.GLOBAL), Long.MAX_VALUE))
                .isInstanceOf(VersionOverflowException.class)
                .hasMessageContaining("'k' (global)");
    }

    @Test
    void versions_count_on_past_the_largest_a_restore_accepts() {
        MemoryEntry atBound = stored("k", EntryRules.MAX_VERSION);

        MemoryEntry next = write("k").toEntry(Optional.of(atBound), T2);

        assertThat(next.version()).isEqualTo(EntryRules.MAX_VERSION + 1);
        assertThat(next.createdAt()).isEqualTo(T1);
        assertThat(next.updatedAt()).isEqualTo(T2);
        assertThat(write("k").toEntry(Optional.of(stored("k", Long.MAX_VALUE - 1)), T2).version())
                .isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void a_new_key_starts_at_one_and_a_key_after_a_tombstone_counts_on_with_a_new_created_at() {
        MemoryEntry fresh = write("k").toEntry(Optional.empty(), 0, T2);
        MemoryEntry reborn = write("k").toEntry(Optional.empty(), 7, T2);

        assertThat(fresh.version()).isEqualTo(1);
        assertThat(reborn.version()).isEqualTo(8);
        assertThat(reborn.createdAt()).isEqualTo(T2);
    }

    @Test
    void an_overwrite_counts_from_the_live_entry_and_never_moves_updated_at_back() {
        MemoryEntry live = new MemoryEntry("k", "v", Scope.PROJECT, List.of(), Map.of(), T1, T2, 3);

        MemoryEntry next = write("k").toEntry(Optional.of(live), 3, T1);

        assertThat(next.version()).isEqualTo(4);
        assertThat(next.createdAt()).isEqualTo(T1);
        assertThat(next.updatedAt()).isEqualTo(T2);
    }
}
