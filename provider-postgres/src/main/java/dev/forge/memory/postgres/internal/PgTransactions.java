package dev.forge.memory.postgres.internal;

import dev.forge.memory.EntryRef;
import dev.forge.memory.Keys;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.support.tx.Change;
import dev.forge.memory.support.tx.Commit;
import dev.forge.memory.support.tx.Snapshot;
import dev.forge.memory.support.tx.TransactionBackend;
import java.time.Clock;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The PostgreSQL side of an {@link dev.forge.memory.support.tx.OptimisticTransaction}: a key's revision is the highest
 * id of its versions and tombstones. A commit is one SQL transaction that takes the advisory locks of every key the
 * transaction touched, checks every revision it saw, then applies every buffered write, or applies nothing: other
 * processes on other machines see all of it or none.
 */
public final class PgTransactions extends TransactionBackend<Long> {

    private final PgStore store;

    /** Transactions on {@code store}, stamping writes with {@code clock}. */
    public PgTransactions(PgStore store, Clock clock) {
        super(store::checkOpen, store::isClosed, store.limits(), clock, true);
        this.store = store;
    }

    @Override
    public Snapshot<Long> read(EntryRef ref) {
        Ns ns = store.ns(ref.scope());
        return store.database().read("read key '" + Keys.abbreviate(ref.key()) + "' in a transaction", connection -> {
            PgStore.Current current = store.current(connection, ns, ref.key());
            return Snapshot.of(current.entry(), current.lastVersion(), current.revision());
        });
    }

    @Override
    public void commit(Commit<Long> commit) {
        if (commit.changes().isEmpty()) {
            return;
        }
        String schema = store.database().schema();
        // Every write's vector is made before the SQL transaction, in one call of the model.
        List<MemoryEntry> written = commit.changes().stream().flatMap(change -> change.entry().stream()).toList();
        List<float[]> made = store.vectors().embed(written);
        store.database().write("commit a transaction", connection -> {
            Iterator<float[]> vectors = made.iterator();
            Set<Long> namespaces = new LinkedHashSet<>();
            Set<Long> keys = new LinkedHashSet<>();
            for (EntryRef ref : commit.observed().keySet()) {
                Ns ns = store.ns(ref.scope());
                namespaces.add(ns.lockId(schema));
                keys.add(ns.keyLockId(schema, ref.key()));
            }
            Ns.lockKeys(connection, namespaces, keys);
            for (Map.Entry<EntryRef, Long> seen : commit.observed().entrySet()) {
                EntryRef ref = seen.getKey();
                if (store.current(connection, store.ns(ref.scope()), ref.key()).revision() != seen.getValue()) {
                    throw Commit.conflict(ref);
                }
            }
            Instant now = clock().instant();
            for (Change change : commit.changes()) {
                Ns ns = store.ns(change.ref().scope());
                PgStore.Current current = store.current(connection, ns, change.ref().key());
                if (change.entry().isPresent()) {
                    store.apply(connection, ns, change.entry().get(), current, vectors.next());
                } else if (current.live()) {
                    PgStore.deleteLive(connection, ns, change.ref().key(), current, now);
                }
            }
            return null;
        });
    }
}
