package dev.forge.memory.graph.internal;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.forge.memory.ConflictException;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Scope;
import dev.forge.memory.support.EntryWrite;
import dev.forge.memory.Keys;

/**
 * An optimistic transaction: reads see committed data, each key as it was when the transaction first touched it, plus
 * the transaction's own writes; writes are buffered. {@link #commit()} is one Neo4j write transaction that locks every
 * touched key's node, checks each still has the revision seen at first touch, then applies every buffered write, or
 * fails with {@link ConflictException} and applies nothing. No lock is held before commit, so the thread that opened
 * it may go on writing through the provider.
 */
public final class GraphTransaction implements MemoryTransaction {

    private record Id(Scope scope, String key) {
    }

    private record State(Optional<MemoryEntry> entry, long lastVersion) {
    }

    /** A buffered write: an entry to store, or a deletion when {@code entry} is null. */
    private record Operation(Id id, MemoryEntry entry) {
    }

    private final GraphStore store;
    private final Clock clock;
    private final List<Operation> operations = new ArrayList<>();
    private final Map<Id, State> view = new HashMap<>();
    private final Map<Id, String> observed = new LinkedHashMap<>();
    private boolean active = true;

    /** A transaction on {@code store}, stamping writes with {@code clock}. */
    public GraphTransaction(GraphStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    private void checkActive() {
        store.checkOpen();
        if (!active) {
            throw new InvalidRequestException("This transaction is already committed or rolled back; begin a new one.");
        }
    }

    private static Id id(String key, Scope scope) {
        java.util.Objects.requireNonNull(scope, "scope");
        Keys.validate(key);
        return new Id(scope, key);
    }

    private State state(Id id) {
        State seen = view.get(id);
        if (seen != null) {
            return seen;
        }
        GraphStore.Current current = store.read("read key '" + Keys.abbreviate(id.key()) + "' in a transaction",
                tx -> store.current(tx, id.scope(), id.key()));
        observed.put(id, current.revision());
        State loaded = new State(current.live(), current.lastVersion());
        view.put(id, loaded);
        return loaded;
    }

    @Override
    public Optional<MemoryEntry> get(String key, Scope scope) {
        checkActive();
        return state(id(key, scope)).entry();
    }

    @Override
    public MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
        checkActive();
        EntryWrite write = EntryWrite.validate(key, value, scope, tags, metadata, store.limits());
        Id id = id(key, scope);
        State state = state(id);
        MemoryEntry entry = GraphStore.stamp(write, state.entry(), state.lastVersion(), clock.instant());
        view.put(id, new State(Optional.of(entry), entry.version()));
        operations.add(new Operation(id, entry));
        return entry;
    }

    @Override
    public boolean delete(String key, Scope scope) {
        checkActive();
        Id id = id(key, scope);
        State state = state(id);
        if (state.entry().isEmpty()) {
            return false;
        }
        view.put(id, new State(Optional.empty(), state.lastVersion() + 1));
        operations.add(new Operation(id, null));
        return true;
    }

    @Override
    public void commit() {
        checkActive();
        active = false;
        if (operations.isEmpty()) {
            return;
        }
        List<Double>[] vectors = vectors();
        store.write("commit a transaction", tx -> {
            for (Id id : observed.keySet()) {
                store.lock(tx, id.scope(), id.key());
            }
            for (Map.Entry<Id, String> seen : observed.entrySet()) {
                Id id = seen.getKey();
                if (!store.current(tx, id.scope(), id.key()).revision().equals(seen.getValue())) {
                    throw new ConflictException("Transaction not committed: key '" + Keys.abbreviate(id.key()) + "' ("
                            + id.scope().id() + ") was changed by another writer since this transaction read it."
                            + " Nothing was applied; retry the transaction.");
                }
            }
            for (int i = 0; i < operations.size(); i++) {
                Operation operation = operations.get(i);
                Id id = operation.id();
                GraphStore.Current current = store.current(tx, id.scope(), id.key());
                if (operation.entry() != null) {
                    store.apply(tx, operation.entry(), current, vectors[i]);
                } else if (current.live().isPresent()) {
                    store.deleteLive(tx, id.scope(), id.key(), current, clock.instant());
                }
            }
            for (Id id : observed.keySet()) {
                store.unlockUnused(tx, id.scope(), id.key());
            }
            return null;
        });
    }

    /**
     * The vector of each buffered write that stays the key's live entry, made at commit in one call of the model (a
     * write overwritten later in the transaction needs none) and before the Neo4j transaction, which a slow model would
     * otherwise hold open; null elsewhere.
     */
    @SuppressWarnings("unchecked")
    private List<Double>[] vectors() {
        List<Double>[] vectors = new List[operations.size()];
        Map<Id, Integer> last = new HashMap<>();
        for (int i = 0; i < operations.size(); i++) {
            last.put(operations.get(i).id(), i);
        }
        List<Integer> positions = new ArrayList<>();
        List<MemoryEntry> entries = new ArrayList<>();
        for (int i : last.values()) {
            if (operations.get(i).entry() != null) {
                positions.add(i);
                entries.add(operations.get(i).entry());
            }
        }
        List<List<Double>> made = store.embeddings(entries);
        for (int j = 0; j < positions.size(); j++) {
            vectors[positions.get(j)] = made.get(j);
        }
        return vectors;
    }

    @Override
    public void rollback() {
        checkActive();
        active = false;
    }

    @Override
    public boolean isActive() {
        return active && !store.isClosed();
    }

    @Override
    public void close() {
        active = false;
    }
}
