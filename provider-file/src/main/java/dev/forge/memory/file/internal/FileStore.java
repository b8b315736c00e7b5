package dev.forge.memory.file.internal;

import dev.forge.memory.support.files.StoreLock;
import dev.forge.memory.support.files.AtomicFiles;
import dev.forge.memory.support.files.Interrupts;
import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.EntryRules;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.StorageException;
import dev.forge.memory.file.internal.EntryFiles.Loaded;
import dev.forge.memory.file.internal.Journal.Line;
import dev.forge.memory.file.internal.RelationFile.Edge;
import dev.forge.memory.file.internal.RelationFile.Node;
import dev.forge.memory.support.EntryWrite;
import dev.forge.memory.Keys;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileLockInterruptionException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine behind one {@code file} store: the in-memory index of the entries a provider can see in it (its
 * session, its project, and global, unless a shared global store holds GLOBAL apart), kept in step with the directory through the {@link Journal}, and every change
 * made on disk under the {@link StoreLock}.
 *
 * <p>Locking order: the store lock (exclusive for writers, shared for readers catching up), then this engine's
 * index lock. Reads that find the journal unchanged take only the index lock. Both reads and writes run with the
 * thread's interrupt flag cleared (and set again afterwards), so that an interrupt cannot cut a change in half.
 *
 * <p>A write, under the exclusive lock: catches up with the journal, completes any commit a crash cut off,
 * re-reads from disk what it is about to change (the index may have missed a change: a lost journal line), journals
 * the change (a transaction commit: once its files are in place), then changes the files, each step undoable
 * through {@link FileChanges}. If a step fails, the steps before it are undone and the index rescans, so a failed
 * call leaves the store as it was.
 */
@SuppressWarnings("try") // lock holders are used only to be closed
public final class FileStore {

    private static final Logger LOG = LoggerFactory.getLogger(FileStore.class);

    /** The reader's place in the journal. */
    private record Cursor(String generation, long offset, FileStamp stamp) {
    }

    /**
     * The current entries and damaged files of one visible namespace, by file name: every file once {@code complete}
     * (loaded by the first call that needs every entry), else only the files of the keys asked for so far, with the
     * names found to have no file.
     */
    static final class NamespaceIndex {
        final Map<String, MemoryEntry> entries = new HashMap<>();
        final Map<String, Loaded> damaged = new HashMap<>();
        final Set<String> absent = new HashSet<>();
        boolean complete;

        /** Whether the index can tell what {@code name} holds without reading its file. */
        boolean knows(String name) {
            return complete || entries.containsKey(name) || damaged.containsKey(name) || absent.contains(name);
        }

        /** Forgets every file: the next call that needs them reads them again. */
        void forgetAll() {
            entries.clear();
            damaged.clear();
            absent.clear();
            complete = false;
        }
    }

    @FunctionalInterface
    interface Work<T> {
        T run(FileChanges changes) throws IOException;
    }

    @FunctionalInterface
    interface Reading<T> {
        T run() throws IOException;
    }

    private final String provider;
    private final Path store;
    final Clock clock;
    final boolean gzip;
    final boolean fsync;
    private final long journalLimit;
    private final StoreLock storeLock;
    final Journal journal;
    final EntryFiles files;
    final RelationFile relationFile;
    final CommitLog commitLog;
    private final Map<Scope, Namespace> namespaces = new EnumMap<>(Scope.class);
    final Map<Namespace, NamespaceIndex> index = new LinkedHashMap<>();
    private final ReentrantReadWriteLock indexLock = new ReentrantReadWriteLock();
    private final AtomicBoolean closed = new AtomicBoolean();

    // Guarded by indexLock.
    final FileIndex fileIndex = new FileIndex(this);
    final FileRelations graph = new FileRelations(this);
    final FileCommits commits = new FileCommits(this);

    private volatile Cursor cursor = new Cursor(null, 0, FileStamp.MISSING);
    volatile boolean stale = true;

