package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Capability;
import dev.forge.memory.ConflictException;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.InvalidKeyException;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Scope;
import dev.forge.memory.Transactions;
import dev.forge.memory.ValueTooLargeException;
import dev.forge.memory.VersionHistory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;

/**
 * Transactions: atomic commit, rollback, isolation of uncommitted writes, and the life cycle of a
 * {@link MemoryTransaction}. Single-threaded: two transactions are interleaved by hand where needed.
 *
 * <p>A provider may detect a conflict when a transaction writes (a pessimistic backend locks on write) or when
 * it commits; the conflict tests accept either. Each test has a time limit and runs on a thread of its own, so
 * that a backend that waits forever for a lock its own thread holds fails the test instead of hanging the build,
 * even when the blocked call ignores interrupts.
 */
@RequiresCapability(Capability.TRANSACTIONS)
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = ThreadMode.SEPARATE_THREAD)
public abstract class TransactionContract extends ContractSupport {

    private Transactions transactions() {
        return provider.transactions().orElseThrow();
    }

    private MemoryTransaction begin() {
        return transactions().begin();
    }

    private String valueOf(MemoryProvider p, String key, Scope scope) {
        return p.get(key, scope).map(MemoryEntry::value).orElse(null);
    }

    /**
     * One transaction driven step by step, where any step may fail with {@link ConflictException}: such a
     * transaction must be inactive at once; it is closed and its later steps are skipped.
     */
    private static final class Attempt {
        private final MemoryTransaction transaction;
        private ConflictException conflict;

        Attempt(MemoryTransaction transaction) {
            this.transaction = transaction;
        }

        void step(Consumer<MemoryTransaction> work) {
            if (conflict != null) {
                return;
            }
            try {
                work.accept(transaction);
            } catch (ConflictException e) {
                conflict = e;
                assertThat(transaction.isActive()).as("a transaction that met a conflict is no longer active").isFalse();
                transaction.close();
            }
        }

        void commit() {
            step(MemoryTransaction::commit);
        }

        boolean conflicted() {
            return conflict != null;
        }
    }

    @Test
    void commit_makes_every_write_visible() {
        put("old", "to be deleted");
        MemoryEntry a;
        MemoryEntry s;
        MemoryEntry g;
        try (MemoryTransaction tx = begin()) {
            a = tx.set("a", "one", Scope.PROJECT, List.of("t2", "t1"), Map.of("n", 1));
            s = tx.set("s", "two", Scope.SESSION);
            g = tx.set("g", "three", Scope.GLOBAL);
            assertThat(tx.delete("old", Scope.PROJECT)).isTrue();
            tx.commit();
        }
        assertThat(provider.get("a", Scope.PROJECT)).contains(a);
        assertThat(a.tags()).containsExactly("t2", "t1");
        assertThat(a.metadata()).isEqualTo(Map.of("n", 1L));
        assertThat(provider.get("s", Scope.SESSION)).contains(s);
        assertThat(provider.get("g", Scope.GLOBAL)).contains(g);
        assertThat(keys(everything())).containsExactly("a", "g", "s");
    }

    @Test
    void rollback_leaves_no_trace() {
        put("kept", "v");
        put("k", "before");
        List<MemoryEntry> before = everything();
        MemoryTransaction tx = begin();
        tx.set("k", "changed", Scope.PROJECT);
        tx.set("new", "x", Scope.PROJECT);
        tx.set("g", "x", Scope.GLOBAL);
        tx.delete("kept", Scope.PROJECT);
        tx.rollback();
        assertUnchanged(before);
        // the next write continues from the stored version, as if the transaction never ran
        assertThat(put("k", "after").version()).isEqualTo(2);
        assertThat(put("new", "after").version()).isEqualTo(1);
    }

    @Test
    @RequiresCapability(Capability.HISTORY)
    void rollback_leaves_no_trace_in_history() {
        MemoryEntry stored = put("k", "before");
        MemoryTransaction tx = begin();
        tx.set("k", "changed", Scope.PROJECT);
        tx.set("k", "changed again", Scope.PROJECT);
        tx.set("new", "x", Scope.PROJECT);
        tx.rollback();
        VersionHistory history = provider.history().orElseThrow();
        assertThat(history.versions("k", Scope.PROJECT)).containsExactly(stored);
        assertThat(history.versions("new", Scope.PROJECT)).isEmpty();
    }

