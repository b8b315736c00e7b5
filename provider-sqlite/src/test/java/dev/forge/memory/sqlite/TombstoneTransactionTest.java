package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.ConflictException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Scope;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transactions meeting tombstones: a commit conflicts with any delete, re-creation or purge of a key it touched since,
 * and a transaction's own deletes take version numbers like any other.
 */
class TombstoneTransactionTest {

    @TempDir
    Path directory;

    @Test
    void a_key_deleted_and_re_created_after_the_transaction_read_it_makes_the_commit_conflict() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            MemoryEntry original = provider.set("k", "original", Scope.PROJECT);
            MemoryTransaction tx = provider.requireTransactions().begin();
            assertThat(tx.get("k", Scope.PROJECT)).contains(original);
            assertThat(provider.delete("k", Scope.PROJECT)).isTrue();
            MemoryEntry recreated = provider.set("k", "re-created by another writer", Scope.PROJECT);
            assertThat(recreated.version()).as("after the tombstone, version 2").isEqualTo(3);
            assertThat(recreated.createdAt()).isAfter(original.createdAt());
            MemoryEntry pending = tx.set("k", "from the transaction", Scope.PROJECT);
            assertThat(pending.createdAt()).as("the transaction's view is its snapshot").isEqualTo(original.createdAt());

            assertThatThrownBy(tx::commit).isInstanceOf(ConflictException.class).hasMessageContaining("'k'");
            assertThat(tx.isActive()).isFalse();
            assertThat(provider.get("k", Scope.PROJECT)).contains(recreated);
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).containsExactly(original, recreated);
        }
    }

    @Test
    void a_purge_after_the_transaction_read_the_key_makes_the_commit_conflict() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("k", "original", Scope.PROJECT);
            MemoryTransaction tx = provider.requireTransactions().begin();
            tx.set("k", "from the transaction", Scope.PROJECT);
            assertThat(provider.requireHistory().purge("k", Scope.PROJECT)).isTrue();
            MemoryEntry fresh = provider.set("k", "fresh", Scope.PROJECT);
            assertThat(fresh.version()).isEqualTo(1);
            assertThatThrownBy(tx::commit).isInstanceOf(ConflictException.class);
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).containsExactly(fresh);
        }
    }

    @Test
    void a_transaction_that_deletes_and_writes_again_numbers_after_its_own_tombstone() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            MemoryEntry one = provider.set("k", "one", Scope.PROJECT);
            MemoryEntry again = provider.requireTransactions().inTransaction(tx -> {
                assertThat(tx.delete("k", Scope.PROJECT)).isTrue();
                tx.set("k", "two", Scope.PROJECT);
                assertThat(tx.delete("k", Scope.PROJECT)).isTrue();
                return tx.set("k", "three", Scope.PROJECT, List.of("t"), java.util.Map.of());
            });
            assertThat(again.version()).as("1, tombstone 2, 3, tombstone 4, 5").isEqualTo(5);
            assertThat(provider.get("k", Scope.PROJECT)).contains(again);
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).extracting(MemoryEntry::version)
                    .containsExactly(1L, 3L, 5L);
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT).get(0)).isEqualTo(one);
        }
    }
}