    /**
     * The shared store GLOBAL lives in when it is not this one (this store's own {@code global} directory is then what
     * an older version left there), or null; its locks are always taken after this store's.
     */
    private volatile SharedGlobal sharedGlobal;

    private FileStore(String provider, Path store, StoreLock storeLock, Set<Scope> scopes, String projectId, String sessionId,
                      Clock clock, boolean gzip, boolean fsync, long maxFileSize, long journalLimit) {
        this.provider = provider;
        this.store = store;
        this.clock = clock;
        this.gzip = gzip;
        this.fsync = fsync;
        this.journalLimit = journalLimit;
        this.storeLock = storeLock;
        this.journal = new Journal(store);
        this.files = new EntryFiles(store, gzip, fsync, maxFileSize);
        this.relationFile = new RelationFile(store);
        this.commitLog = new CommitLog(store);
        for (Scope scope : Scope.values()) {
            Namespace namespace = Namespace.of(scope, projectId, sessionId);
            namespaces.put(scope, namespace);
            if (scopes.contains(scope)) {
                index.put(namespace, new NamespaceIndex());
            }
        }
    }

    /**
     * Opens the store in {@code directory}, creating it if needed: takes the store lock, removes temporary files
     * of writes that never finished, completes interrupted commits, and builds the index by scanning this
     * provider's three directories. A damaged entry file is logged and kept out of the index; a commit that
     * cannot be completed is logged, and writes fail until it can be.
     *
     * @param provider     the provider's name, for messages
     * @param setting      the config key that names {@code directory}, for messages
     * @param scopes       the scopes whose directories this store indexes
     * @param shared       the store GLOBAL lives in when it is not this one (opened on first use), else null
     * @param journalLimit the journal size past which a writer starts a new one
     * @throws BackendUnavailableException if the directory cannot be created, locked or read
     */
    public static FileStore open(String provider, String setting, Path directory, Set<Scope> scopes, SharedGlobal shared, String projectId,
                                 String sessionId, Clock clock, boolean gzip, boolean fsync, long maxFileSize, long journalLimit) {
        Path real;
        try {
            AtomicFiles.createDirectories(directory, false);
            real = directory.toRealPath();
        } catch (IOException e) {
            Optional<String> link = StoreDirectory.brokenLink(directory);
            throw new BackendUnavailableException("Cannot create or open the memory directory " + directory
                    + " (config key " + setting + "): " + link.map(why -> why + "; the directory may be a link, but to a "
                    + "directory, and nothing was created where it points. Point " + setting + " at a directory, or mend "
                    + "the link.").orElse(e + ". Check the path and its permissions, or point " + setting
                    + " at a directory you can write."), e);
        }
        StoreLock lock;
        try {
            lock = StoreLock.acquire(real);
        } catch (IOException e) {
            throw new BackendUnavailableException("Cannot open the lock file in " + real + ": " + e
                    + ". Check that the directory is writable.", e);
        }
        FileStore fileStore = new FileStore(provider, real, lock, scopes, projectId, sessionId, clock, gzip, fsync, maxFileSize,
                journalLimit);
        fileStore.sharedGlobal = shared;
        try {
            fileStore.initialize();
        } catch (RuntimeException | Error e) {
            fileStore.close();
            throw e;
        }
        return fileStore;
    }

    private void initialize() {
        Interrupts.deferred(() -> {
            try (StoreLock.Held held = storeLock.exclusive()) {
                indexLock.writeLock().lock();
                try {
                    for (Namespace namespace : index.keySet()) {
                        files.removeStaleTempFiles(namespace);
                    }
                    AtomicFiles.removeStaleTempFiles(store);
                    AtomicFiles.removeStaleTempFiles(commitLog.directory());
                    stale = true;
                    catchUp(true);
                    try {
                        commits.recoverCommits();
                    } catch (StorageException e) {
                        LOG.error("{}", e.getMessage());
                    }
                } finally {
                    indexLock.writeLock().unlock();
                }
            } catch (IOException e) {
                throw new BackendUnavailableException("Cannot read the memory directory " + store + ": " + e, e);
            }
            return null;
        });
    }

