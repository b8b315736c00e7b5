package dev.forge.memory.support.tx;

import dev.forge.memory.EntryRef;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.support.EntryWrite;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * The store behind an {@link OptimisticTransaction}: how to read a key with its revision, and how to check revisions
 * and apply a transaction's changes atomically. Everything else (the buffer, reads of the transaction's own writes,
 * version numbers, the rules a closed or finished transaction follows) is the transaction's.
 *
 * @param <R> what identifies the stored state of a key for the conflict check (a row id, a version token, ...)
 */
public abstract class TransactionBackend<R> {

    private final Runnable checkOpen;
    private final BooleanSupplier closed;
    private final Limits limits;
    private final Clock clock;
    private final boolean tombstones;

    /**
     * A backend for a store.
     *
     * @param checkOpen  throws {@link dev.forge.memory.BackendUnavailableException} if the store is closed
     * @param closed     whether the store is closed
     * @param limits     the limits writes are validated against
     * @param clock      the clock writes are stamped with
     * @param tombstones whether a deletion leaves a tombstone that takes a version number, so that a key written again
     *                   after it counts on from there; otherwise it starts again at version 1
     */
    protected TransactionBackend(Runnable checkOpen, BooleanSupplier closed, Limits limits, Clock clock,
                                 boolean tombstones) {
        this.checkOpen = Objects.requireNonNull(checkOpen, "checkOpen");
        this.closed = Objects.requireNonNull(closed, "closed");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.tombstones = tombstones;
    }

    /**
     * Throws if the store is closed.
     *
     * @throws dev.forge.memory.BackendUnavailableException if it is
     */
    public final void checkOpen() {
        checkOpen.run();
    }

    /** Whether the store is closed. */
    public final boolean isClosed() {
        return closed.getAsBoolean();
    }

    /** The limits writes are validated against. */
    public final Limits limits() {
        return limits;
    }

    /** The clock writes are stamped with. */
    public final Clock clock() {
        return clock;
    }

    /** Whether a deletion leaves a tombstone that takes a version number. */
    public final boolean tombstones() {
        return tombstones;
    }

    /** What is stored of {@code ref} now, with its revision. The key is valid and the scope not null. */
    public abstract Snapshot<R> read(EntryRef ref);

    /**
     * What is stored of each of {@code refs} now, in the same order: by default {@link #read} for each. A backend that
     * can read many keys in one round trip overrides it, for {@link OptimisticTransaction#setAll}. The keys are valid,
     * distinct and their scopes not null.
     */
    public List<Snapshot<R>> readAll(List<EntryRef> refs) {
        List<Snapshot<R>> snapshots = new ArrayList<>(refs.size());
        for (EntryRef ref : refs) {
            snapshots.add(read(ref));
        }
        return snapshots;
    }

    /**
     * The entry {@code write} stores over {@code live} when the key's highest version is {@code lastVersion}: by
     * default {@link EntryWrite#toEntry(Optional, long, java.time.Instant)} at the clock's instant. A backend that
     * checks more (an encoded size limit) does it here, so that the write fails inside the transaction.
     */
    public MemoryEntry prepare(EntryWrite write, Optional<MemoryEntry> live, long lastVersion) {
        return write.toEntry(live, lastVersion, clock.instant());
    }

    /**
     * In one atomic step: checks every observed revision (see {@link Commit#verify}) and applies every change, or
     * applies nothing. Called once per committed transaction, also when it has no changes (a backend may then return
     * without checking).
     *
     * @throws dev.forge.memory.ConflictException if a key changed since the transaction read it; nothing is applied
     */
    public abstract void commit(Commit<R> commit);
}
