package dev.forge.memory.support.tx;

import dev.forge.memory.EntryRef;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.Keys;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Scope;
import dev.forge.memory.support.EntryWrite;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An optimistic transaction: reads see committed data, each key as it was when the transaction first touched it, plus
 * the transaction's own writes; writes are validated and stamped at once but buffered. {@link #commit()} hands the
 * changes and the revisions first seen to {@link TransactionBackend#commit}, which applies all of them or, if a key
 * changed meanwhile, none ({@link dev.forge.memory.ConflictException}). No lock is held before commit, so the thread
 * that opened it may go on writing through the provider. Not thread-safe: one transaction belongs to one thread.
 *
 * @param <R> the backend's revision type
 */
public final class OptimisticTransaction<R> implements MemoryTransaction {

    /** What the transaction sees of a key now: the stored snapshot at first touch, then its own writes. */
    private record View(Optional<MemoryEntry> entry, long lastVersion, MemoryException unreadable) {
    }

    private final TransactionBackend<R> backend;
    private final List<Change> changes = new ArrayList<>();
    private final Map<EntryRef, View> views = new HashMap<>();
    private final Map<EntryRef, R> observed = new LinkedHashMap<>();
    private boolean active = true;

    /** A transaction on {@code backend}. */
    public OptimisticTransaction(TransactionBackend<R> backend) {
        this.backend = Objects.requireNonNull(backend, "backend");
    }

    /**
     * Begins a transaction on {@code backend}.
     *
     * @throws dev.forge.memory.BackendUnavailableException if the backend is closed
     */
    public static <R> OptimisticTransaction<R> begin(TransactionBackend<R> backend) {
        backend.checkOpen();
        return new OptimisticTransaction<>(backend);
    }

    private void checkActive() {
        backend.checkOpen();
        if (!active) {
            throw new InvalidRequestException("This transaction is already committed or rolled back; begin a new one.");
        }
    }

    private static EntryRef ref(String key, Scope scope) {
        Keys.validate(key);
        Objects.requireNonNull(scope, "scope");
        return new EntryRef(key, scope);
    }

    private View view(EntryRef ref) {
        View seen = views.get(ref);
        if (seen != null) {
            return seen;
        }
        return load(ref, backend.read(ref));
    }

    private View load(EntryRef ref, Snapshot<R> stored) {
        observed.put(ref, stored.revision());
        View loaded = new View(stored.entry(), stored.lastVersion(), stored.unreadable());
        views.put(ref, loaded);
        return loaded;
    }

    /**
     * The key's entry as this transaction sees it.
     *
     * @throws dev.forge.memory.MemoryException the backend's error for data it cannot read, unless this transaction
     *                                          wrote the key since
     */
    @Override
    public Optional<MemoryEntry> get(String key, Scope scope) {
        checkActive();
        View view = view(ref(key, scope));
        if (view.unreadable() != null) {
            throw view.unreadable();
        }
        return view.entry();
    }

    @Override
    public MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
        checkActive();
        EntryWrite write = EntryWrite.validate(key, value, scope, tags, metadata, backend.limits());
        EntryRef ref = new EntryRef(key, scope);
        View view = view(ref);
        MemoryEntry entry = backend.prepare(write, view.entry(), view.lastVersion());
        views.put(ref, new View(Optional.of(entry), entry.version(), null));
        changes.add(new Change(ref, view.entry(), Optional.of(entry)));
        return entry;
    }

    /**
     * Validates every write, reads the keys this transaction has not seen yet in one {@link TransactionBackend#readAll},
     * then stamps the writes in order; buffers them only when all of them could be stamped, so that a failing write
     * buffers none (the keys read stay observed, as a {@code get} of them would leave them).
     */
    @Override
    public List<MemoryEntry> setAll(List<Write> writes) {
        checkActive();
        List<EntryWrite> checked = new ArrayList<>(writes.size());
        for (Write write : writes) {
            checked.add(EntryWrite.validate(write.key(), write.value(), write.scope(), write.tags(), write.metadata(),
                    backend.limits()));
        }
        Set<EntryRef> unseen = new LinkedHashSet<>();
        for (EntryWrite write : checked) {
            EntryRef ref = new EntryRef(write.key(), write.scope());
            if (!views.containsKey(ref)) {
                unseen.add(ref);
            }
        }
        if (!unseen.isEmpty()) {
            List<EntryRef> refs = List.copyOf(unseen);
            List<Snapshot<R>> stored = backend.readAll(refs);
            for (int i = 0; i < refs.size(); i++) {
                load(refs.get(i), stored.get(i));
            }
        }
        Map<EntryRef, View> staged = new HashMap<>();
        List<Change> stagedChanges = new ArrayList<>(checked.size());
        List<MemoryEntry> entries = new ArrayList<>(checked.size());
        for (EntryWrite write : checked) {
            EntryRef ref = new EntryRef(write.key(), write.scope());
            View view = staged.containsKey(ref) ? staged.get(ref) : views.get(ref);
            MemoryEntry entry = backend.prepare(write, view.entry(), view.lastVersion());
            staged.put(ref, new View(Optional.of(entry), entry.version(), null));
            stagedChanges.add(new Change(ref, view.entry(), Optional.of(entry)));
            entries.add(entry);
        }
        views.putAll(staged);
        changes.addAll(stagedChanges);
        return List.copyOf(entries);
    }

    /** Buffers the deletion of the key; whether it held an entry (or unreadable data) as this transaction sees it. */
    @Override
    public boolean delete(String key, Scope scope) {
        checkActive();
        EntryRef ref = ref(key, scope);
        View view = view(ref);
        if (view.entry().isEmpty() && view.unreadable() == null) {
            return false;
        }
        long lastVersion = backend.tombstones() ? EntryWrite.nextVersion(ref, view.lastVersion()) : 0;
        views.put(ref, new View(Optional.empty(), lastVersion, null));
        changes.add(new Change(ref, view.entry(), Optional.empty()));
        return true;
    }

    /**
     * Applies every buffered write, or none; the transaction is finished either way.
     *
     * @throws dev.forge.memory.ConflictException if a key this transaction touched was changed by another writer since
     */
    @Override
    public void commit() {
        checkActive();
        active = false;
        backend.commit(new Commit<>(changes, observed));
    }

    @Override
    public void rollback() {
        checkActive();
        active = false;
    }

    @Override
    public boolean isActive() {
        return active && !backend.isClosed();
    }

    /** Ends the transaction; rolls back if it was not committed. Idempotent. */
    @Override
    public void close() {
        active = false;
    }
}