    @Test
    void close_without_commit_rolls_back() {
        put("k", "before");
        List<MemoryEntry> before = everything();
        try (MemoryTransaction tx = begin()) {
            tx.set("k", "changed", Scope.PROJECT);
            tx.set("new", "x", Scope.SESSION);
            tx.delete("k", Scope.PROJECT);
        }
        assertUnchanged(before);
    }

    @Test
    void uncommitted_writes_are_invisible_outside_the_transaction() {
        MemoryProvider sameContext = open(PROJECT, SESSION);
        MemoryProvider otherProject = open("project-b", "session-2");
        put("k", "committed");
        put("doomed", "committed");
        MemoryTransaction tx = begin();
        tx.set("k", "pending", Scope.PROJECT);
        tx.set("new", "pending", Scope.PROJECT);
        tx.set("s", "pending", Scope.SESSION);
        tx.set("g", "pending", Scope.GLOBAL);
        tx.delete("doomed", Scope.PROJECT);
        for (MemoryProvider p : List.of(provider, sameContext)) {
            assertThat(valueOf(p, "k", Scope.PROJECT)).isEqualTo("committed");
            assertThat(valueOf(p, "doomed", Scope.PROJECT)).isEqualTo("committed");
            assertThat(p.get("new", Scope.PROJECT)).isEmpty();
            assertThat(p.get("s", Scope.SESSION)).isEmpty();
            assertThat(p.get("g", Scope.GLOBAL)).isEmpty();
        }
        assertThat(keys(everything())).containsExactly("doomed", "k");
        assertThat(otherProject.get("g", Scope.GLOBAL)).isEmpty();
        tx.commit();
        for (MemoryProvider p : List.of(provider, sameContext)) {
            assertThat(valueOf(p, "k", Scope.PROJECT)).isEqualTo("pending");
            assertThat(p.get("doomed", Scope.PROJECT)).isEmpty();
            assertThat(valueOf(p, "new", Scope.PROJECT)).isEqualTo("pending");
            assertThat(valueOf(p, "s", Scope.SESSION)).isEqualTo("pending");
        }
        assertThat(valueOf(otherProject, "g", Scope.GLOBAL)).isEqualTo("pending");
    }

    @Test
    void committed_writes_respect_project_and_session_isolation() {
        transactions().inTransaction(tx -> {
            tx.set("p", "mine", Scope.PROJECT);
            tx.set("s", "mine", Scope.SESSION);
            return null;
        });
        MemoryProvider otherProject = open("project-b", "session-2");
        MemoryProvider otherSession = open(PROJECT, "session-2");
        assertThat(otherProject.get("p", Scope.PROJECT)).isEmpty();
        assertThat(otherSession.get("s", Scope.SESSION)).isEmpty();
        assertThat(valueOf(otherSession, "p", Scope.PROJECT)).isEqualTo("mine");
    }

    @Test
    void reads_inside_a_transaction_see_its_own_writes() {
        put("stored", "v");
        try (MemoryTransaction tx = begin()) {
            MemoryEntry written = tx.set("k", "mine", Scope.PROJECT, List.of("t"), Map.of());
            assertThat(tx.get("k", Scope.PROJECT)).contains(written);
            assertThat(tx.get("k", Scope.GLOBAL)).isEmpty();
            assertThat(tx.get("stored", Scope.PROJECT).map(MemoryEntry::value)).contains("v");
            assertThat(tx.delete("stored", Scope.PROJECT)).isTrue();
            assertThat(tx.get("stored", Scope.PROJECT)).isEmpty();
            assertThat(tx.delete("stored", Scope.PROJECT)).isFalse();
            assertThat(tx.delete("k", Scope.PROJECT)).isTrue();
            assertThat(tx.get("k", Scope.PROJECT)).isEmpty();
            assertThat(tx.delete("never-written", Scope.PROJECT)).isFalse();
        }
    }

