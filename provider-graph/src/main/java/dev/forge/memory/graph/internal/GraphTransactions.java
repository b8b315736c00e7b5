package dev.forge.memory.graph.internal;

import dev.forge.memory.EntryRef;
import dev.forge.memory.Keys;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.support.tx.Change;
import dev.forge.memory.support.tx.Commit;
import dev.forge.memory.support.tx.Snapshot;
import dev.forge.memory.support.tx.TransactionBackend;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Neo4j side of an {@link dev.forge.memory.support.tx.OptimisticTransaction}: a key's revision is the {@code rev}
 * of its live node or last tombstone. A commit is one Neo4j write transaction that locks every touched key's node,
 * checks each still has the revision seen, then applies every buffered write, or applies nothing.
 */
public final class GraphTransactions extends TransactionBackend<String> {

    private final GraphStore store;

    /** Transactions on {@code store}, stamping writes with {@code clock}. */
    public GraphTransactions(GraphStore store, Clock clock) {
        super(store::checkOpen, store::isClosed, store.limits(), clock, true);
        this.store = store;
    }

    @Override
    public Snapshot<String> read(EntryRef ref) {
        // one statement, so an auto-commit query reads it as consistently as a transaction would, in half the trips
        GraphStore.Current current = store.readOnce("read key '" + Keys.abbreviate(ref.key()) + "' in a transaction",
                runner -> store.writes().current(runner, ref));
        return Snapshot.of(current.live(), current.lastVersion(), current.revision());
    }

    /** Every key in one statement ({@link GraphWrites#currents}), one round trip however many keys. */
    @Override
    public List<Snapshot<String>> readAll(List<EntryRef> refs) {
        Map<EntryRef, GraphStore.Current> currents = store.readOnce("read " + refs.size() + " keys in a transaction",
                runner -> store.writes().currents(runner, refs));
        List<Snapshot<String>> snapshots = new ArrayList<>(refs.size());
        for (EntryRef ref : refs) {
            GraphStore.Current current = currents.get(ref);
            snapshots.add(Snapshot.of(current.live(), current.lastVersion(), current.revision()));
        }
        return snapshots;
    }

    /**
     * Locks and reads every touched key (one statement), checks the revisions, then applies the changes, each step one
     * statement for all keys ({@link GraphWrites}); a key changed more than once adds a round of statements per extra
     * change.
     */
    @Override
    public void commit(Commit<String> commit) {
        List<Change> changes = commit.changes();
        if (changes.isEmpty()) {
            return;
        }
        List<List<Double>> vectors = vectors(changes);
        GraphWrites writes = store.writes();
        Set<EntryRef> touched = commit.observed().keySet();
        store.write("commit a transaction", tx -> {
            Map<EntryRef, GraphStore.Current> currents = writes.lockAndRead(tx, touched);
            commit.verify(ref -> currents.get(ref).revision());
            GraphWrites.Plan plan = writes.plan(currents);
            Instant now = clock().instant();
            for (int i = 0; i < changes.size(); i++) {
                Change change = changes.get(i);
                if (change.entry().isPresent()) {
                    plan.set(change.entry().get(), vectors.get(i));
                } else {
                    plan.delete(change.ref(), now);
                }
            }
            plan.apply(tx);
            // keys that end up live fill their placeholder: a transaction of sets needs no clean-up statement
            writes.unlockUnused(tx, plan.notLive(touched));
            return null;
        });
    }

    /**
     * The vector of each change that stays the key's live entry, made in one call of the model (a write overwritten
     * later in the transaction needs none) and before the Neo4j transaction, which a slow model would otherwise hold
     * open; null elsewhere.
     */
    private List<List<Double>> vectors(List<Change> changes) {
        List<List<Double>> vectors = new ArrayList<>(java.util.Collections.nCopies(changes.size(), (List<Double>) null));
        Map<EntryRef, Integer> last = new HashMap<>();
        for (int i = 0; i < changes.size(); i++) {
            last.put(changes.get(i).ref(), i);
        }
        List<Integer> positions = new ArrayList<>();
        List<MemoryEntry> entries = new ArrayList<>();
        for (int i : last.values()) {
            if (changes.get(i).entry().isPresent()) {
                positions.add(i);
                entries.add(changes.get(i).entry().get());
            }
        }
        List<List<Double>> made = store.embeddings(entries);
        for (int j = 0; j < positions.size(); j++) {
            vectors.set(positions.get(j), made.get(j));
        }
        return vectors;
    }
}