    /** The real path of the store directory. */
    public Path directory() {
        return store;
    }

    /** The relations between this store's entries, and the graph calls. */
    public FileRelations graph() {
        return graph;
    }

    /** The store that holds the entries of {@code scope}: the shared one for GLOBAL, if any, else this one. */
    public FileStore owner(Scope scope) {
        return scope == Scope.GLOBAL && globalApart() ? shared() : this;
    }

    /**
     * The store to read the entries of {@code scope} from, or empty for GLOBAL when the shared store was never created:
     * reading does not create it.
     */
    public Optional<FileStore> ownerForReading(Scope scope) {
        SharedGlobal global = sharedGlobal;
        if (scope != Scope.GLOBAL || global == null) {
            return Optional.of(this);
        }
        return Optional.ofNullable(global.storeIfAny());
    }

    /** Whether GLOBAL lives in a shared store apart from this one. */
    boolean globalApart() {
        return sharedGlobal != null;
    }

    /**
     * The shared global store, opened now if it was not; null if GLOBAL lives here.
     *
     * @throws BackendUnavailableException if it cannot be opened
     */
    FileStore shared() {
        SharedGlobal global = sharedGlobal;
        return global == null ? null : global.store();
    }

    /** The configured directory of the shared global store, or null if GLOBAL lives here. */
    Path sharedDirectory() {
        SharedGlobal global = sharedGlobal;
        return global == null ? null : global.directory();
    }

    /** How many entry files this store (and the shared global store, if open) read since it opened. */
    public long filesRead() {
        SharedGlobal global = sharedGlobal;
        FileStore shared = global == null ? null : global.storeIfAny();
        return files.filesRead() + (shared == null ? 0 : shared.filesRead());
    }

    /** The namespace this store's provider uses for {@code scope}. */
    public Namespace namespace(Scope scope) {
        return namespaces.get(Objects.requireNonNull(scope, "scope"));
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed.get();
    }

    /** Releases the store lock, and the shared global store's; idempotent. */
    public void close() {
        if (closed.compareAndSet(false, true)) {
            storeLock.release();
            SharedGlobal global = sharedGlobal;
            if (global != null) {
                global.close();
            }
        }
    }

    /** Fails with {@link BackendUnavailableException} once closed. */
    public void checkOpen() {
        if (closed.get()) {
            throw new BackendUnavailableException("This " + provider + " provider on " + store + " is closed; open a new one.");
        }
    }

    // ---------------------------------------------------------------- reads

    /**
     * What the index holds for {@code key} in {@code scope}, caught up with other writers first; the key's file is
     * read (under the shared store lock, so never in the middle of another writer's change) if the index does not know
     * it yet.
     */
    public Lookup lookup(String key, Scope scope) {
        Namespace namespace = namespace(scope);
        String name = Keys.toFileName(key);
        Lookup known = read(() -> index.get(namespace).knows(name) ? lookup(namespace, name) : null);
        return known != null ? known
                : Interrupts.deferred(() -> caughtUp("read key '" + Keys.abbreviate(key) + "'", () -> lookup(namespace, name)));
    }

    /**
     * What the index holds for {@code name}, its file read first if the index does not know it: the caller holds the
     * index write lock then (writers, {@link #caughtUp}), or knows that the index knows it.
     */
    Lookup lookup(Namespace namespace, String name) {
        NamespaceIndex space = index.get(namespace);
        if (!space.knows(name)) {
            try {
                fileIndex.reload(namespace, name);
            } catch (IOException e) {
                throw storage("read the entry file " + name, e);
            }
        }
        MemoryEntry entry = space.entries.get(name);
        if (entry != null) {
            return new Lookup(entry, null);
        }
        Loaded damaged = space.damaged.get(name);
        return damaged == null ? Lookup.ABSENT : new Lookup(null, damaged);
    }

