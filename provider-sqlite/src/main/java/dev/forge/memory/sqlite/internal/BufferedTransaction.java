package dev.forge.memory.sqlite.internal;

import dev.forge.memory.ConflictException;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Scope;
import dev.forge.memory.support.EntryWrite;
import dev.forge.memory.Keys;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An optimistic transaction: reads see committed data, each key as it was when the transaction first touched it, plus
 * the transaction's own writes; writes are buffered. {@link #commit()} runs one {@code BEGIN IMMEDIATE} transaction that
 * checks every key the transaction touched still has the revision (the id of its last version row, tombstones
 * included) it had at first touch, then applies every buffered write, or fails with {@link ConflictException} and
 * applies nothing. No lock is held before commit, so the thread that opened it may go on writing through the provider.
 */
public final class BufferedTransaction implements MemoryTransaction {

    private record Id(Namespace namespace, String key) {
    }

    /** What the transaction sees of a key: its entry, if live, and the highest version number taken. */
    private record State(Optional<MemoryEntry> entry, long lastVersion) {
    }

    /** A buffered write: an entry to store, or a deletion when {@code entry} is null. */
    private record Operation(Id id, MemoryEntry entry) {
    }

    private final SqliteStore store;
    private final Clock clock;
    private final List<Operation> operations = new ArrayList<>();
    private final Map<Id, State> view = new HashMap<>();
    private final Map<Id, Long> observed = new HashMap<>();
    private boolean active = true;

    /** A transaction on {@code store}, stamping writes with {@code clock}. */
    public BufferedTransaction(SqliteStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    private void checkActive() {
        store.checkOpen();
        if (!active) {
            throw new InvalidRequestException("This transaction is already committed or rolled back; begin a new one.");
        }
    }

    private Id id(String key, Scope scope) {
        Namespace namespace = store.namespace(scope);
        Keys.validate(key);
        return new Id(namespace, key);
    }

    private State state(Id id) {
        State seen = view.get(id);
        if (seen != null) {
            return seen;
        }
        Database database = store.database();
        State loaded = database.read("read key '" + Keys.abbreviate(id.key()) + "' in a transaction", connection -> {
            // One statement: the entry and the revision come from one snapshot.
            try (PreparedStatement statement = connection.prepareStatement(Statements.TRANSACTION_READ)) {
                int next = id.namespace().bind(statement, 1);
                statement.setString(next++, id.key());
                next = id.namespace().bind(statement, next);
                statement.setString(next, id.key());
                try (ResultSet rows = statement.executeQuery()) {
                    rows.next();
                    observed.put(id, rows.getLong("revision"));
                    Optional<MemoryEntry> entry = rows.getString("key") == null ? Optional.empty()
                            : Optional.of(Rows.entry(rows, database.path()));
                    return new State(entry, Math.max(rows.getLong("last_version"), entry.map(MemoryEntry::version).orElse(0L)));
                }
            }
        });
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
        MemoryEntry entry = SqliteStore.stamp(write, state.entry(), state.lastVersion(), clock.instant());
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
        store.database().write("commit a transaction", connection -> {
            for (Map.Entry<Id, Long> seen : observed.entrySet()) {
                Id id = seen.getKey();
                SqliteStore.Current now = SqliteStore.current(connection, id.namespace(), id.key());
                if (now.revision() != seen.getValue()) {
                    throw new ConflictException("Transaction not committed: key '" + Keys.abbreviate(id.key()) + "' ("
                            + id.namespace().scopeId() + ") was changed by another writer since this transaction read it."
                            + " Nothing was applied; retry the transaction.");
                }
            }
            for (Operation operation : operations) {
                Id id = operation.id();
                SqliteStore.Current current = SqliteStore.current(connection, id.namespace(), id.key());
                if (operation.entry() != null) {
                    SqliteStore.apply(connection, id.namespace(), operation.entry(), current);
                } else if (current.live()) {
                    SqliteStore.deleteLive(connection, id.namespace(), id.key(), current, clock.instant());
                }
            }
            return null;
        });
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
