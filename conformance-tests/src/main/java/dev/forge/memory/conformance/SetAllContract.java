package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.Capability;
import dev.forge.memory.ConflictException;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.InvalidKeyException;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.MemoryTransaction.Write;
import dev.forge.memory.Scope;
import dev.forge.memory.ValueTooLargeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;

/**
 * {@link MemoryTransaction#setAll}: the same entries, versions and history as {@code set} one after the other, every
 * write checked before any is buffered, and the transaction's usual rollback and conflict rules.
 */
@RequiresCapability(Capability.TRANSACTIONS)
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = ThreadMode.SEPARATE_THREAD)
public abstract class SetAllContract extends ContractSupport {

    private MemoryTransaction begin() {
        return provider.transactions().orElseThrow().begin();
    }

    /** The writes of the equivalence tests, their keys prefixed: an existing key written twice, scopes, tags, metadata. */
    private static List<Write> writes(String prefix) {
        return List.of(
                new Write(prefix + "a", "one", Scope.PROJECT, List.of("t2", "t1", "t2"), Map.of("n", 1)),
                Write.of(prefix + "new", "fresh", Scope.PROJECT),
                new Write(prefix + "a", "two", Scope.PROJECT, List.of("t3"), Map.of("nested", Map.of("x", List.of(1, "y")))),
                Write.of(prefix + "s", "session", Scope.SESSION),
                new Write(prefix + "g", "global", Scope.GLOBAL, List.of(), Map.of("flag", true)));
    }

    private static MemoryEntry withKey(MemoryEntry e, String key) {
        return new MemoryEntry(key, e.value(), e.scope(), e.tags(), e.metadata(), e.createdAt(), e.updatedAt(), e.version());
    }

    @Test
    void set_all_returns_and_stores_what_sets_in_sequence_would() {
        // one instant for both sides, however often a provider reads the clock
        clock.freezeAt(clock.peek());
        put("seq:a", "before");
        put("all:a", "before");
        clock.advance(Duration.ofMinutes(1));
        List<MemoryEntry> sequence = new ArrayList<>();
        List<MemoryEntry> batch;
        try (MemoryTransaction tx = begin()) {
            for (Write w : writes("seq:")) {
                sequence.add(tx.set(w.key(), w.value(), w.scope(), w.tags(), w.metadata()));
            }
            batch = tx.setAll(writes("all:"));
            assertThat(tx.get("all:a", Scope.PROJECT)).as("the transaction sees its batch").contains(batch.get(2));
            tx.commit();
        }
        assertThat(batch).hasSize(5);
        for (int i = 0; i < batch.size(); i++) {
            assertThat(batch.get(i)).as("write %d", i)
                    .isEqualTo(withKey(sequence.get(i), "all:" + sequence.get(i).key().substring("seq:".length())));
        }
        assertThat(batch).extracting(MemoryEntry::version).containsExactly(2L, 1L, 3L, 1L, 1L);
        assertThat(batch.get(0).tags()).containsExactly("t2", "t1");
        assertThat(provider.get("all:a", Scope.PROJECT)).contains(batch.get(2));
        assertThat(provider.get("all:new", Scope.PROJECT)).contains(batch.get(1));
        assertThat(provider.get("all:s", Scope.SESSION)).contains(batch.get(3));
        assertThat(provider.get("all:g", Scope.GLOBAL)).contains(batch.get(4));
        assertThat(put("all:a", "after").version()).isEqualTo(4);
    }

    @Test
    void set_all_continues_from_the_transactions_own_reads_writes_and_deletes() {
        MemoryEntry stored = put("read", "stored");
        put("deleted", "one");
        try (MemoryTransaction tx = begin()) {
            assertThat(tx.get("read", Scope.PROJECT)).contains(stored);
            MemoryEntry written = tx.set("written", "first", Scope.PROJECT);
            assertThat(tx.delete("deleted", Scope.PROJECT)).isTrue();
            List<MemoryEntry> batch = tx.setAll(List.of(Write.of("read", "r2", Scope.PROJECT),
                    Write.of("written", "second", Scope.PROJECT), Write.of("deleted", "again", Scope.PROJECT)));
            assertThat(batch).extracting(MemoryEntry::version).containsExactly(2L, 2L, versionAfterDelete(1));
            assertThat(batch.get(0).createdAt()).isEqualTo(stored.createdAt());
            assertThat(batch.get(1).createdAt()).isEqualTo(written.createdAt());
            tx.commit();
        }
        assertThat(provider.get("deleted", Scope.PROJECT).orElseThrow().version()).isEqualTo(versionAfterDelete(1));
        assertThat(provider.get("written", Scope.PROJECT).orElseThrow().value()).isEqualTo("second");
    }

