package dev.forge.memory.sqlite.internal;

import dev.forge.memory.EntryRef;
import dev.forge.memory.Keys;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.support.tx.Change;
import dev.forge.memory.support.tx.Commit;
import dev.forge.memory.support.tx.Snapshot;
import dev.forge.memory.support.tx.TransactionBackend;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The SQLite side of an {@link dev.forge.memory.support.tx.OptimisticTransaction}: a key's revision is the id of its
 * last version row in its file, tombstones included. A commit on one file is one {@code BEGIN IMMEDIATE} transaction
 * that checks every revision the transaction saw, then applies every buffered write, or applies nothing.
 *
 * <p>A commit that touches keys of both the project store and the global store holds both files' write locks (the
 * project's first, as every write of this provider that takes both does, so that two never wait for each other),
 * checks every revision in both and stages the project's writes, commits the global file and then the project file.
 * A conflict or an error before the global commit applies nothing; only a crash or an I/O failure between the two
 * commits leaves the GLOBAL writes applied without the others (SQLite commits atomically per file).
 */
public final class SqliteTransactions extends TransactionBackend<Long> {

    private final ScopedStores stores;

    /** Transactions on {@code stores}, stamping writes with {@code clock}. */
    public SqliteTransactions(ScopedStores stores, Clock clock) {
        super(stores.project()::checkOpen, stores.project()::isClosed, stores.project().limits(), clock, true);
        this.stores = stores;
    }

    @Override
    public Snapshot<Long> read(EntryRef ref) {
        SqliteStore store = stores.of(ref.scope());
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
        SqliteStore project = stores.project();
        SqliteStore global = stores.global();
        boolean touchesGlobal = touches(commit, global);
        if (stores.split() && !touches(commit, project)) {
            global.database().write("commit a transaction", connection -> {
                checkAndApply(connection, global, commit, clock().instant());
                return null;
            });
            return;
        }
        project.database().write("commit a transaction", connection -> {
            Instant now = clock().instant();
            checkAndApply(connection, project, commit, now);
            if (stores.split() && touchesGlobal) {
                global.database().write("commit a transaction's GLOBAL writes", globalConnection -> {
                    checkAndApply(globalConnection, global, commit, now);
                    return null;
                });
            }
            return null;
        });
    }

    private boolean touches(Commit<Long> commit, SqliteStore store) {
        return commit.observed().keySet().stream().anyMatch(ref -> stores.of(ref.scope()) == store)
                || commit.changes().stream().anyMatch(change -> stores.of(change.ref().scope()) == store);
    }

    /** Checks the revisions of {@code commit}'s keys that live in {@code store}, then applies its changes there. */
    private void checkAndApply(Connection connection, SqliteStore store, Commit<Long> commit, Instant now) throws SQLException {
        for (Map.Entry<EntryRef, Long> seen : commit.observed().entrySet()) {
            EntryRef ref = seen.getKey();
            if (stores.of(ref.scope()) == store
                    && SqliteStore.current(connection, store.namespace(ref.scope()), ref.key()).revision() != seen.getValue()) {
                throw Commit.conflict(ref);
            }
        }
        List<Change> changes = commit.changes().stream().filter(change -> stores.of(change.ref().scope()) == store).toList();
        for (Change change : changes) {
            Namespace namespace = store.namespace(change.ref().scope());
            SqliteStore.Current current = SqliteStore.current(connection, namespace, change.ref().key());
            if (change.entry().isPresent()) {
                store.apply(connection, namespace, change.entry().get(), current);
            } else if (current.live()) {
                SqliteStore.deleteLive(connection, namespace, change.ref().key(), current, now);
            }
        }
    }
}