    /**
     * The entry of {@code key}, if any.
     *
     * @throws CorruptEntryException if its file is damaged
     */
    public Optional<MemoryEntry> get(String key, Scope scope) {
        Lookup lookup = lookup(key, scope);
        if (lookup.damaged() != null) {
            // Read again: a repair (permissions, content) leaves no journal line, and the caller was told to make one.
            Namespace namespace = namespace(scope);
            String name = Keys.toFileName(key);
            lookup = Interrupts.deferred(() -> caughtUp("read key '" + Keys.abbreviate(key) + "'", () -> {
                fileIndex.reload(namespace, name);
                return lookup(namespace, name);
            }));
        }
        if (lookup.damaged() != null) {
            throw lookup.damaged().corruption(key);
        }
        return lookup.current();
    }

    /** Every current entry of the given scopes this provider can see. */
    public List<MemoryEntry> entries(Set<Scope> scopes) {
        List<Namespace> needed = scopes.stream().map(this::namespace).toList();
        return readWhole(needed, () -> {
            List<MemoryEntry> all = new ArrayList<>();
            for (Namespace namespace : needed) {
                all.addAll(index.get(namespace).entries.values());
            }
            return all;
        });
    }

    /** As {@link #read}, with every file of the {@code needed} namespaces in the index (read now if they were not). */
    <T> T readWhole(List<Namespace> needed, Reading<T> reading) {
        checkOpen();
        return Interrupts.deferred(() -> {
            refresh();
            indexLock.readLock().lock();
            try {
                checkOpen();
                if (needed.stream().allMatch(namespace -> index.get(namespace).complete)) {
                    return reading.run();
                }
            } catch (IOException e) {
                throw storage("read", e);
            } finally {
                indexLock.readLock().unlock();
            }
            return caughtUp("read every entry", () -> {
                fileIndex.complete(needed);
                return reading.run();
            });
        });
    }

    /** Runs {@code reading} on the index caught up with the journal, under the index read lock. */
    <T> T read(Reading<T> reading) {
        return readWhole(List.of(), reading);
    }

    /** Catches up with other writers if the journal changed: one {@code stat} when it did not. */
    private void refresh() {
        FileStamp now;
        try {
            now = journal.stamp();
        } catch (IOException e) {
            throw storage("read the journal", e);
        }
        if (!stale && now.equals(cursor.stamp())) {
            return;
        }
        caughtUp("catch up with the journal", () -> null);
    }

    /** Runs {@code body} under the shared store lock and the index write lock, caught up with the journal. */
    <T> T caughtUp(String what, Reading<T> body) {
        try (StoreLock.Held held = storeLock.shared()) {
            indexLock.writeLock().lock();
            try {
                checkOpen();
                catchUp(false);
                return body.run();
            } finally {
                indexLock.writeLock().unlock();
            }
        } catch (IOException e) {
            throw storage(what, e);
        }
    }

    /**
     * Brings the index up to date with the journal. Called with the store lock held (shared by readers,
     * exclusive by writers, who also repair a missing or unreadable journal) and the index write lock.
     */
    void catchUp(boolean writer) throws IOException {
        FileStamp stamp = journal.stamp();
        Cursor known = cursor;
        if (!stale && stamp.equals(known.stamp())) {
            return;
        }
        if (stamp.equals(FileStamp.MISSING)) {
            fileIndex.rescanAll();
            if (writer) {
                startGeneration();
            } else {
                cursor = new Cursor(null, 0, stamp);
            }
            stale = false;
            return;
        }
        Journal.Read read = journal.read(known.generation(), known.offset());
        if (read.generation() == null && writer) {
            LOG.warn("The journal {} has no valid header; starting a new one and rescanning the directory", journal.file());
            fileIndex.rescanAll();
            startGeneration();
            stale = false;
            return;
        }
        if (stale || read.reset() || read.rescan() || !fileIndex.applyLines(read.lines())) {
            fileIndex.rescanAll();
        }
        cursor = new Cursor(read.generation(), read.end(), stamp);
        stale = false;
    }