    @Test
    @RequiresCapability(Capability.HISTORY)
    void set_all_leaves_every_write_in_the_history() {
        MemoryEntry first = put("k", "one");
        List<MemoryEntry> batch;
        try (MemoryTransaction tx = begin()) {
            batch = tx.setAll(List.of(Write.of("k", "two", Scope.PROJECT), Write.of("k", "three", Scope.PROJECT)));
            tx.commit();
        }
        assertThat(provider.history().orElseThrow().versions("k", Scope.PROJECT)).containsExactly(first, batch.get(0),
                batch.get(1));
    }

    @Test
    void one_invalid_write_buffers_none_and_the_transaction_stays_usable() {
        put("k", "before");
        List<MemoryEntry> before = everything();
        String tooLarge = "x".repeat((int) testableValueLimit() + 1);
        try (MemoryTransaction tx = begin()) {
            assertThatThrownBy(() -> tx.setAll(List.of(Write.of("k", "changed", Scope.PROJECT),
                    Write.of("new", "x", Scope.PROJECT), Write.of("bad\nkey", "x", Scope.PROJECT))))
                    .isInstanceOf(InvalidKeyException.class);
            assertThatThrownBy(() -> tx.setAll(List.of(Write.of("k", "changed", Scope.PROJECT),
                    Write.of("big", tooLarge, Scope.PROJECT)))).isInstanceOf(ValueTooLargeException.class);
            assertThatThrownBy(() -> tx.setAll(List.of(Write.of("new", "x", Scope.GLOBAL),
                    new Write("tagged", "x", Scope.PROJECT, List.of(""), Map.of()))))
                    .isInstanceOf(InvalidEntryException.class);
            assertThat(tx.isActive()).isTrue();
            assertThat(tx.get("k", Scope.PROJECT).map(MemoryEntry::value)).contains("before");
            assertThat(tx.get("new", Scope.PROJECT)).isEmpty();
            assertThat(tx.get("new", Scope.GLOBAL)).isEmpty();
            MemoryEntry good = tx.setAll(List.of(Write.of("good", "v", Scope.PROJECT))).get(0);
            tx.commit();
            before = new ArrayList<>(before);
            before.add(0, good);
        }
        assertThat(everything()).containsExactlyInAnyOrderElementsOf(before);
        assertThat(put("k", "after").version()).isEqualTo(2);
    }

    @Test
    void rollback_drops_every_write_of_set_all() {
        put("k", "before");
        List<MemoryEntry> before = everything();
        MemoryTransaction tx = begin();
        tx.setAll(List.of(Write.of("k", "changed", Scope.PROJECT), Write.of("new", "x", Scope.PROJECT),
                Write.of("g", "x", Scope.GLOBAL)));
        tx.rollback();
        assertUnchanged(before);
        assertThat(put("k", "after").version()).isEqualTo(2);
        assertThat(put("new", "after").version()).isEqualTo(1);
    }

    @Test
    void a_key_another_writer_changed_after_set_all_read_it_is_a_conflict_at_commit() {
        put("k", "original");
        MemoryTransaction tx = begin();
        tx.setAll(List.of(Write.of("fresh", "from the transaction", Scope.PROJECT),
                Write.of("k", "from the transaction", Scope.PROJECT)));
        MemoryEntry other = put("k", "from another writer");
        assertThatThrownBy(tx::commit).isInstanceOf(ConflictException.class);
        assertThat(tx.isActive()).isFalse();
        tx.close();
        assertThat(provider.get("k", Scope.PROJECT)).contains(other);
        assertThat(provider.get("fresh", Scope.PROJECT)).as("nothing of the refused transaction is applied").isEmpty();
    }

    @Test
    void set_all_with_no_writes_returns_nothing_and_a_finished_transaction_refuses_it() {
        MemoryTransaction tx = begin();
        assertThat(tx.setAll(List.of())).isEmpty();
        tx.commit();
        assertThatThrownBy(() -> tx.setAll(List.of(Write.of("late", "x", Scope.PROJECT))))
                .isInstanceOf(InvalidRequestException.class);
        assertThat(provider.get("late", Scope.PROJECT)).isEmpty();
    }
}
