package dev.forge.memory.file.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConflictException;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.GraphPath;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.StorageException;
import dev.forge.memory.Traversal;
import dev.forge.memory.file.internal.CommitLog.Operation;
import dev.forge.memory.file.internal.CommitLog.Remove;
import dev.forge.memory.file.internal.CommitLog.Write;
import dev.forge.memory.file.internal.EntryFiles.Loaded;
import dev.forge.memory.file.internal.Journal.Line;
import dev.forge.memory.file.internal.RelationFile.Edge;
import dev.forge.memory.file.internal.RelationFile.Node;
import dev.forge.memory.spi.EntryWrite;
import dev.forge.memory.spi.GraphWalker;
import dev.forge.memory.spi.Keys;
import java.io.IOException;
import java.nio.file.Files;
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
 * index lock. Reads that find the journal unchanged take only the index lock.
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
    private record Cursor(String generation, long offset, Journal.Stamp stamp) {
    }

    /** The current entries and damaged files of one visible namespace, by file name. */
    private static final class NamespaceIndex {
        final Map<String, MemoryEntry> entries = new HashMap<>();
        final Map<String, Loaded> damaged = new HashMap<>();
    }

    /** What one write changed, for the journal. */
    private static final class Changes {
        final List<Line> lines = new ArrayList<>();
        final List<IoAction> afterJournal = new ArrayList<>();
        boolean relationsChanged;
    }

    @FunctionalInterface
    private interface IoAction {
        void run() throws IOException;
    }

    @FunctionalInterface
    private interface Work<T> {
        T run(Changes changes) throws IOException;
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

    private volatile Cursor cursor = new Cursor(null, 0, Journal.Stamp.MISSING);
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
     * provider's three directories. A damaged entry file is logged and kept out of the index.
     *
     * @param provider     the provider's name, for messages
     * @param journalLimit the journal size past which a writer starts a new one
     * @throws BackendUnavailableException if the directory cannot be created, locked or read
     */
    public static FileStore open(String provider, Path directory, String projectId, String sessionId, Clock clock,
                                 boolean gzip, boolean fsync, long maxFileSize, long journalLimit) {
        Path real;
        try {
            Files.createDirectories(directory);
            real = directory.toRealPath();
        } catch (IOException e) {
            throw new BackendUnavailableException("Cannot create or open the memory directory " + directory
                    + " (config key base_path): " + e + ". Check the path and its permissions.", e);
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
                if (recoverCommits()) {
                    stale = true;
                    catchUp(true);
                }
            } finally {
                indexLock.writeLock().unlock();
            }
        } catch (IOException e) {
            throw new BackendUnavailableException("Cannot read the memory directory " + store + ": " + e, e);
        }
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

    /** Every version of a key, oldest first; read from disk under the shared lock. */
    public List<MemoryEntry> versions(String key, Scope scope) {
        Namespace namespace = namespace(scope);
        String name = Keys.toFileName(key);
        checkOpen();
        try (StoreLock.Held held = storeLock.shared()) {
            indexLock.writeLock().lock();
            try {
                catchUp(false);
                Lookup lookup = lookup(namespace, name);
                if (lookup.damaged() != null) {
                    throw lookup.damaged().corruption(key);
                }
                if (lookup.entry() == null) {
                    return List.of();
                }
                return List.copyOf(files.versions(namespace, name, lookup.entry()));
            } finally {
                indexLock.writeLock().unlock();
            }
        } catch (IOException e) {
            throw storage("read the history of key '" + Keys.abbreviate(key) + "'", e);
        }
    }

    private <T> T read(Reading<T> reading) {
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
    }

    /** Catches up with other writers if the journal changed: one {@code stat} when it did not. */
    private void refresh() {
        checkOpen();
        Journal.Stamp now;
        try {
            now = journal.stamp();
        } catch (IOException e) {
            throw storage("read the journal", e);
        }
        if (!stale && now.equals(cursor.stamp())) {
            return;
        }
        try (StoreLock.Held held = storeLock.shared()) {
            indexLock.writeLock().lock();
            try {
                catchUp(false);
            } finally {
                indexLock.writeLock().unlock();
            }
        } catch (IOException e) {
            throw storage("catch up with the journal", e);
        }
    }

    /**
     * Brings the index up to date with the journal. Called with the store lock held (shared by readers,
     * exclusive by writers, who also repair a missing or unreadable journal) and the index write lock.
     */
    private void catchUp(boolean writer) throws IOException {
        Journal.Stamp stamp = journal.stamp();
        Cursor known = cursor;
        if (!stale && stamp.equals(known.stamp())) {
            return;
        }
        if (stamp.equals(Journal.Stamp.MISSING)) {
            rescanAll();
            if (writer) {
                String generation = journal.reset(fsync);
                Journal.Stamp created = journal.stamp();
                cursor = new Cursor(generation, created.size(), created);
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
            String generation = journal.reset(fsync);
            Journal.Stamp created = journal.stamp();
            cursor = new Cursor(generation, created.size(), created);
            stale = false;
            return;
        }
        if (stale || read.reset() || read.damaged() || !applyLines(read.lines())) {
            rescanAll();
        }
        cursor = new Cursor(read.generation(), read.end(), stamp);
        stale = false;
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

    private void loadRelations() throws IOException {
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
            Lookup before = lookup(namespace, name);
            MemoryEntry entry = write.toEntry(before.current(), clock.instant());
            byte[] bytes = files.encode(entry);
            applyWrite(namespace, name, before.current(), entry, bytes, before.damaged() != null, changes);
            return entry;
        });
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
            Lookup before = lookup(namespace, name);
            if (before.entry() == null && before.damaged() == null) {
                return false;
            }
            applyRemove(namespace, key, name, before.damaged() != null, changes);
            return true;
        });
    }

    /** Removes every entry of this provider's namespace of {@code scope}; damaged files are left in place. */
    public int clear(Scope scope) {
        Namespace namespace = namespace(scope);
        return write("clear the " + scope.id() + " scope", changes -> {
            NamespaceIndex space = index.get(namespace);
            Set<Node> removed = new HashSet<>();
            changes.lines.add(Line.clear(namespace));
            for (Map.Entry<String, MemoryEntry> entry : List.copyOf(space.entries.entrySet())) {
                files.delete(namespace, entry.getKey());
                space.entries.remove(entry.getKey());
                removed.add(new Node(namespace, entry.getValue().key()));
            }
            removeEdges(removed, changes);
            if (!space.damaged.isEmpty()) {
                LOG.warn("Clearing {} left {} damaged entry files in place in {}", scope.id(), space.damaged.size(),
                        files.directory(namespace));
            }
            if (scope == Scope.SESSION) {
                files.removeIfEmpty(namespace);
            }
            return removed.size();
        });
    }

    private void applyWrite(Namespace namespace, String name, Optional<MemoryEntry> previous, MemoryEntry entry, byte[] bytes,
                            boolean damaged, Changes changes) throws IOException {
        if (previous.isPresent()) {
            files.writeHistory(namespace, name, previous.get());
        } else if (damaged) {
            files.moveAside(namespace, name, clock.instant());
        } else {
            // Versions restart at 1: drop what an earlier life of the key may have left behind.
            files.deleteHistory(namespace, name);
        }
        files.writeCurrent(namespace, name, bytes);
        changes.lines.add(Line.set(namespace, name));
        NamespaceIndex space = index.get(namespace);
        if (space != null) {
            space.entries.put(name, entry);
            space.damaged.remove(name);
        }
    }

    private void applyRemove(Namespace namespace, String key, String name, boolean damaged, Changes changes) throws IOException {
        if (damaged) {
            files.moveAside(namespace, name, clock.instant());
        } else {
            files.delete(namespace, name);
        }
        changes.lines.add(Line.delete(namespace, name));
        NamespaceIndex space = index.get(namespace);
        if (space != null) {
            space.entries.remove(name);
            space.damaged.remove(name);
        }
        removeEdges(Set.of(new Node(namespace, key)), changes);
    }

    private void removeEdges(Set<Node> nodes, Changes changes) {
        if (nodes.isEmpty() || edges.isEmpty()) {
            return;
        }
        List<Edge> kept = new ArrayList<>(edges.size());
        for (Edge edge : edges) {
            if (!nodes.contains(edge.from()) && !nodes.contains(edge.to())) {
                kept.add(edge);
            }
        }
        if (kept.size() != edges.size()) {
            setEdges(kept);
            changes.relationsChanged = true;
        }
    }

    /**
     * Runs a change under the exclusive store lock, caught up with every other writer, and records it in the
     * journal afterwards, also when it failed half-way.
     */
    private <T> T write(String what, Work<T> work) {
        checkOpen();
        try (StoreLock.Held held = storeLock.exclusive()) {
            indexLock.writeLock().lock();
            try {
                checkOpen();
                catchUp(true);
                if (recoverCommits()) {
                    stale = true;
                    catchUp(true);
                }
                Changes changes = new Changes();
                boolean done = false;
                try {
                    T result = work.run(changes);
                    done = true;
                    return result;
                } finally {
                    finish(changes, done);
                }
            } finally {
                indexLock.writeLock().unlock();
            }
        } catch (IOException e) {
            stale = true;
            throw storage(what, e);
        }
    }

    private void finish(Changes changes, boolean done) throws IOException {
        if (!done && !changes.lines.isEmpty()) {
            stale = true;
        }
        if (changes.relationsChanged) {
            relationFile.save(edges, fsync);
            changes.lines.add(Line.relations());
        }
        if (changes.lines.isEmpty()) {
            return;
        }
        journal.append(changes.lines);
        Journal.Stamp stamp = journal.stamp();
        cursor = new Cursor(cursor.generation(), stamp.size(), stamp);
        if (stamp.size() > journalLimit) {
            String generation = journal.reset(fsync);
            Journal.Stamp fresh = journal.stamp();
            cursor = new Cursor(generation, fresh.size(), fresh);
            LOG.debug("Started a new journal generation {} in {}", generation, store);
        }
        for (IoAction action : changes.afterJournal) {
            action.run();
        }
    }

    private StorageException storage(String what, IOException e) {
        return new StorageException("The " + provider + " provider could not " + what + " in " + store + ": " + e
                + ". Check the disk and the directory's permissions.", e);
    }

    // ---------------------------------------------------------------- transactions

    /**
     * Commits a transaction's operations atomically: checks that every key it saw is still as it saw it,
     * writes a commit record (forced to disk), applies the operations, journals them, removes the record.
     *
     * @param observed what each key held when the transaction first touched it
     * @throws ConflictException if another writer changed one of those keys; nothing is applied
     */
    public void commit(List<Operation> operations, Map<EntryRef, Lookup> observed) {
        write("commit a transaction", changes -> {
            for (Map.Entry<EntryRef, Lookup> seen : observed.entrySet()) {
                EntryRef ref = seen.getKey();
                Lookup now = lookup(namespace(ref.scope()), Keys.toFileName(ref.key()));
                if (!now.sameStateAs(seen.getValue())) {
                    throw new ConflictException("Transaction not committed: " + ref + " was changed by another writer since this "
                            + "transaction read it. Nothing was applied; retry the transaction.");
                }
            }
            if (operations.isEmpty()) {
                return null;
            }
            CommitLog.Record record = commitLog.write(operations, fsync);
            apply(operations, false, changes);
            changes.afterJournal.add(() -> commitLog.remove(record, fsync));
            return null;
        });
    }

    private void apply(List<Operation> operations, boolean recovering, Changes changes) throws IOException {
        for (Operation operation : operations) {
            Namespace namespace = operation.namespace();
            String name = Keys.toFileName(operation.key());
            NamespaceIndex space = index.get(namespace);
            boolean damaged = recovering || space == null ? files.isDamaged(namespace, name) : space.damaged.containsKey(name);
            if (operation instanceof Write write) {
                byte[] bytes = EntryCodec.encode(write.entry(), gzip);
                applyWrite(namespace, name, write.previous(), write.entry(), bytes, damaged && write.previous().isEmpty(), changes);
            } else if (operation instanceof Remove) {
                applyRemove(namespace, operation.key(), name, damaged, changes);
            }
        }
    }

    /** Completes commits that were interrupted; true if there were any. Called under the exclusive lock. */
    private boolean recoverCommits() throws IOException {
        List<Path> pending = commitLog.pending();
        if (pending.isEmpty()) {
            return false;
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
            Changes changes = new Changes();
            boolean done = false;
            try {
                apply(record.operations(), true, changes);
                done = true;
            } finally {
                finish(changes, done);
            }
            commitLog.remove(record, fsync);
            LOG.warn("Completed an interrupted transaction commit from {} ({} operations)", file, record.operations().size());
        }
        return true;
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

    /** Relates two existing entries; an existing relation of the same type is returned as it is. */
    public Relation relate(EntryRef from, EntryRef to, String type) {
        Node source = node(from);
        Node target = node(to);
        return write("relate " + from + " to " + to, changes -> {
            requireExists(source);
            requireExists(target);
            for (Edge edge : outgoing.getOrDefault(source, List.of())) {
                if (edge.type().equals(type) && edge.to().equals(target)) {
                    return edge.toRelation();
                }
            }
            if (relationsProblem != null && Files.exists(relationFile.file())) {
                Path aside = AtomicFiles.moveAside(relationFile.file(), clock.instant());
                LOG.warn("Moved the damaged relations file aside to {} before writing a new one", aside);
                relationsProblem = null;
            }
            Edge edge = new Edge(source, type, target, clock.instant());
            List<Edge> all = new ArrayList<>(edges);
            all.add(edge);
            setEdges(all);
            changes.relationsChanged = true;
            return edge.toRelation();
        });
    }

    private void requireExists(Node node) {
        if (!exists(node)) {
            throw new EntryNotFoundException("Cannot relate " + node.ref() + ": no such entry. Store it first.");
        }
    }

    /** Removes one relation; false if there was none. */
    public boolean unrelate(EntryRef from, EntryRef to, String type) {
        Node source = node(from);
        Node target = node(to);
        return write("unrelate " + from + " from " + to, changes -> {
            List<Edge> kept = new ArrayList<>(edges);
            boolean removed = kept.removeIf(e -> e.from().equals(source) && e.to().equals(target) && e.type().equals(type));
            if (removed) {
                setEdges(kept);
                changes.relationsChanged = true;
            }
            return removed;
        });
    }

    /** The visible relations of an entry, sorted. */
    public List<Relation> relations(EntryRef entry, Direction direction) {
        Node node = node(entry);
        return read(() -> {
            checkRelations();
            return relationsOf(node, direction);
        });
    }

    /** A breadth-first walk from {@code start}. */
    public List<GraphPath> traverse(EntryRef start, Traversal traversal) {
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