    /** Replaces the journal by a new generation (every reader rescans) and puts the cursor at its start. */
    private void startGeneration() throws IOException {
        String generation = journal.reset(fsync);
        FileStamp created = journal.stamp();
        cursor = new Cursor(generation, created.size(), created);
    }

    void advanceCursor() throws IOException {
        FileStamp stamp = journal.stamp();
        cursor = new Cursor(cursor.generation(), stamp.size(), stamp);
    }

    // ---------------------------------------------------------------- writes

    /**
     * Stores a validated write: the new version's file, the previous one kept as history. A damaged file under
     * the key is moved aside first.
     *
     * @throws dev.forge.memory.ValueTooLargeException if the encoded file is over {@code max_file_size}
     */
    public MemoryEntry set(EntryWrite write) {
        Namespace namespace = namespace(write.scope());
        String name = Keys.toFileName(write.key());
        return write("store key '" + Keys.abbreviate(write.key()) + "'", changes -> {
            fileIndex.reload(namespace, name);
            Lookup before = lookup(namespace, name);
            MemoryEntry entry = write.toEntry(before.current(), clock.instant());
            byte[] bytes = files.encode(entry);
            announce(changes, List.of(Line.set(namespace, name)));
            if (before.damaged() != null) {
                files.moveAside(namespace, name, clock.instant(), changes);
            }
            files.write(namespace, name, before.current(), true, bytes, changes);
            fileIndex.indexPut(namespace, name, entry);
            return entry;
        });
    }

    /**
     * Replaces everything stored under the key of {@code chain} (a damaged file, the current entry, the whole
     * history) with exactly these versions, the last one current; relations stay. It is recorded in the commit log
     * before any file changes, like a transaction commit, so a restore cut off by a crash is completed by the next
     * write or open; a failed one is undone. Restoring what is already stored changes nothing.
     *
     * @param chain a chain checked by {@link dev.forge.memory.EntryRules#checkChain}
     * @throws dev.forge.memory.ValueTooLargeException if a version's file would be over {@code max_file_size};
     *                                                 nothing is changed
     */
    public MemoryEntry restore(List<MemoryEntry> chain) {
        return BatchRestore.restore(this, List.of(chain)).get(0);
    }

    /**
     * The entry a write would store on top of {@code previous}, checked against the file size limit; for
     * transactions, which store it later.
     */
    public MemoryEntry prepare(EntryWrite write, Optional<MemoryEntry> previous) {
        checkOpen();
        MemoryEntry entry = write.toEntry(previous, clock.instant());
        files.encode(entry);
        return entry;
    }

    /** Removes an entry, its history and its relations; a damaged file is moved aside. */
    public boolean delete(String key, Scope scope) {
        Namespace namespace = namespace(scope);
        String name = Keys.toFileName(key);
        return write("delete key '" + Keys.abbreviate(key) + "'", changes -> {
            fileIndex.reload(namespace, name);
            Lookup before = lookup(namespace, name);
            if (before.entry() == null && before.damaged() == null) {
                return false;
            }
            graph.syncRelations();
            List<Edge> kept = graph.without(Set.of(new Node(namespace, key)));
            boolean relationsChanged = kept.size() != graph.edges().size();
            announce(changes, relationsChanged ? List.of(Line.delete(namespace, name), Line.relations()) : List.of(Line.delete(namespace, name)));
            if (before.damaged() != null) {
                files.moveAside(namespace, name, clock.instant(), changes);
            } else {
                files.remove(namespace, name, changes);
                files.sync(namespace);
            }
            fileIndex.indexRemove(namespace, name);
            if (relationsChanged) {
                graph.saveRelations(kept, changes);
            }
            return true;
        });
    }

