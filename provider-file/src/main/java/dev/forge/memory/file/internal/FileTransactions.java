package dev.forge.memory.file.internal;

import dev.forge.memory.EntryRef;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.support.EntryWrite;
import dev.forge.memory.support.tx.Commit;
import dev.forge.memory.support.tx.Snapshot;
import dev.forge.memory.support.tx.TransactionBackend;
import java.time.Clock;
import java.util.Optional;

/**
 * The file store side of an {@link dev.forge.memory.support.tx.OptimisticTransaction}: a key's revision is what its
 * file held at first touch ({@link Lookup#sameStateAs}); a damaged file reads as unreadable, and a set or
 * delete replaces it. Deletions leave no tombstone. GLOBAL keys are read in the shared global store when it is apart;
 * commits go through {@link FileCommits#commit}.
 */
public final class FileTransactions extends TransactionBackend<Lookup> {

    private final FileStore store;

    /** Transactions on {@code store}, validating writes against {@code limits}. */
    public FileTransactions(FileStore store, Limits limits, Clock clock) {
        super(store::checkOpen, store::isClosed, limits, clock, false);
        this.store = store;
    }

    @Override
    public Snapshot<Lookup> read(EntryRef ref) {
        // A shared global store not made yet holds nothing: reading does not make it.
        Lookup stored = store.ownerForReading(ref.scope()).map(owner -> owner.lookup(ref.key(), ref.scope())).orElse(Lookup.ABSENT);
        if (stored.damaged() != null) {
            return Snapshot.unreadable(stored.damaged().corruption(ref.key()), stored);
        }
        return Snapshot.of(stored.current(), stored.current().map(MemoryEntry::version).orElse(0L), stored);
    }

    /** {@link FileStore#prepare}: stamps the entry and checks its encoded size against {@code max_file_size}. */
    @Override
    public MemoryEntry prepare(EntryWrite write, Optional<MemoryEntry> live, long lastVersion) {
        return store.owner(write.scope()).prepare(write, live);
    }

    @Override
    public void commit(Commit<Lookup> commit) {
        store.commits.commit(commit);
    }
}
