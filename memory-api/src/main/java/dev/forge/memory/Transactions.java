package dev.forge.memory;

/**
 * Atomic multi-entry changes: the {@link Capability#TRANSACTIONS} facet.
 *
 * <p>Inside a transaction, reads see the transaction's own writes; nothing it writes is visible to anyone
 * else before {@link MemoryTransaction#commit()}, and after it all of it is. A rolled-back transaction
 * leaves no trace. Each provider documents its isolation. When another writer changed or holds the same keys, a
 * provider may throw {@link ConflictException} from the transaction's {@code set}, {@code delete} or
 * {@code commit}; then nothing of the transaction is applied and it is no longer active. Retry the work.
 */
public interface Transactions {

    /** Starts a transaction. Close it with commit, rollback, or {@code close()} (which rolls back). */
    MemoryTransaction begin();

    /**
     * Runs {@code work} in a new transaction: commits when it returns, rolls back when it throws
     * (and rethrows).
     *
     * @return what {@code work} returned
     */
    default <T> T inTransaction(TransactionWork<T> work) {
        try (MemoryTransaction transaction = begin()) {
            T result = work.run(transaction);
            transaction.commit();
            return result;
        }
    }

    /** Work to run in a transaction. */
    @FunctionalInterface
    interface TransactionWork<T> {
        /** Does the work through {@code transaction}; must not commit or roll it back. */
        T run(MemoryTransaction transaction);
    }
}