    /**
     * Removes every readable entry of this provider's namespace of {@code scope}, as the directory lists them
     * (not only those the index knows); damaged files are left in place.
     */
    public int clear(Scope scope) {
        Namespace namespace = namespace(scope);
        return write("clear the " + scope.id() + " scope", changes -> {
            fileIndex.rescan(namespace);
            NamespaceIndex space = index.get(namespace);
            if (!space.damaged.isEmpty()) {
                LOG.warn("Clearing {} leaves {} damaged entry files in place in {}", scope.id(), space.damaged.size(),
                        files.directory(namespace));
            }
            if (space.entries.isEmpty()) {
                removeIfSession(namespace, changes);
                return 0;
            }
            Set<Node> removed = new HashSet<>();
            for (MemoryEntry entry : space.entries.values()) {
                removed.add(new Node(namespace, entry.key()));
            }
            graph.syncRelations();
            List<Edge> kept = graph.without(removed);
            boolean relationsChanged = kept.size() != graph.edges().size();
            announce(changes, relationsChanged ? List.of(Line.clear(namespace), Line.relations()) : List.of(Line.clear(namespace)));
            for (String name : List.copyOf(space.entries.keySet())) {
                files.remove(namespace, name, changes);
            }
            files.sync(namespace);
            int count = space.entries.size();
            space.entries.clear();
            if (relationsChanged) {
                graph.saveRelations(kept, changes);
            }
            removeIfSession(namespace, changes);
            return count;
        });
    }

    /** An ended session leaves no directory: removed once the trash of the clear is gone. */
    private void removeIfSession(Namespace namespace, FileChanges changes) {
        if (namespace.scope() == Scope.SESSION) {
            changes.onComplete(() -> files.removeIfEmpty(namespace));
        }
    }

    /** Appends the lines of a single write before it changes any file, so that no change can go unjournaled. */
    void announce(FileChanges changes, List<Line> lines) throws IOException {
        if (journal.append(lines)) {
            stale = true;
        }
        changes.started();
        advanceCursor();
    }

    /**
     * Runs a change under the exclusive store lock, caught up with every other writer; if it fails, undoes what
     * it did, and the index rescans.
     */
    <T> T write(String what, Work<T> work) {
        checkOpen();
        return Interrupts.deferred(() -> {
            try (StoreLock.Held held = storeLock.exclusive()) {
                indexLock.writeLock().lock();
                try {
                    checkOpen();
                    catchUp(true);
                    commits.recoverCommits();
                    FileChanges changes = new FileChanges();
                    T result;
                    try {
                        result = work.run(changes);
                    } catch (IOException | RuntimeException | Error e) {
                        if (changes.isStarted()) {
                            stale = true;
                            List<Exception> failures = changes.undo();
                            if (!failures.isEmpty() && e instanceof IOException io) {
                                StorageException error = new StorageException(storage(what, io).getMessage()
                                        + " Undoing what it had done failed too (" + failures.get(0) + "), so part of the change may"
                                        + " be in place; every provider re-reads the files concerned.", e);
                                failures.forEach(error::addSuppressed);
                                throw error;
                            }
                            failures.forEach(e::addSuppressed);
                        }
                        throw e;
                    }
                    changes.complete();
                    startGenerationIfFull();
                    return result;
                } finally {
                    indexLock.writeLock().unlock();
                }
            } catch (IOException e) {
                stale = true;
                throw storage(what, e);
            }
        });
    }

    private void startGenerationIfFull() {
        if (cursor.stamp().size() <= journalLimit) {
            return;
        }
        try {
            startGeneration();
            LOG.debug("Started a new journal generation {} in {}", cursor.generation(), store);
        } catch (IOException e) {
            LOG.warn("Could not start a new journal generation in {} ({}); the journal grows until a later write can", store,
                    e.toString());
        }
    }

    StorageException storage(String what, IOException e) {
        if (e instanceof ClosedByInterruptException || e instanceof FileLockInterruptionException || e instanceof InterruptedIOException) {
            return new StorageException("The " + provider + " provider could not " + what + " in " + store + ": the thread was "
                    + "interrupted again and again (" + e + "). What it had changed was undone; the interrupt flag is set.", e);
        }
        return new StorageException("The " + provider + " provider could not " + what + " in " + store + ": " + e
                + ". Check the disk and the directory's permissions.", e);
    }

    @Override
    public String toString() {
        return "FileStore[" + store + "]";
    }
}