    @Test
    void versions_inside_a_transaction_continue_from_the_stored_version() {
        MemoryEntry first = put("k", "one");
        put("k", "two");
        clock.advance(Duration.ofMinutes(5));
        MemoryEntry four;
        try (MemoryTransaction tx = begin()) {
            MemoryEntry three = tx.set("k", "three", Scope.PROJECT);
            assertThat(three.version()).isEqualTo(3);
            assertThat(three.createdAt()).isEqualTo(first.createdAt());
            assertThat(three.updatedAt()).isAfter(first.updatedAt().plus(Duration.ofMinutes(4)));
            four = tx.set("k", "four", Scope.PROJECT);
            assertThat(four.version()).isEqualTo(4);
            tx.commit();
        }
        assertThat(provider.get("k", Scope.PROJECT)).contains(four);
        assertThat(put("k", "five").version()).isEqualTo(5);
    }

    @Test
    void a_delete_inside_a_transaction_is_applied_at_commit() {
        put("k", "v");
        put("other", "o");
        MemoryTransaction tx = begin();
        assertThat(tx.delete("k", Scope.PROJECT)).isTrue();
        assertThat(valueOf(provider, "k", Scope.PROJECT)).isEqualTo("v");
        tx.commit();
        assertThat(provider.get("k", Scope.PROJECT)).isEmpty();
        assertThat(keys(everything())).containsExactly("other");
        assertThat(put("k", "again").version()).isEqualTo(versionAfterDelete(1));
    }

    @Test
    void delete_then_set_in_a_transaction_starts_the_key_again() {
        MemoryEntry old = put("k", "one");
        put("k", "two");
        MemoryEntry fresh;
        try (MemoryTransaction tx = begin()) {
            tx.delete("k", Scope.PROJECT);
            fresh = tx.set("k", "fresh", Scope.PROJECT);
            tx.commit();
        }
        assertThat(fresh.version()).isEqualTo(versionAfterDelete(2));
        assertThat(fresh.createdAt()).isEqualTo(fresh.updatedAt()).isAfter(old.createdAt());
        assertThat(provider.get("k", Scope.PROJECT)).contains(fresh);
    }

    @Test
    void in_transaction_commits_when_the_work_returns() {
        String result = transactions().inTransaction(tx -> {
            tx.set("a", "1", Scope.PROJECT);
            tx.set("b", "2", Scope.GLOBAL);
            return "done";
        });
        assertThat(result).isEqualTo("done");
        assertThat(valueOf(provider, "a", Scope.PROJECT)).isEqualTo("1");
        assertThat(valueOf(provider, "b", Scope.GLOBAL)).isEqualTo("2");
    }

    @Test
    void in_transaction_rolls_back_and_rethrows_when_the_work_throws() {
        put("k", "before");
        List<MemoryEntry> before = everything();
        IllegalStateException failure = new IllegalStateException("work failed");
        assertThatThrownBy(() -> transactions().inTransaction(tx -> {
            tx.set("k", "changed", Scope.PROJECT);
            tx.set("new", "x", Scope.PROJECT);
            throw failure;
        })).isSameAs(failure);
        assertUnchanged(before);
        // a memory error raised inside the work is rethrown as it is, too
        assertThatThrownBy(() -> transactions().inTransaction(tx -> {
            tx.set("new", "x", Scope.PROJECT);
            return tx.set("", "x", Scope.PROJECT);
        })).isInstanceOf(InvalidKeyException.class);
        assertUnchanged(before);
    }

    @Test
    void a_committed_transaction_refuses_further_use() {
        MemoryTransaction tx = begin();
        MemoryEntry committed = tx.set("k", "committed", Scope.PROJECT);
        tx.commit();
        assertRefusesUse(tx);
        assertThat(provider.get("k", Scope.PROJECT)).contains(committed);
        assertThat(provider.get("late", Scope.PROJECT)).isEmpty();
    }

