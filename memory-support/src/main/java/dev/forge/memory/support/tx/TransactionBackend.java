package dev.forge.memory.support.tx;

import dev.forge.memory.EntryRef;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.support.EntryWrite;
import java.time.Clock;
import java.util.Optional;

/**
 * The store behind an {@link OptimisticTransaction}: how to read a key with its revision, and how to check revisions
 * and apply a transaction's changes atomically. Everything else (the buffer, reads of the transaction's own writes,
 * version numbers, the rules a closed or finished transaction follows) is the transaction's.
 *
 * @param <R> what identifies the stored state of a key for the conflict check (a row id, a version token, ...)
 */
public interface TransactionBackend<R> {

    /**
     * Throws if the store is closed.
     *
     * @throws dev.forge.memory.BackendUnavailableException if it is
     */
    void checkOpen();

    /** Whether the store is closed. */
    boolean isClosed();

    /** The limits writes are validated against. */
    Limits limits();

    /** The clock writes are stamped with. */
    Clock clock();

    /**
     * Whether a deletion leaves a tombstone that takes a version number, so that a key written again after it counts
     * on from there; otherwise it starts again at version 1.
     */
    boolean tombstones();

    /** What is stored of {@code ref} now, with its revision. The key is valid and the scope not null. */
    Snapshot<R> read(EntryRef ref);

    /**
     * The entry {@code write} stores over {@code live} when the key's highest version is {@code lastVersion}: by
     * default {@link EntryWrite#toEntry(Optional, long, java.time.Instant)} at the clock's instant. A backend that
     * checks more (an encoded size limit) does it here, so that the write fails inside the transaction.
     */
    default MemoryEntry prepare(EntryWrite write, Optional<MemoryEntry> live, long lastVersion) {
        return write.toEntry(live, lastVersion, clock().instant());
    }

    /**
     * In one atomic step: checks every observed revision (see {@link Commit#verify}) and applies every change, or
     * applies nothing. Called once per committed transaction, also when it has no changes (a backend may then return
     * without checking).
     *
     * @throws dev.forge.memory.ConflictException if a key changed since the transaction read it; nothing is applied
     */
    void commit(Commit<R> commit);
}
