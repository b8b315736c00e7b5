package dev.forge.memory.sqlite.internal;

import dev.forge.memory.EntryRef;
import dev.forge.memory.Keys;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.support.tx.Change;
import dev.forge.memory.support.tx.Commit;
import dev.forge.memory.support.tx.Snapshot;
import dev.forge.memory.support.tx.TransactionBackend;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.Optional;

/**
 * The SQLite side of an {@link dev.forge.memory.support.tx.OptimisticTransaction}: a key's revision is the id of its
 * last version row, tombstones included. A commit is one {@code BEGIN IMMEDIATE} transaction that checks every
 * revision the transaction saw, then applies every buffered write, or applies nothing.
 */
public final class SqliteTransactions extends TransactionBackend<Long> {

    private final SqliteStore store;

    /** Transactions on {@code store}, stamping writes with {@code clock}. */
    public SqliteTransactions(SqliteStore store, Clock clock) {
        super(store::checkOpen, store::isClosed, store.limits(), clock, true);
        this.store = store;
    }

    @Override
    public Snapshot<Long> read(EntryRef ref) {
        Namespace namespace = store.namespace(ref.scope());
        Database database = store.database();
        return database.read("read key '" + Keys.abbreviate(ref.key()) + "' in a transaction", connection -> {
            // One statement: the entry and the revision come from one snapshot.
            try (PreparedStatement statement = connection.prepareStatement(Statements.TRANSACTION_READ)) {
                int next = namespace.bind(statement, 1);
                statement.setString(next++, ref.key());
                next = namespace.bind(statement, next);
                statement.setString(next, ref.key());
                try (ResultSet rows = statement.executeQuery()) {
                    rows.next();
                    Optional<MemoryEntry> entry = rows.getString("key") == null ? Optional.empty()
                            : Optional.of(Rows.entry(rows, database.path()));
                    long lastVersion = Math.max(rows.getLong("last_version"), entry.map(MemoryEntry::version).orElse(0L));
                    return Snapshot.of(entry, lastVersion, rows.getLong("revision"));
                }
            }
        });
    }

    @Override
    public void commit(Commit<Long> commit) {
        if (commit.changes().isEmpty()) {
            return;
        }
        store.database().write("commit a transaction", connection -> {
            for (var seen : commit.observed().entrySet()) {
                EntryRef ref = seen.getKey();
                if (SqliteStore.current(connection, store.namespace(ref.scope()), ref.key()).revision() != seen.getValue()) {
                    throw Commit.conflict(ref);
                }
            }
            for (Change change : commit.changes()) {
                Namespace namespace = store.namespace(change.ref().scope());
                SqliteStore.Current current = SqliteStore.current(connection, namespace, change.ref().key());
                if (change.entry().isPresent()) {
                    SqliteStore.apply(connection, namespace, change.entry().get(), current);
                } else if (current.live()) {
                    SqliteStore.deleteLive(connection, namespace, change.ref().key(), current, clock().instant());
                }
            }
            return null;
        });
    }
}