    @Test
    void a_rolled_back_or_closed_transaction_refuses_further_use() {
        MemoryTransaction rolledBack = begin();
        rolledBack.set("k", "x", Scope.PROJECT);
        rolledBack.rollback();
        assertRefusesUse(rolledBack);
        MemoryTransaction closed = begin();
        closed.set("k", "x", Scope.PROJECT);
        closed.close();
        assertRefusesUse(closed);
        assertThat(everything()).isEmpty();
    }

    private static void assertRefusesUse(MemoryTransaction tx) {
        assertThatThrownBy(() -> tx.get("k", Scope.PROJECT)).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> tx.set("late", "x", Scope.PROJECT)).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> tx.delete("k", Scope.PROJECT)).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(tx::commit).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(tx::rollback).isInstanceOf(InvalidRequestException.class);
        assertThatCode(tx::close).doesNotThrowAnyException();
    }

    @Test
    void is_active_until_committed_rolled_back_or_closed() {
        MemoryTransaction committed = begin();
        assertThat(committed.isActive()).isTrue();
        committed.set("k", "v", Scope.PROJECT);
        assertThat(committed.isActive()).isTrue();
        committed.commit();
        assertThat(committed.isActive()).isFalse();
        committed.close();
        assertThat(committed.isActive()).isFalse();

        MemoryTransaction rolledBack = begin();
        rolledBack.rollback();
        assertThat(rolledBack.isActive()).isFalse();

        MemoryTransaction closed = begin();
        closed.close();
        assertThat(closed.isActive()).isFalse();
        closed.close();
        assertThat(closed.isActive()).isFalse();
    }

    @Test
    void invalid_input_inside_a_transaction_throws_and_the_other_writes_still_commit() {
        MemoryTransaction tx = begin();
        MemoryEntry good = tx.set("good", "v", Scope.PROJECT);
        assertThatThrownBy(() -> tx.set("", "v", Scope.PROJECT)).isInstanceOf(InvalidKeyException.class);
        assertThatThrownBy(() -> tx.set("bad\nkey", "v", Scope.PROJECT)).isInstanceOf(InvalidKeyException.class);
        assertThatThrownBy(() -> tx.get("", Scope.PROJECT)).isInstanceOf(InvalidKeyException.class);
        assertThatThrownBy(() -> tx.set("bad-tag", "v", Scope.PROJECT, List.of(""), Map.of()))
                .isInstanceOf(InvalidEntryException.class);
        assertThat(tx.isActive()).isTrue();
        assertThat(tx.get("bad-tag", Scope.PROJECT)).isEmpty();
        tx.commit();
        assertThat(everything()).containsExactly(good);
    }

    @Test
    void a_value_over_the_limit_inside_a_transaction_throws_and_the_other_writes_still_commit() {
        String tooLarge = "x".repeat((int) testableValueLimit() + 1);
        MemoryTransaction tx = begin();
        MemoryEntry good = tx.set("good", "v", Scope.PROJECT);
        assertThatThrownBy(() -> tx.set("big", tooLarge, Scope.PROJECT)).isInstanceOf(ValueTooLargeException.class);
        assertThat(tx.isActive()).isTrue();
        assertThat(tx.get("big", Scope.PROJECT)).isEmpty();
        tx.commit();
        assertThat(everything()).containsExactly(good);
    }

    @Test
    void conflicting_transactions_never_lose_an_update() {
        put("k", "original");
        Attempt first = new Attempt(begin());
        Attempt second = new Attempt(begin());
        first.step(tx -> tx.set("k", "first", Scope.PROJECT));
        second.step(tx -> tx.set("k", "second", Scope.PROJECT));
        second.step(tx -> tx.set("other", "from second", Scope.PROJECT));
        first.commit();
        second.commit();
        assertThat(first.conflicted() && second.conflicted()).as("one of two conflicting transactions commits").isFalse();
        // Any transaction may be the one refused. Whichever commits is counted: a lost update, or one that
        // reuses a version number, is never allowed; a refused transaction applies nothing.
        MemoryEntry stored = provider.get("k", Scope.PROJECT).orElseThrow();
        assertThat(stored.value()).isEqualTo(second.conflicted() ? "first" : "second");
        assertThat(stored.version()).isEqualTo(1 + (first.conflicted() ? 0 : 1) + (second.conflicted() ? 0 : 1));
        assertThat(valueOf(provider, "other", Scope.PROJECT)).isEqualTo(second.conflicted() ? null : "from second");
    }

    @Test
    void a_key_deleted_and_re_created_after_the_transaction_read_it_never_gets_the_stale_created_at() {
        MemoryEntry original = put("k", "original");
        Attempt attempt = new Attempt(begin());
        attempt.step(tx -> assertThat(tx.get("k", Scope.PROJECT)).contains(original));
        clock.advance(Duration.ofMinutes(1));
        assertThat(provider.delete("k", Scope.PROJECT)).isTrue();
        MemoryEntry recreated = put("k", "re-created by another writer");
        assertThat(recreated.version()).as("the same version number the transaction read, unless deletions are kept")
                .isEqualTo(versionAfterDelete(1));
        assertThat(recreated.createdAt()).isAfter(original.createdAt());
        clock.advance(Duration.ofMinutes(1));
        attempt.step(tx -> tx.set("k", "from the transaction", Scope.PROJECT));
        attempt.commit();

        MemoryEntry stored = provider.get("k", Scope.PROJECT).orElseThrow();
        if (attempt.conflicted()) {
            assertThat(stored).as("a refused transaction leaves the other writer's entry").isEqualTo(recreated);
        } else {
            assertThat(stored.value()).isEqualTo("from the transaction");
            assertThat(stored.createdAt()).as("created when re-created, not when first created").isEqualTo(recreated.createdAt());
            assertThat(stored.version()).isEqualTo(recreated.version() + 1);
        }
        provider.history().ifPresent(history -> {
            List<MemoryEntry> versions = history.versions("k", Scope.PROJECT);
            // with tombstones the first life stays in the history, before the deletion's gap
            List<MemoryEntry> newLife = has(Capability.TOMBSTONES) ? versions.subList(1, versions.size()) : versions;
            if (has(Capability.TOMBSTONES)) {
                assertThat(versions.get(0)).isEqualTo(original);
            }
            assertThat(newLife).extracting(MemoryEntry::version).containsExactlyElementsOf(
                    LongStream.rangeClosed(recreated.version(), stored.version()).boxed().toList());
            assertThat(newLife).extracting(MemoryEntry::createdAt).containsOnly(recreated.createdAt());
            assertThat(versions).last().isEqualTo(stored);
        });
    }

    @Test
    void after_close_transactions_are_inactive_and_fail_with_backend_unavailable() {
        put("k", "stored");
        Transactions transactions = transactions();
        MemoryTransaction open = transactions.begin();
        open.set("pending", "x", Scope.PROJECT);
        provider.close();
        assertThat(provider.transactions()).as("the accessor keeps answering after close").isPresent();
        assertThat(open.isActive()).isFalse();
        assertThatThrownBy(transactions::begin).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> provider.transactions().orElseThrow().inTransaction(tx -> tx.set("late", "x", Scope.PROJECT)))
                .isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> open.get("k", Scope.PROJECT)).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> open.set("late", "x", Scope.PROJECT)).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> open.delete("k", Scope.PROJECT)).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(open::commit).isInstanceOf(BackendUnavailableException.class);
        assertThatCode(open::close).doesNotThrowAnyException();
        reopen();
        assertThat(keys(everything())).containsExactly("k");
    }

    @Test
    void overlapping_transactions_on_different_keys_both_commit() {
        put("a", "a0");
        MemoryTransaction first = begin();
        MemoryTransaction second = begin();
        first.set("a", "a1", Scope.PROJECT);
        second.set("b", "b1", Scope.PROJECT);
        second.commit();
        first.commit();
        assertThat(provider.get("a", Scope.PROJECT).orElseThrow().version()).isEqualTo(2);
        assertThat(valueOf(provider, "a", Scope.PROJECT)).isEqualTo("a1");
        assertThat(valueOf(provider, "b", Scope.PROJECT)).isEqualTo("b1");
    }
}
