package dev.forge.memory.vector.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.LockObtainFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * The GLOBAL index every project of the user shares (by default under the forge home): many processes of many projects
 * open it at once, so no process keeps Lucene's {@code write.lock}. Each write opens an {@link IndexWriter} (waiting up
 * to {@link #LOCK_WAIT} while another process holds the lock), makes its changes, commits and closes it; reads go
 * through a {@link SearcherManager} on the directory, reopened when another process has committed since.
 *
 * <p>In one JVM the index is opened once per real path and shared (reference counted), and its writes take turns
 * under a lock; there is no group commit, each write is its own commit.
 */
public final class GlobalIndex implements VectorIndex {

    /** How long a write waits for another process's writer before it fails, unless told otherwise. */
    public static final Duration LOCK_WAIT = Duration.ofSeconds(30);

    private static final Logger LOG = LoggerFactory.getLogger(GlobalIndex.class);
    private static final OpenIndexes<GlobalIndex> OPEN = new OpenIndexes<>();
    private static final long RETRY_MILLIS = 20;

    private final Path directory;
    private final PrivateFiles luceneDirectory;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final SearcherManager manager;
    private final Duration lockWait;
    private volatile IndexState state;
    /** The writer of the write under way (under the write lock), for {@link #recordState}. */
    private IndexWriter writing;

    private GlobalIndex(Path directory, PrivateFiles luceneDirectory, SearcherManager manager, Duration lockWait,
            IndexState state) {
        this.directory = directory;
        this.lockWait = lockWait;
        this.luceneDirectory = luceneDirectory;
        this.manager = manager;
        this.state = state;
    }

    /**
     * The shared index in {@code directory}, created (recording {@code fresh}'s state) when missing; its writes wait
     * up to {@code lockWait} for another process's writer (the first caller in this JVM sets it).
     *
     * @throws BackendUnavailableException if the directory cannot be created or opened (the hint names the setting)
     * @throws CorruptEntryException       if its files are damaged
     * @throws ConfigurationException      if the directory holds something other than this provider's index
     */
    public static GlobalIndex acquire(Path directory, Supplier<IndexState> fresh, Duration lockWait) {
        Path real = IndexFiles.realDirectory(directory, "GLOBAL memories of every project live there: make the "
                + "directory (and the forge home, $FORGE_HOME or ~/.forge) writable, or set 'global_path' to a directory "
                + "you can write to.");
        return OPEN.acquire(real, path -> open(path, fresh, lockWait));
    }

    private static GlobalIndex open(Path real, Supplier<IndexState> fresh, Duration lockWait) {
        PrivateFiles dir = IndexFiles.open(real);
        try {
            if (!DirectoryReader.indexExists(dir)) {
                create(real, dir, fresh, lockWait);
            }
            SegmentInfos commit = SegmentInfos.readLatestCommit(dir);
            IndexState recorded = IndexFiles.recorded(commit.getUserData().entrySet(), real, commit.totalMaxDoc())
                    .orElseGet(fresh);
            return new GlobalIndex(real, dir, new SearcherManager(dir, null), lockWait, recorded);
        } catch (IOException e) {
            OpenIndexes.closeQuietly(dir);
            throw IndexFiles.unopenable(real, e);
        } catch (RuntimeException e) {
            OpenIndexes.closeQuietly(dir);
            throw e;
        }
    }

    /** Commits an empty index recording {@code fresh}'s state, unless another process created one meanwhile. */
    private static void create(Path real, PrivateFiles dir, Supplier<IndexState> fresh, Duration lockWait)
            throws IOException {
        try (IndexWriter writer = openWriter(real, dir, lockWait)) {
            if (writer.getLiveCommitData() == null || !writer.getLiveCommitData().iterator().hasNext()) {
                writer.setLiveCommitData(fresh.get().toUserData().entrySet());
            }
            writer.commit();
        }
    }

    /**
     * A writer on the index, once no other process holds its lock: retried until {@code lockWait} has passed.
     * Commits only when told to: closing it after a failure keeps the last commit.
     */
    private static IndexWriter openWriter(Path real, PrivateFiles dir, Duration lockWait) throws IOException {
        long deadline = System.nanoTime() + lockWait.toNanos();
        while (true) {
            try {
                IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(Documents.analyzer())
                        .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND).setCommitOnClose(false));
                dir.restrictAll();
                return writer;
            } catch (LockObtainFailedException e) {
                if (System.nanoTime() > deadline) {
                    throw new BackendUnavailableException("The shared GLOBAL vector index at " + real + " stayed locked "
                            + "by another writer for " + lockWait.toMillis() + " ms; nothing was written. "
                            + "Retry when the other forge-memory process (a reindex, a large import) is done, or give this "
                            + "project its own 'global_path'.", e);
                }
                try {
                    Thread.sleep(RETRY_MILLIS);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new BackendUnavailableException("Interrupted while waiting for the shared GLOBAL vector index at "
                            + real + "; nothing was written.", interrupted);
                }
            }
        }
    }

    @Override
    public Path directory() {
        return directory;
    }

    @Override
    public IndexState state() {
        return state;
    }

    /** Reopens the searcher if another process (or this one) has committed since, and takes the state it records. */
    private void refresh() throws IOException {
        manager.maybeRefreshBlocking();
        Map<String, String> data = IndexFiles.withSearcher(manager,
                searcher -> ((DirectoryReader) searcher.getIndexReader()).getIndexCommit().getUserData());
        IndexFiles.recorded(data.entrySet(), directory, 0).ifPresent(recorded -> state = recorded);
    }

    @Override
    public <T> T read(SearcherWork<T> work) {
        lock.readLock().lock();
        try {
            refresh();
            return IndexFiles.withSearcher(manager, work);
        } catch (IOException | AlreadyClosedException e) {
            throw failure("read", e);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Runs {@code work} with the index's writer, which no other process can hold meanwhile, after reopening the
     * searcher so that {@link Changes#current} sees every other process's last commit; then commits and closes the
     * writer. A failure rolls the writer back: nothing of the write is kept.
     */
    @Override
    public <T> T write(ChangeWork<T> work) {
        return alone("write", (writer, searcher) -> work.apply(new WriterChanges(writer)), null);
    }

    @Override
    public <T> T rebuild(IndexState newState, Rebuild<T> rebuild) {
        return alone("reindex", rebuild, newState);
    }

    /** Runs {@code work} holding the writer, commits (with {@code newState}, unless null) and refreshes. */
    private <T> T alone(String what, Rebuild<T> work, IndexState newState) {
        lock.writeLock().lock();
        try {
            IndexWriter writer = openWriter(directory, luceneDirectory, lockWait);
            writing = writer;
            try {
                refresh();
                T result = IndexFiles.withSearcher(manager, searcher -> work.apply(writer, searcher));
                if (newState != null) {
                    writer.setLiveCommitData(newState.toUserData().entrySet());
                }
                writer.commit();
                writer.close();
                refresh();
                return result;
            } catch (IOException | RuntimeException | Error e) {
                rollBackQuietly(writer, e);
                throw e;
            } finally {
                writing = null;
            }
        } catch (IOException | AlreadyClosedException e) {
            throw failure(what, e);
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void rollBackQuietly(IndexWriter writer, Throwable cause) {
        try {
            if (writer.isOpen()) {
                writer.rollback();
            }
        } catch (IOException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    /** The changes of one write, straight to the writer: each write reads the last commit, not its own changes. */
    private final class WriterChanges implements Changes {
        private final IndexWriter writer;

        private WriterChanges(IndexWriter writer) {
            this.writer = writer;
        }

        @Override
        public Optional<MemoryEntry> current(String id, String where) throws IOException {
            return IndexFiles.withSearcher(manager, searcher -> Documents.find(searcher, id, where));
        }

        @Override
        public void put(String id, Document doc, MemoryEntry entry) throws IOException {
            writer.updateDocument(new Term(Documents.ID, id), doc);
        }

        @Override
        public void delete(String id) throws IOException {
            writer.deleteDocuments(new Term(Documents.ID, id));
        }

        @Override
        public int deleteNamespace(String ns) throws IOException {
            Term term = new Term(Documents.NS, ns);
            int count = IndexFiles.withSearcher(manager, searcher -> searcher.count(new TermQuery(term)));
            if (count > 0) {
                writer.deleteDocuments(term);
            }
            return count;
        }
    }

    @Override
    public void recordState(IndexState newState) {
        writing.setLiveCommitData(newState.toUserData().entrySet());
        state = newState;
    }

    private MemoryException failure(String what, Exception e) {
        return IndexFiles.failed(directory, what, e, null);
    }


    @Override
    public void release() {
        OPEN.release(directory, () -> OpenIndexes.closeUnder(lock,
                () -> java.util.Arrays.asList(manager, luceneDirectory)));
    }
}
