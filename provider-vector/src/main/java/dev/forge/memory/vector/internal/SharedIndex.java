package dev.forge.memory.vector.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.MemoryException;
import dev.forge.memory.StorageException;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.document.Document;
import org.apache.lucene.search.TermQuery;
import dev.forge.memory.MemoryEntry;
import java.util.Optional;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.LockObtainFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * A project's Lucene index directory ({@code path}), open once per JVM and shared by every provider opened on it
 * (reference counted, keyed by the directory's real path): one {@link IndexWriter}, which holds Lucene's
 * {@code write.lock} so that a second process is refused, and one near-real-time {@link SearcherManager}.
 *
 * <p>Locking: reads hold the read lock. A write holds the write lock while it reads the current entry (through the
 * overlay of changes not yet visible to searchers, see {@link OverlayChanges}) and updates the writer, then commits and
 * refreshes outside it, so that writers queued behind one commit are made durable together by the next (group
 * commit). Commits and refreshes hold the read lock, so that a reindex, which holds the write lock and the commit
 * lock for its whole run, never sees anything committed half way, and may swap the writer after a rollback.
 */
public final class SharedIndex implements VectorIndex {

    private static final Logger LOG = LoggerFactory.getLogger(SharedIndex.class);
    private static final OpenIndexes<SharedIndex> OPEN = new OpenIndexes<>();

    private final Path directory;
    private final PrivateFiles luceneDirectory;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final Object commitLock = new Object();
    private IndexWriter writer;
    private SearcherManager manager;
    private volatile IndexState state;
    private final Object refreshLock = new Object();
    private final java.util.concurrent.ConcurrentHashMap<String, Pending> pending = new java.util.concurrent.ConcurrentHashMap<>();
    private long committedSequence;
    private long refreshedSequence = -1;
    private volatile long lastSequence = -1;

    private SharedIndex(Path directory, PrivateFiles luceneDirectory) {
        this.directory = directory;
        this.luceneDirectory = luceneDirectory;
    }

    /**
     * The index in {@code directory}, opened (and created, recording {@code fresh}'s state) by the first caller in
     * this JVM and shared with the later ones until each has {@linkplain #release() released} it.
     *
     * @throws BackendUnavailableException if another process has the index open, or it cannot be opened
     * @throws CorruptEntryException       if its files are damaged
     * @throws ConfigurationException      if the directory holds something other than this provider's index
     */
    public static SharedIndex acquire(Path directory, Supplier<IndexState> fresh) {
        Path real = IndexFiles.realDirectory(directory, "Check that the path is a directory you can write to.");
        return OPEN.acquire(real, path -> open(path, fresh));
    }

    private static SharedIndex open(Path real, Supplier<IndexState> fresh) {
        PrivateFiles dir = IndexFiles.open(real);
        SharedIndex index = new SharedIndex(real, dir);
        try {
            index.openWriter(fresh);
            return index;
        } catch (RuntimeException e) {
            OpenIndexes.closeQuietly(dir);
            throw e;
        }
    }

    private void openWriter(Supplier<IndexState> fresh) {
        IndexWriter opened = null;
        try {
            boolean existed = DirectoryReader.indexExists(luceneDirectory);
            IndexWriterConfig config = new IndexWriterConfig(Documents.analyzer())
                    .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
                    .setCommitOnClose(true);
            opened = new IndexWriter(luceneDirectory, config);
            luceneDirectory.restrictAll();
            IndexState recorded = IndexFiles.recorded(opened.getLiveCommitData(), directory,
                    existed ? opened.getDocStats().numDocs : 0).orElse(null);
            if (recorded == null) {
                recorded = fresh.get();
                opened.setLiveCommitData(recorded.toUserData().entrySet());
                opened.commit();
            }
            this.state = recorded;
            this.writer = opened;
            // a new writer numbers its operations afresh
            this.pending.clear();
            this.committedSequence = -1;
            this.refreshedSequence = -1;
            this.lastSequence = -1;
            this.manager = new SearcherManager(opened, true, false, null);
        } catch (LockObtainFailedException e) {
            OpenIndexes.closeQuietly(opened);
            throw new BackendUnavailableException("The vector index at " + directory + " is in use by another process "
                    + "(it holds Lucene's write.lock). Only one process at a time may open a vector index: close the other "
                    + "forge-memory process, or give this one another 'path'.", e);
        } catch (IOException e) {
            OpenIndexes.closeQuietly(opened);
            throw IndexFiles.unopenable(directory, e);
        } catch (RuntimeException e) {
            OpenIndexes.closeQuietly(opened);
            throw e;
        }
    }

    /** The directory's real path. */
    @Override
    public Path directory() {
        return directory;
    }

    /** What the index records about its vectors now. */
    @Override
    public IndexState state() {
        return state;
    }

    /** Runs {@code work} on a searcher that sees every completed write. */
    @Override
    public <T> T read(SearcherWork<T> work) {
        lock.readLock().lock();
        try {
            return IndexFiles.withSearcher(manager, work);
        } catch (IOException | AlreadyClosedException e) {
            throw failure("read", e);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * The changes one {@link #write} may make, and the current entries they are based on. Reads of the current entry
     * see every change made so far, even those not yet visible to searchers: a change stays in an overlay of
     * pending changes from the moment it is made until a refreshed searcher holds it, so that writers never wait
     * for a refresh (which would flush a segment) while they hold the write lock.
     */
    private final class OverlayChanges implements Changes {
        private long last = -1;
        private IndexWriter base;

        private OverlayChanges() {
        }

        /** The current entry of {@code id}, including changes not yet visible to searchers. */
        @Override
        public Optional<MemoryEntry> current(String id, String where) throws IOException {
            Pending change = pending.get(id);
            if (change != null) {
                return change.entry();
            }
            // Acquired after the overlay was consulted: a change pruned from it is in every searcher acquired since.
            return IndexFiles.withSearcher(manager, searcher -> Documents.find(searcher, id, where));
        }

        /** Replaces the document of {@code id} by {@code doc}, which holds {@code entry}. */
        @Override
        public void put(String id, Document doc, MemoryEntry entry) throws IOException {
            record(id, Optional.of(entry), writer.updateDocument(new Term(Documents.ID, id), doc));
        }

        /** Deletes the document of {@code id}. */
        @Override
        public void delete(String id) throws IOException {
            record(id, Optional.empty(), writer.deleteDocuments(new Term(Documents.ID, id)));
        }

        /** Deletes every document of namespace {@code ns}; returns how many there were. */
        @Override
        public int deleteNamespace(String ns) throws IOException {
            refreshCoveringAll();
            Term term = new Term(Documents.NS, ns);
            int count = IndexFiles.withSearcher(manager, searcher -> searcher.count(new TermQuery(term)));
            if (count > 0) {
                long seq = writer.deleteDocuments(term);
                last = seq;
                lastSequence = seq;
            }
            return count;
        }

        private void record(String id, Optional<MemoryEntry> entry, long seq) {
            pending.put(id, new Pending(entry, seq));
            last = seq;
            lastSequence = seq;
        }
    }

    /** A change not yet known to be visible to searchers: the entry now (empty if deleted) and its sequence number. */
    private record Pending(Optional<MemoryEntry> entry, long sequence) {
    }

    /**
     * Runs {@code work} alone (no other write, no reindex), then commits its changes and refreshes the searcher
     * before returning: what it wrote is durable and visible. The commit happens outside the write lock, so that
     * writers queued behind one commit are committed together by the next one (group commit); each still returns
     * only after a commit that holds its changes.
     */
    @Override
    public <T> T write(ChangeWork<T> work) {
        T result;
        OverlayChanges changes = new OverlayChanges();
        lock.writeLock().lock();
        try {
            changes.base = writer;
            result = work.apply(changes);
        } catch (IOException | AlreadyClosedException e) {
            throw recover("write", e, changes.base);
        } catch (RuntimeException | Error e) {
            if (changes.last >= 0) {
                // the changes made before the failure would go out with the next write's commit otherwise
                discard(e, changes.base);
            }
            throw e;
        } finally {
            lock.writeLock().unlock();
        }
        if (changes.last >= 0) {
            commitAndRefresh(changes.last, changes.base);
        }
        return result;
    }

    /**
     * Commits every change up to sequence number {@code seq}, made with {@code base}, and refreshes the searcher, unless
     * others already did. If another write's failed commit has meanwhile rolled {@code base} back, the changes are gone
     * and this fails too.
     */
    private void commitAndRefresh(long seq, IndexWriter base) {
        Exception failed;
        lock.readLock().lock();
        try {
            if (writer != base) {
                throw new StorageException("A write to the vector index at " + directory + " was undone: the commit of "
                        + "another write failed (see the log) and the index went back to its last commit. Nothing of this "
                        + "write was kept; retry it.");
            }
            synchronized (commitLock) {
                if (committedSequence < seq) {
                    committedSequence = Math.max(committedSequence, writer.commit());
                }
            }
            synchronized (refreshLock) {
                if (refreshedSequence < seq) {
                    long covered = lastSequence;
                    manager.maybeRefreshBlocking();
                    refreshedSequence = covered;
                    // removes a change only if it is still the one recorded: a later change of the id stays
                    pending.values().removeIf(p -> p.sequence() <= covered);
                }
            }
            return;
        } catch (IOException | AlreadyClosedException e) {
            failed = e;
        } finally {
            lock.readLock().unlock();
        }
        // outside the read lock: the recovery takes the write lock
        throw recover("commit", failed, base);
    }

    /**
     * The error for a failed write or commit (a full disk, an I/O error) made with {@code failed}, after going back to
     * the last commit: the writer's uncommitted changes (of the writes that now fail) are rolled back and a new writer is
     * opened, so that the next write works once the cause is gone, without reopening the provider. Lucene closes its
     * writer after such an error, and every later write would fail otherwise.
     */
    private MemoryException recover(String what, Exception e, IndexWriter failed) {
        if (e instanceof CorruptIndexException || failed == null) {
            return failure(what, e);
        }
        Throwable cause = e instanceof AlreadyClosedException && failed.getTragicException() != null ? failed.getTragicException() : e;
        StorageException error = new StorageException("The " + what + " of the vector index at " + directory + " failed: "
                + cause + ". Nothing of it was kept: the index went back to its last commit. Check the disk (free space, "
                + "permissions) and retry.", e);
        lock.writeLock().lock();
        try {
            synchronized (commitLock) {
                if (writer == failed) {
                    LOG.warn("A {} of the vector index at {} failed ({}); going back to its last commit", what, directory,
                            cause.toString());
                    // if reopening fails, the writer stays closed and the next write tries again
                    rollBack(error);
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
        return error;
    }

    /**
     * Under the write lock, after the work of a write failed part way: goes back to the last commit, taking the
     * uncommitted changes of writes whose commit is still to come with it (they fail, as after a failed commit).
     */
    private void discard(Throwable cause, IndexWriter base) {
        synchronized (commitLock) {
            if (writer == base) {
                LOG.warn("A write to the vector index at {} failed part way ({}); going back to its last commit", directory,
                        cause.toString());
                rollBack(cause);
            }
        }
    }

    /** Under the write lock: refreshes the searcher so that it holds every change; the overlay is then empty. */
    private void refreshCoveringAll() throws IOException {
        synchronized (refreshLock) {
            long covered = lastSequence;
            manager.maybeRefreshBlocking();
            refreshedSequence = Math.max(refreshedSequence, covered);
            pending.clear();
        }
    }

    /**
     * Records {@code newState} with the next commit, for writes of a provider whose model differs from the index's
     * (opened for a reindex): the index is then marked incomplete. Call inside {@link #write}.
     */
    @Override
    public void recordState(IndexState newState) {
        writer.setLiveCommitData(newState.toUserData().entrySet());
        state = newState;
    }

    /**
     * Runs {@code rebuild} with no other write or commit in between, after committing what earlier writes left
     * uncommitted; then commits once with {@code newState}. If the rebuild fails, every change it made is rolled
     * back, the index is reopened as last committed (the old vectors and state) and the failure is rethrown.
     */
    @Override
    public <T> T rebuild(IndexState newState, Rebuild<T> rebuild) {
        lock.writeLock().lock();
        try {
            synchronized (commitLock) {
                IndexSearcher searcher;
                try {
                    committedSequence = Math.max(committedSequence, writer.commit());
                    refreshCoveringAll();
                    searcher = manager.acquire();
                } catch (IOException | AlreadyClosedException e) {
                    throw failure("reindex", e);
                }
                try {
                    T result = rebuild.apply(writer, searcher);
                    writer.setLiveCommitData(newState.toUserData().entrySet());
                    committedSequence = Math.max(committedSequence, writer.commit());
                    state = newState;
                    refreshCoveringAll();
                    return result;
                } catch (IOException e) {
                    rollBackReindex(e);
                    throw failure("reindex", e);
                } catch (RuntimeException | Error e) {
                    rollBackReindex(e);
                    throw e;
                } finally {
                    releaseQuietly(searcher);
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void releaseQuietly(IndexSearcher searcher) {
        try {
            manager.release(searcher);
        } catch (IOException | RuntimeException e) {
            LOG.debug("Releasing a searcher of {} failed", directory, e);
        }
    }

    private void rollBackReindex(Throwable cause) {
        LOG.warn("Reindexing the vector index at {} failed; rolling back to its last commit: {}", directory, cause.toString());
        rollBack(cause);
    }

    /** Discards the writer's uncommitted changes and opens a new writer and searcher at the last commit. */
    private void rollBack(Throwable cause) {
        SearcherManager oldManager = manager;
        try {
            writer.rollback();
        } catch (IOException | RuntimeException e) {
            cause.addSuppressed(e);
        }
        try {
            oldManager.close();
        } catch (IOException | RuntimeException e) {
            cause.addSuppressed(e);
        }
        try {
            openWriter(() -> state);
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    private MemoryException failure(String what, Exception e) {
        return IndexFiles.failed(directory, what, e, writer != null ? writer.getTragicException() : null);
    }


    /** Gives up one reference; the last one closes the index (its writer commits nothing new: all is committed). */
    @Override
    public void release() {
        OPEN.release(directory, () -> OpenIndexes.closeUnder(lock,
                () -> java.util.Arrays.asList(manager, writer, luceneDirectory)));
    }



}
