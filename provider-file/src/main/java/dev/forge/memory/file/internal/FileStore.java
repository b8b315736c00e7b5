package dev.forge.memory.file.internal;

import dev.forge.memory.support.files.StoreLock;
import dev.forge.memory.support.files.AtomicFiles;
import dev.forge.memory.support.files.Interrupts;
import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConflictException;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.EntryRules;
import dev.forge.memory.GraphPath;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.StorageException;
import dev.forge.memory.Traversal;
import dev.forge.memory.file.internal.CommitLog.Operation;
import dev.forge.memory.file.internal.CommitLog.Write;
import dev.forge.memory.file.internal.EntryFiles.Loaded;
import dev.forge.memory.file.internal.Journal.Line;
import dev.forge.memory.file.internal.RelationFile.Edge;
import dev.forge.memory.file.internal.RelationFile.Node;
import dev.forge.memory.support.EntryWrite;
import dev.forge.memory.support.tx.Change;
import dev.forge.memory.support.tx.Commit;
import dev.forge.memory.support.GraphWalker;
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
import java.util.LinkedHashSet;
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
 * The engine behind one {@code file} provider: the in-memory index of the entries this provider can see (its
 * session, its project, global), kept in step with the directory through the {@link Journal}, and every change
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

    /** What the index knows about one key: its entry, a damaged file, or nothing. */
    public record Lookup(MemoryEntry entry, Loaded damaged) {
        /** Nothing stored. */
        public static final Lookup ABSENT = new Lookup(null, null);

        /** The entry, if the key has a readable one. */
        public Optional<MemoryEntry> current() {
            return Optional.ofNullable(entry);
        }

        /**
         * Whether {@code other} shows the same stored state, for conflict checks: an equal entry (key, value,
         * version and timestamps, so a delete and re-create in between counts as a change), or both damaged, or
         * both absent.
         */
        public boolean sameStateAs(Lookup other) {
            return Objects.equals(entry, other.entry) && (damaged == null) == (other.damaged == null);
        }
    }

    /** The reader's place in the journal. */
    private record Cursor(String generation, long offset, FileStamp stamp) {
    }

    /** The current entries and damaged files of one visible namespace, by file name. */
    private static final class NamespaceIndex {
        final Map<String, MemoryEntry> entries = new HashMap<>();
        final Map<String, Loaded> damaged = new HashMap<>();
    }

    @FunctionalInterface
    private interface Work<T> {
        T run(FileChanges changes) throws IOException;
    }

    @FunctionalInterface
    private interface Reading<T> {
        T run() throws IOException;
    }

    private final String provider;
    private final Path store;
    private final Clock clock;
    private final boolean gzip;
    private final boolean fsync;
    private final long journalLimit;
    private final StoreLock storeLock;
    private final Journal journal;
    private final EntryFiles files;
    private final RelationFile relationFile;
    private final CommitLog commitLog;
    private final Map<Scope, Namespace> namespaces = new EnumMap<>(Scope.class);
    private final Map<Namespace, NamespaceIndex> index = new LinkedHashMap<>();
    private final ReentrantReadWriteLock indexLock = new ReentrantReadWriteLock();
    private final AtomicBoolean closed = new AtomicBoolean();

    // Guarded by indexLock.
    private List<Edge> edges = List.of();
    private Map<Node, List<Edge>> outgoing = Map.of();
    private Map<Node, List<Edge>> incoming = Map.of();
    private String relationsProblem;
    private FileStamp relationsStamp;

    private volatile Cursor cursor = new Cursor(null, 0, FileStamp.MISSING);
    private volatile boolean stale = true;

    private FileStore(String provider, Path store, StoreLock storeLock, String projectId, String sessionId, Clock clock,
                      boolean gzip, boolean fsync, long maxFileSize, long journalLimit) {
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
            index.put(namespace, new NamespaceIndex());
        }
    }

    /**
     * Opens the store in {@code directory}, creating it if needed: takes the store lock, removes temporary files
     * of writes that never finished, completes interrupted commits, and builds the index by scanning this
     * provider's three directories. A damaged entry file is logged and kept out of the index; a commit that
     * cannot be completed is logged, and writes fail until it can be.
     *
     * @param provider     the provider's name, for messages
     * @param journalLimit the journal size past which a writer starts a new one
     * @throws BackendUnavailableException if the directory cannot be created, locked or read
     */
    public static FileStore open(String provider, Path directory, String projectId, String sessionId, Clock clock,
                                 boolean gzip, boolean fsync, long maxFileSize, long journalLimit) {
        Path real;
        try {
            AtomicFiles.createDirectories(directory, false);
            real = directory.toRealPath();
        } catch (IOException e) {
            Optional<String> link = StoreDirectory.brokenLink(directory);
            throw new BackendUnavailableException("Cannot create or open the memory directory " + directory
                    + " (config key base_path): " + link.map(why -> why + "; the directory may be a link, but to a "
                    + "directory, and nothing was created where it points. Point base_path at a directory, or mend "
                    + "the link.").orElse(e + ". Check the path and its permissions."), e);
        }
        StoreLock lock;
        try {
            lock = StoreLock.acquire(real);
        } catch (IOException e) {
            throw new BackendUnavailableException("Cannot open the lock file in " + real + ": " + e
                    + ". Check that the directory is writable.", e);
        }
        FileStore fileStore = new FileStore(provider, real, lock, projectId, sessionId, clock, gzip, fsync, maxFileSize, journalLimit);
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
                        recoverCommits();
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

    /** The namespace this store's provider uses for {@code scope}. */
    public Namespace namespace(Scope scope) {
        return namespaces.get(Objects.requireNonNull(scope, "scope"));
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed.get();
    }

    /** Releases the store lock; idempotent. */
    public void close() {
        if (closed.compareAndSet(false, true)) {
            storeLock.release();
        }
    }

    /** Fails with {@link BackendUnavailableException} once closed. */
    public void checkOpen() {
        if (closed.get()) {
            throw new BackendUnavailableException("This " + provider + " provider on " + store + " is closed; open a new one.");
        }
    }

    // ---------------------------------------------------------------- reads

    /** What the index holds for {@code key} in {@code scope}, caught up with other writers first. */
    public Lookup lookup(String key, Scope scope) {
        Namespace namespace = namespace(scope);
        String name = Keys.toFileName(key);
        return read(() -> lookup(namespace, name));
    }

    private Lookup lookup(Namespace namespace, String name) {
        NamespaceIndex space = index.get(namespace);
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
                reload(namespace, name);
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
        return read(() -> {
            List<MemoryEntry> all = new ArrayList<>();
            for (Scope scope : scopes) {
                all.addAll(index.get(namespace(scope)).entries.values());
            }
            return all;
        });
    }

    /**
     * What is wrong with the files this provider sees: entry files that cannot be read (skipped, their keys
     * unreadable), files moved aside as {@code NAME.corrupt-TIMESTAMP} by a later write of their key, and a damaged
     * relations file; sorted by location.
     */
    public List<dev.forge.memory.StoreProblem> problems() {
        checkOpen();
        return Interrupts.deferred(() -> caughtUp("check the store", () -> {
            List<dev.forge.memory.StoreProblem> problems = new ArrayList<>();
            for (Map.Entry<Namespace, NamespaceIndex> space : index.entrySet()) {
                for (Loaded damaged : space.getValue().damaged.values()) {
                    problems.add(new dev.forge.memory.StoreProblem(damaged.file().toString(), "cannot be read: "
                            + damaged.problem() + "; it is skipped and reading its key fails until it is repaired, "
                            + "removed, or the key stored again"));
                }
                Path directory = files.directory(space.getKey());
                if (Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
                    try (java.util.stream.Stream<Path> list = Files.list(directory)) {
                        list.filter(f -> f.getFileName().toString().contains(AtomicFiles.CORRUPT_INFIX)).forEach(f ->
                                problems.add(new dev.forge.memory.StoreProblem(f.toString(), "a damaged file moved aside "
                                        + "when its key was stored again; nothing reads it: look into it, then remove it")));
                    }
                }
            }
            if (relationsProblem != null) {
                problems.add(new dev.forge.memory.StoreProblem(relationFile.file().toString(), "cannot be read: "
                        + relationsProblem + "; relations are unavailable until it is repaired or removed"));
            }
            problems.sort(java.util.Comparator.comparing(dev.forge.memory.StoreProblem::location)
                    .thenComparing(dev.forge.memory.StoreProblem::problem));
            return List.copyOf(problems);
        }));
    }

    /**
     * Every version of a key, oldest first; read from disk under the shared lock, after completing any commit a
     * crash cut off.
     */
    public List<MemoryEntry> versions(String key, Scope scope) {
        checkOpen();
        Keys.validate(key);
        Objects.requireNonNull(scope, "scope");
        Namespace namespace = namespace(scope);
        String name = Keys.toFileName(key);
        checkOpen();
        completeCutOffCommits();
        return Interrupts.deferred(() -> caughtUp("read the history of key '" + Keys.abbreviate(key) + "'", () -> {
            Lookup lookup = lookup(namespace, name);
            if (lookup.damaged() != null) {
                throw lookup.damaged().corruption(key);
            }
            if (lookup.entry() == null) {
                return List.of();
            }
            return List.copyOf(files.versions(namespace, name, lookup.entry()));
        }));
    }

    /**
     * Completes commits a crash cut off, as the next write would. Needed before reading history from disk: a restore
     * cut off between its entry file and its history directory leaves the two out of step until its record is
     * completed, and the index (journaled only once a commit is complete) cannot tell. One directory listing when
     * nothing is pending. If completing fails, the read goes on: writes report the record.
     */
    private void completeCutOffCommits() {
        try {
            if (commitLog.pending().isEmpty()) {
                return;
            }
        } catch (IOException e) {
            throw storage("list the commit records", e);
        }
        try {
            write("complete a commit that was cut off", changes -> null);
        } catch (StorageException e) {
            LOG.debug("Reading history while a commit record cannot be completed: {}", e.getMessage());
        }
    }

    private <T> T read(Reading<T> reading) {
        checkOpen();
        return Interrupts.deferred(() -> {
            refresh();
            indexLock.readLock().lock();
            try {
                checkOpen();
                return reading.run();
            } catch (IOException e) {
                throw storage("read", e);
            } finally {
                indexLock.readLock().unlock();
            }
        });
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
    private <T> T caughtUp(String what, Reading<T> body) {
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
    private void catchUp(boolean writer) throws IOException {
        FileStamp stamp = journal.stamp();
        Cursor known = cursor;
        if (!stale && stamp.equals(known.stamp())) {
            return;
        }
        if (stamp.equals(FileStamp.MISSING)) {
            rescanAll();
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
            rescanAll();
            startGeneration();
            stale = false;
            return;
        }
        if (stale || read.reset() || read.rescan() || !applyLines(read.lines())) {
            rescanAll();
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

    private void advanceCursor() throws IOException {
        FileStamp stamp = journal.stamp();
        cursor = new Cursor(cursor.generation(), stamp.size(), stamp);
    }

    /** Applies journal lines to the index; false if a line made no sense and everything must be rescanned. */
    private boolean applyLines(List<Line> lines) throws IOException {
        Set<Namespace> cleared = new HashSet<>();
        Map<Namespace, Set<String>> touched = new LinkedHashMap<>();
        boolean relations = false;
        for (Line line : lines) {
            if (line.op() == Line.RELATIONS) {
                relations = true;
                continue;
            }
            Namespace namespace = Namespace.parse(line.namespace());
            if (namespace == null) {
                return false;
            }
            if (!index.containsKey(namespace)) {
                continue;
            }
            if (line.op() == Line.CLEAR) {
                cleared.add(namespace);
            } else if (Namespace.isFileNameOfKey(line.name())) {
                touched.computeIfAbsent(namespace, n -> new LinkedHashSet<>()).add(line.name());
            } else {
                return false;
            }
        }
        for (Namespace namespace : cleared) {
            rescan(namespace);
        }
        for (Map.Entry<Namespace, Set<String>> change : touched.entrySet()) {
            if (!cleared.contains(change.getKey())) {
                for (String name : change.getValue()) {
                    reload(change.getKey(), name);
                }
            }
        }
        if (relations) {
            loadRelations();
        }
        return true;
    }

    private void rescanAll() throws IOException {
        for (Namespace namespace : index.keySet()) {
            rescan(namespace);
        }
        loadRelations();
    }

    private void rescan(Namespace namespace) throws IOException {
        NamespaceIndex space = index.get(namespace);
        Map<String, Loaded> found = files.scan(namespace);
        Map<String, Loaded> wasDamaged = new HashMap<>(space.damaged);
        space.entries.clear();
        space.damaged.clear();
        for (Map.Entry<String, Loaded> file : found.entrySet()) {
            record(space, file.getKey(), file.getValue(), wasDamaged.containsKey(file.getKey()));
        }
    }

    /** Re-reads one entry file into the index: one small read. */
    private void reload(Namespace namespace, String name) throws IOException {
        NamespaceIndex space = index.get(namespace);
        Optional<Loaded> loaded = files.load(namespace, name);
        boolean known = space.damaged.containsKey(name);
        space.entries.remove(name);
        space.damaged.remove(name);
        loaded.ifPresent(l -> record(space, name, l, known));
    }

    private static void record(NamespaceIndex space, String name, Loaded loaded, boolean alreadyReported) {
        if (loaded.ok()) {
            space.entries.put(name, loaded.entry());
        } else {
            space.damaged.put(name, loaded);
            if (!alreadyReported) {
                LOG.warn("Skipping the damaged entry file {}: {}. It was left in place; reading its key fails until it is "
                        + "repaired or the key is stored again.", loaded.file(), loaded.problem());
            }
        }
    }

    private void indexPut(Namespace namespace, String name, MemoryEntry entry) {
        NamespaceIndex space = index.get(namespace);
        if (space != null) {
            space.entries.put(name, entry);
            space.damaged.remove(name);
        }
    }

    private void indexRemove(Namespace namespace, String name) {
        NamespaceIndex space = index.get(namespace);
        if (space != null) {
            space.entries.remove(name);
            space.damaged.remove(name);
        }
    }

    private void loadRelations() throws IOException {
        FileStamp stamp = FileStamp.of(relationFile.file());
        List<Edge> loaded;
        try {
            loaded = relationFile.load();
            relationsProblem = null;
        } catch (EntryCodec.MalformedException e) {
            if (relationsProblem == null) {
                LOG.warn("The relations file {} is damaged ({}); it was left in place and graph reads fail until it is repaired "
                        + "or a new relation is made, which moves it aside first.", relationFile.file(), e.getMessage());
            }
            relationsProblem = e.getMessage();
            loaded = List.of();
        }
        setEdges(loaded);
        relationsStamp = stamp;
    }

    /** Reloads the relations if the file is not the one this index read (one {@code stat}); before rewriting it. */
    private void syncRelations() throws IOException {
        if (!FileStamp.of(relationFile.file()).equals(relationsStamp)) {
            loadRelations();
        }
    }

    private void setEdges(List<Edge> all) {
        Map<Node, List<Edge>> out = new HashMap<>();
        Map<Node, List<Edge>> in = new HashMap<>();
        for (Edge edge : all) {
            out.computeIfAbsent(edge.from(), n -> new ArrayList<>()).add(edge);
            in.computeIfAbsent(edge.to(), n -> new ArrayList<>()).add(edge);
        }
        edges = List.copyOf(all);
        outgoing = out;
        incoming = in;
    }

    private void saveRelations(List<Edge> all, FileChanges changes) throws IOException {
        relationFile.save(all, fsync, changes);
        setEdges(all);
        relationsProblem = null;
        relationsStamp = FileStamp.of(relationFile.file());
    }

    /** The relations that do not touch any of {@code nodes}. */
    private List<Edge> without(Set<Node> nodes) {
        List<Edge> kept = new ArrayList<>(edges.size());
        for (Edge edge : edges) {
            if (!nodes.contains(edge.from()) && !nodes.contains(edge.to())) {
                kept.add(edge);
            }
        }
        return kept;
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
            reload(namespace, name);
            Lookup before = lookup(namespace, name);
            MemoryEntry entry = write.toEntry(before.current(), clock.instant());
            byte[] bytes = files.encode(entry);
            announce(changes, List.of(Line.set(namespace, name)));
            if (before.damaged() != null) {
                files.moveAside(namespace, name, clock.instant(), changes);
            }
            files.write(namespace, name, before.current(), true, bytes, changes);
            indexPut(namespace, name, entry);
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
        checkOpen();
        MemoryEntry current = chain.get(chain.size() - 1);
        Namespace namespace = namespace(current.scope());
        String name = Keys.toFileName(current.key());
        CommitLog.Restore restore = new CommitLog.Restore(namespace, chain);
        for (MemoryEntry version : chain) {
            files.encode(version);
        }
        return write("restore key '" + Keys.abbreviate(current.key()) + "'", changes -> {
            reload(namespace, name);
            if (!holds(namespace, name, chain)) {
                applyRecorded(List.of(restore), changes, Recorded.restore(current.key()));
            }
            return current;
        });
    }

    /** Whether the key already holds exactly {@code chain}, so that restoring it again writes nothing. */
    private boolean holds(Namespace namespace, String name, List<MemoryEntry> chain) throws IOException {
        MemoryEntry current = chain.get(chain.size() - 1);
        if (!current.equals(lookup(namespace, name).entry())) {
            return false;
        }
        try {
            return files.versions(namespace, name, current).equals(chain);
        } catch (CorruptEntryException e) {
            // A damaged history file: the restore writes the history again.
            return false;
        }
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
            reload(namespace, name);
            Lookup before = lookup(namespace, name);
            if (before.entry() == null && before.damaged() == null) {
                return false;
            }
            syncRelations();
            List<Edge> kept = without(Set.of(new Node(namespace, key)));
            boolean relationsChanged = kept.size() != edges.size();
            announce(changes, relationsChanged ? List.of(Line.delete(namespace, name), Line.relations()) : List.of(Line.delete(namespace, name)));
            if (before.damaged() != null) {
                files.moveAside(namespace, name, clock.instant(), changes);
            } else {
                files.remove(namespace, name, changes);
                files.sync(namespace);
            }
            indexRemove(namespace, name);
            if (relationsChanged) {
                saveRelations(kept, changes);
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
            rescan(namespace);
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
            syncRelations();
            List<Edge> kept = without(removed);
            boolean relationsChanged = kept.size() != edges.size();
            announce(changes, relationsChanged ? List.of(Line.clear(namespace), Line.relations()) : List.of(Line.clear(namespace)));
            for (String name : List.copyOf(space.entries.keySet())) {
                files.remove(namespace, name, changes);
            }
            files.sync(namespace);
            int count = space.entries.size();
            space.entries.clear();
            if (relationsChanged) {
                saveRelations(kept, changes);
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
    private void announce(FileChanges changes, List<Line> lines) throws IOException {
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
    private <T> T write(String what, Work<T> work) {
        checkOpen();
        return Interrupts.deferred(() -> {
            try (StoreLock.Held held = storeLock.exclusive()) {
                indexLock.writeLock().lock();
                try {
                    checkOpen();
                    catchUp(true);
                    recoverCommits();
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

    private StorageException storage(String what, IOException e) {
        if (e instanceof ClosedByInterruptException || e instanceof FileLockInterruptionException || e instanceof InterruptedIOException) {
            return new StorageException("The " + provider + " provider could not " + what + " in " + store + ": the thread was "
                    + "interrupted again and again (" + e + "). What it had changed was undone; the interrupt flag is set.", e);
        }
        return new StorageException("The " + provider + " provider could not " + what + " in " + store + ": " + e
                + ". Check the disk and the directory's permissions.", e);
    }

    // ---------------------------------------------------------------- transactions

    /**
     * Commits a transaction atomically: re-reads every key it saw and checks that each is still as it saw it, writes
     * a commit record (forced to disk), applies the changes, journals them, removes the record. If applying fails,
     * what was applied is undone; if that fails too, the commit is completed instead; if both fail, the record stays,
     * to be completed by the next write or open.
     *
     * @throws ConflictException if another writer changed a key the transaction touched; nothing is applied
     */
    public void commit(Commit<Lookup> commit) {
        write("commit a transaction", changes -> {
            for (EntryRef ref : commit.observed().keySet()) {
                reload(namespace(ref.scope()), Keys.toFileName(ref.key()));
            }
            commit.verify(ref -> lookup(namespace(ref.scope()), Keys.toFileName(ref.key())), Lookup::sameStateAs);
            if (commit.changes().isEmpty()) {
                return null;
            }
            List<Operation> operations = new ArrayList<>();
            for (Change change : commit.changes()) {
                Namespace namespace = namespace(change.ref().scope());
                operations.add(change.entry().isPresent()
                        ? new CommitLog.Write(namespace, change.previous(), change.entry().get())
                        : new CommitLog.Remove(namespace, change.ref().key()));
            }
            applyRecorded(operations, changes, Recorded.TRANSACTION);
            return null;
        });
    }

    /** How the failures of a recorded change are told: a transaction commit or a restore. */
    private record Recorded(String notDone, String change, String retry) {
        static final Recorded TRANSACTION = new Recorded("Transaction not committed", "A transaction commit", "the transaction");

        static Recorded restore(String key) {
            return new Recorded("Key '" + Keys.abbreviate(key) + "' not restored",
                    "A restore of key '" + Keys.abbreviate(key) + "'", "the restore");
        }
    }

    /**
     * Writes a commit record (forced to disk), applies the operations, journals them all at once and removes the
     * record. Called under the exclusive lock. If applying fails, see {@link #failedCommit}.
     */
    private void applyRecorded(List<Operation> operations, FileChanges changes, Recorded kind) throws IOException {
        CommitLog.Record record = commitLog.write(operations, fsync);
        changes.started();
        try {
            List<Line> lines = apply(operations, changes);
            // Only a complete commit is journaled, so that no provider sees part of it.
            if (journal.append(lines)) {
                stale = true;
            }
            advanceCursor();
        } catch (IOException | RuntimeException e) {
            failedCommit(record, changes, e, kind);
        }
        changes.complete();
        try {
            commitLog.remove(record, fsync);
        } catch (IOException e) {
            LOG.error("{} was completed, but its commit record {} could not be removed ({}); the next write applies it again, "
                    + "which changes nothing", kind.change(), record.file(), e.toString());
        }
    }

    /** After a commit failed half-way: undo it, or else complete it, or else say that it is recorded. */
    private void failedCommit(CommitLog.Record record, FileChanges changes, Exception cause, Recorded kind) {
        stale = true;
        List<Exception> undoFailures = changes.undo();
        if (undoFailures.isEmpty()) {
            try {
                commitLog.remove(record, fsync);
            } catch (IOException e) {
                StorageException error = new StorageException(kind.notDone() + ": " + cause + ". Its changes were undone, "
                        + "but its commit record " + record.file() + " could not be removed (" + e + "), so the next write to "
                        + "this store, or the next open, applies " + kind.retry() + " after all. Do not retry it.", cause);
                error.addSuppressed(e);
                throw error;
            }
            throw new StorageException(kind.notDone() + ": " + cause + ". Nothing was applied; fix the cause (check the "
                    + "disk and the directory's permissions) and retry " + kind.retry() + ".", cause);
        }
        FileChanges forward = new FileChanges();
        try {
            List<Line> lines = apply(record.operations(), forward);
            journalCommit(lines);
            forward.complete();
        } catch (IOException | RuntimeException again) {
            forward.undo();
            StorageException error = new StorageException(kind.change() + " failed half-way (" + cause + ") and could be "
                    + "neither undone (" + undoFailures.get(0) + ") nor completed (" + again + "). It is recorded in "
                    + record.file() + ": the next write to this store, or the next open, completes it once the cause is fixed, "
                    + "and writes fail until then. Do not retry " + kind.retry() + ".", cause);
            undoFailures.forEach(error::addSuppressed);
            error.addSuppressed(again);
            throw error;
        }
        LOG.warn("{} failed half-way ({}) and could not be undone; it was completed instead", kind.change(), cause.toString());
    }

    /** Journals a completed commit; if the journal cannot be appended to, makes every reader rescan instead. */
    private void journalCommit(List<Line> lines) throws IOException {
        try {
            if (journal.append(lines)) {
                stale = true;
            }
            advanceCursor();
        } catch (IOException e) {
            if (!journal.invalidate(fsync)) {
                throw e;
            }
            LOG.warn("Could not append to the journal {} ({}); replaced it so that every provider rescans", journal.file(), e.toString());
            stale = true;
        }
    }

    /**
     * Applies operations, each step undoable through {@code changes}, and returns their journal lines. Every write
     * keeps the entry it replaces as history: by a hard link when the file on disk holds it (a commit), written
     * from the record otherwise (a commit completed again after a crash).
     */
    private List<Line> apply(List<Operation> operations, FileChanges changes) throws IOException {
        List<Line> lines = new ArrayList<>();
        Set<Node> removed = new HashSet<>();
        Set<Namespace> removedIn = new LinkedHashSet<>();
        for (Operation operation : operations) {
            Namespace namespace = operation.namespace();
            String name = Keys.toFileName(operation.key());
            Optional<Loaded> onDisk = files.load(namespace, name);
            boolean damaged = onDisk.isPresent() && !onDisk.get().ok();
            if (damaged) {
                files.moveAside(namespace, name, clock.instant(), changes);
            }
            if (operation instanceof Write write) {
                boolean previousOnDisk = write.previous().isPresent() && onDisk.isPresent()
                        && write.previous().get().equals(onDisk.get().entry());
                files.write(namespace, name, write.previous(), previousOnDisk, EntryCodec.encode(write.entry(), gzip), changes);
                lines.add(Line.set(namespace, name));
                indexPut(namespace, name, write.entry());
            } else if (operation instanceof CommitLog.Restore restore) {
                // No previous entry: the old history goes, then the given earlier versions become the whole history.
                files.write(namespace, name, Optional.empty(), false, EntryCodec.encode(restore.current(), gzip), changes);
                files.replaceHistory(namespace, name, restore.earlier(), changes);
                lines.add(Line.set(namespace, name));
                indexPut(namespace, name, restore.current());
            } else {
                if (!damaged) {
                    files.remove(namespace, name, changes);
                    removedIn.add(namespace);
                }
                lines.add(Line.delete(namespace, name));
                indexRemove(namespace, name);
                removed.add(new Node(namespace, operation.key()));
            }
        }
        for (Namespace namespace : removedIn) {
            files.sync(namespace);
        }
        if (!removed.isEmpty()) {
            syncRelations();
            List<Edge> kept = without(removed);
            if (kept.size() != edges.size()) {
                saveRelations(kept, changes);
                lines.add(Line.relations());
            }
        }
        return lines;
    }

    /**
     * Completes commits that a crash cut off, then catches up. Called under the exclusive lock.
     *
     * @throws StorageException naming the record if one cannot be completed: writes wait for it
     */
    private void recoverCommits() throws IOException {
        List<Path> pending = commitLog.pending();
        if (pending.isEmpty()) {
            return;
        }
        loadRelations();
        for (Path file : pending) {
            CommitLog.Record record;
            try {
                record = commitLog.read(file);
            } catch (EntryCodec.MalformedException e) {
                Path aside = AtomicFiles.moveAside(file, clock.instant());
                LOG.error("The commit record {} is damaged ({}); moved aside to {} without applying it", file, e.getMessage(), aside);
                continue;
            }
            FileChanges changes = new FileChanges();
            try {
                journalCommit(apply(record.operations(), changes));
                changes.complete();
                commitLog.remove(record, fsync);
            } catch (IOException | RuntimeException e) {
                changes.undo();
                stale = true;
                throw new StorageException("A commit (a transaction or a restore) recorded in " + file + " was cut off and cannot be completed: " + e
                        + ". Every write to this store fails until it is (reads still work); fix the cause, and the next write or "
                        + "open completes the commit.", e);
            }
            LOG.warn("Completed an interrupted commit (a transaction or a restore) from {} ({} operations)", file, record.operations().size());
        }
        stale = true;
        catchUp(true);
    }

    // ---------------------------------------------------------------- graph

    private Node node(EntryRef ref) {
        Keys.validate(ref.key());
        return new Node(namespace(ref.scope()), ref.key());
    }

    private boolean exists(Node node) {
        NamespaceIndex space = index.get(node.namespace());
        return space != null && space.entries.containsKey(Keys.toFileName(node.key()));
    }

    /** The checks of a relate or unrelate call, in the order the provider has always made them. */
    private void checkRelationCall(EntryRef from, EntryRef to, String type) {
        checkOpen();
        EntryRules.checkRelationType(type);
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
    }

    /** Relates two existing entries; an existing relation of the same type is returned as it is. */
    public Relation relate(EntryRef from, EntryRef to, String type) {
        checkRelationCall(from, to, type);
        Node source = node(from);
        Node target = node(to);
        return write("relate " + from + " to " + to, changes -> {
            reload(source.namespace(), Keys.toFileName(source.key()));
            reload(target.namespace(), Keys.toFileName(target.key()));
            requireExists(source);
            requireExists(target);
            syncRelations();
            for (Edge edge : outgoing.getOrDefault(source, List.of())) {
                if (edge.type().equals(type) && edge.to().equals(target)) {
                    return edge.toRelation();
                }
            }
            announce(changes, List.of(Line.relations()));
            Path file = relationFile.file();
            if (relationsProblem != null && Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                Path aside = AtomicFiles.moveAside(file, clock.instant());
                changes.onUndo(() -> Files.move(aside, file));
                LOG.warn("Moved the damaged relations file aside to {} before writing a new one", aside);
            }
            Edge edge = new Edge(source, type, target, clock.instant());
            List<Edge> all = new ArrayList<>(edges);
            all.add(edge);
            saveRelations(all, changes);
            return edge.toRelation();
        });
    }

    private void requireExists(Node node) {
        if (!exists(node)) {
            throw new EntryNotFoundException("Cannot relate " + node.ref() + ": no such entry. Store it first.");
        }
    }

    /**
     * Removes one relation; false if there was none.
     *
     * @throws CorruptEntryException if the relations file is damaged, as graph reads do
     */
    public boolean unrelate(EntryRef from, EntryRef to, String type) {
        checkRelationCall(from, to, type);
        Node source = node(from);
        Node target = node(to);
        return write("unrelate " + from + " from " + to, changes -> {
            syncRelations();
            checkRelations();
            List<Edge> kept = new ArrayList<>(edges);
            if (!kept.removeIf(e -> e.from().equals(source) && e.to().equals(target) && e.type().equals(type))) {
                return false;
            }
            announce(changes, List.of(Line.relations()));
            saveRelations(kept, changes);
            return true;
        });
    }

    /** The visible relations of an entry, sorted. */
    public List<Relation> relations(EntryRef entry, Direction direction) {
        checkOpen();
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(direction, "direction");
        Node node = node(entry);
        return read(() -> {
            checkRelations();
            return relationsOf(node, direction);
        });
    }

    /** A breadth-first walk from {@code start}. */
    public List<GraphPath> traverse(EntryRef start, Traversal traversal) {
        checkOpen();
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(traversal, "traversal");
        Node node = node(start);
        return read(() -> {
            checkRelations();
            if (!exists(node)) {
                return List.of();
            }
            return GraphWalker.traverse(start, traversal, (ref, direction) -> relationsOf(node(ref), direction));
        });
    }

    private void checkRelations() {
        if (relationsProblem != null) {
            throw new CorruptEntryException("The relations file " + relationFile.file() + " cannot be read: " + relationsProblem
                    + ". The file was left in place; repair or remove it (making a new relation moves it aside first).");
        }
    }

    private List<Relation> relationsOf(Node node, Direction direction) {
        if (!exists(node)) {
            return List.of();
        }
        List<Relation> found = new ArrayList<>();
        if (direction != Direction.INCOMING) {
            for (Edge edge : outgoing.getOrDefault(node, List.of())) {
                if (exists(edge.to())) {
                    found.add(edge.toRelation());
                }
            }
        }
        if (direction != Direction.OUTGOING) {
            for (Edge edge : incoming.getOrDefault(node, List.of())) {
                boolean selfLoopSeen = direction == Direction.BOTH && edge.from().equals(edge.to());
                if (exists(edge.from()) && !selfLoopSeen) {
                    found.add(edge.toRelation());
                }
            }
        }
        found.sort(null);
        return List.copyOf(found);
    }

    @Override
    public String toString() {
        return "FileStore[" + store + "]";
    }
}
