package dev.forge.memory.markdown.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.ConflictException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.GraphPath;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.Query;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StorageException;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.Traversal;
import dev.forge.memory.markdown.GitChanges;
import dev.forge.memory.markdown.GitStatus;
import dev.forge.memory.EntryRules;
import dev.forge.memory.support.EntryWrite;
import dev.forge.memory.support.GraphWalker;
import dev.forge.memory.Keys;
import dev.forge.memory.support.KeywordScorer;
import dev.forge.memory.support.files.AtomicFiles;
import dev.forge.memory.support.files.Interrupts;
import dev.forge.memory.support.files.StoreLock;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The markdown store of one provider: three directories of memory files (this project's, this session's, the global
 * one), indexed in memory and kept in step with the disk.
 *
 * <p>Every call first checks whether the disk moved on: each {@link Root}'s generation file (replaced by every
 * writer, in any process) and each directory's modification time (changed when a file is added, removed or renamed,
 * as most editors save). If so, the directory is scanned again, reading only new and changed files. A file edited in
 * place without a rename is seen by {@link #refresh()} and at the next open. Writers hold the root's
 * {@link StoreLock} and scan before they write, so that two processes never write two versions on one head.
 *
 * <p>One lock guards the index; calls of one provider run one at a time. Entries are kept in memory, so reads and
 * queries touch no file but the generation files; history and relations are read from the index too.
 */
public final class MarkdownStore {

    private static final Logger LOG = LoggerFactory.getLogger(MarkdownStore.class);

    /** The directory, under the project's memory directory, that holds one directory per session. */
    public static final String SESSION_DIRECTORY = "session";

    /** The directory, under the project's memory directory, of the version files in the layered layout. */
    public static final String LAYERED_VERSION_DIRECTORY = ".forge/versions";

    private final String provider;
    private final Clock clock;
    private final String sessionId;
    private final long maxFileSize;
    private final boolean fsync;
    private final Root projectRoot;
    private final Root globalRoot;
    private final Shelf projectShelf;
    private final Shelf sessionShelf;
    private final Shelf globalShelf;
    // The documents of the layered layout; null in the standard one.
    private final Documents documents;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile boolean closed;
    private GraphView graph;
    // The roots whose leftover temporary files this provider removed, at its first write to each.
    private final Set<Root> cleaned = new java.util.HashSet<>();

    private MarkdownStore(String provider, Clock clock, String sessionId, long maxFileSize, boolean fsync,
            Path projectDirectory, Path globalDirectory, boolean layered, GitOptions git) {
        this.provider = provider;
        this.clock = clock;
        this.sessionId = sessionId;
        this.maxFileSize = maxFileSize;
        this.fsync = fsync;
        this.projectRoot = new Root(projectDirectory, fsync, git, clock);
        this.globalRoot = new Root(globalDirectory, fsync, git, clock);
        Path versions = layered ? projectDirectory.resolve(LAYERED_VERSION_DIRECTORY) : projectDirectory;
        this.documents = layered ? new Documents(projectDirectory, maxFileSize) : null;
        this.projectShelf = new Shelf(Scope.PROJECT, versions, maxFileSize, documents);
        this.sessionShelf = new Shelf(Scope.SESSION,
                versions.resolve(SESSION_DIRECTORY).resolve(Keys.toFileName(sessionId)), maxFileSize);
        this.globalShelf = new Shelf(Scope.GLOBAL, globalDirectory, maxFileSize);
    }

    /**
     * Opens the store: reads every memory file of the three directories. Creates and locks nothing: temporary files
     * a crashed writer left are removed by this provider's first write, under the lock. With {@code git} on, opens
     * the directories' git repositories that exist (see {@link GitJournal}).
     *
     * @param layered whether the project directory has the layered layout: the version files in
     *                {@value #LAYERED_VERSION_DIRECTORY}, and the current value of each layered key (see
     *                {@link #isLayeredKey}) also in its document, {@code <projectDirectory>/<key>.md}
     * @throws ConfigurationException       if the project and global directories are the same
     * @throws BackendUnavailableException if a directory exists but cannot be read
     */
    public static MarkdownStore open(String provider, Clock clock, String sessionId, long maxFileSize, boolean fsync,
            Path projectDirectory, Path globalDirectory, boolean layered, GitOptions git) {
        if (projectDirectory.equals(globalDirectory) || projectDirectory.startsWith(globalDirectory)
                || globalDirectory.startsWith(projectDirectory)) {
            throw new ConfigurationException("The project memory directory " + projectDirectory + " and the global one "
                    + globalDirectory + " overlap, so PROJECT and GLOBAL memories would mix. Run in a project "
                    + "directory, or set 'path' or 'global_path' of the markdown provider to separate directories.");
        }
        MarkdownStore store = new MarkdownStore(provider, clock, sessionId, maxFileSize, fsync, projectDirectory,
                globalDirectory, layered, git);
        try {
            store.scan(store.projectRoot, store.projectShelf, store.sessionShelf);
            store.scan(store.globalRoot, store.globalShelf);
        } catch (IOException | RuntimeException e) {
            store.projectRoot.release();
            store.globalRoot.release();
            if (e instanceof MemoryException m) {
                throw m;
            }
            String why = Root.brokenLink(projectDirectory).or(() -> Root.brokenLink(globalDirectory))
                    .map(link -> link + "; a memory directory may be a link, but to a directory").orElse(e.toString());
            throw new BackendUnavailableException("Cannot read the markdown memories in " + projectDirectory + " or "
                    + globalDirectory + ": " + why + ". Check that the directories are readable.", e);
        }
        store.warnAboutFileProviderLayout();
        return store;
    }

    /** Removes the temporary files crashed writers left in the directories of {@code root}; holding its lock. */
    private void removeTemporaryFiles(Root root) throws IOException {
        for (Shelf shelf : root == globalRoot ? List.of(globalShelf) : List.of(projectShelf, sessionShelf)) {
            if (Files.isDirectory(shelf.directory())) {
                AtomicFiles.removeStaleTempFiles(shelf.directory());
            }
        }
    }

    /**
     * Removes what restores that crashed left in the directories of {@code root}, holding its lock: versions whose
     * head was never written, and versions a written head replaced. Readers ignore both already.
     */
    private void removeRestoreLeftovers(Root root) throws IOException {
        for (Shelf shelf : root == globalRoot ? List.of(globalShelf) : List.of(projectShelf, sessionShelf)) {
            List<IndexedFile> leftovers = shelf.restoreLeftovers();
            if (!leftovers.isEmpty()) {
                LOG.info("Removing {} memory files left by a restore that did not finish in {}", leftovers.size(),
                        shelf.directory());
                deleteFiles(root, shelf, leftovers);
            }
        }
    }

    private void warnAboutFileProviderLayout() {
        Path legacy = projectRoot.directory().resolve("project");
        if (Files.isDirectory(legacy, LinkOption.NOFOLLOW_LINKS)) {
            LOG.warn("{} holds a 'project' directory written by the file provider; the markdown provider does not read "
                    + "it. Set 'memory.provider: file' in .forge/config.yaml to keep using those memories.",
                    projectRoot.directory());
        }
    }

    /**
     * Whether {@code key} is a key of the layered layout, {@code projects/{project}/{file}},
     * {@code skills/{skill}/{project}/{file}}, {@code commands/{project}/{file}} or {@code agents/{agent}/{file}},
     * whose PROJECT value is also the document {@code <project directory>/<key>.md} in that layout.
     */
    public static boolean isLayeredKey(String key) {
        return LayeredPaths.isLayered(Objects.requireNonNull(key, "key"));
    }

    /** This project's memory directory. */
    public Path projectDirectory() {
        return projectRoot.directory();
    }

    /** The directory of this project's version files: the project directory, or its {@code .forge/versions}. */
    public Path versionDirectory() {
        return projectShelf.directory();
    }

    /** This session's memory directory. */
    public Path sessionDirectory() {
        return sessionShelf.directory();
    }

    /** The global memory directory. */
    public Path globalDirectory() {
        return globalShelf.directory();
    }

    // ---- plumbing

    /**
     * Fails if the store is closed.
     *
     * @throws BackendUnavailableException if it is
     */
    public void checkOpen() {
        if (closed) {
            throw new BackendUnavailableException("This " + provider + " provider is closed; open a new one.");
        }
    }

    /** Runs {@code work} holding the index lock, after bringing the index in step with the disk. */
    private <T> T locked(String what, Supplier<T> work) {
        checkOpen();
        return Interrupts.deferred(() -> {
            lock.lock();
            try {
                checkOpen();
                catchUp(what);
                return work.get();
            } finally {
                lock.unlock();
            }
        });
    }

    /**
     * Runs {@code work} holding the index lock and the lock of {@code root}, in step with the disk; with git on,
     * then commits the files it changed with the message {@code commit} makes of its result (or, if it failed part
     * way, with {@code what}), still holding the lock.
     */
    private <T> T writing(Root root, String what, Function<? super T, String> commit, IoWork<T> work) {
        return locked(what, () -> {
            try (StoreLock.Held held = root.exclusive()) {
                root.beginWrite();
                boolean first = cleaned.add(root);
                if (first) {
                    removeTemporaryFiles(root);
                }
                catchUp(what);
                if (first) {
                    removeRestoreLeftovers(root); // after the catch-up: found by reading the chains
                }
                T result;
                try {
                    result = work.run();
                } catch (IOException | RuntimeException e) {
                    root.endWrite(what + " (failed part way: " + e.getClass().getSimpleName() + ")");
                    throw e;
                }
                root.endWrite(commit.apply(result));
                return result;
            } catch (IOException e) {
                throw new StorageException("Cannot " + what + " in " + root.directory() + ": " + e + ". Check the "
                        + "directory's permissions and free space. A change of one file was not made; clear and "
                        + "purge may have been partly done (run them again).", e);
            }
        });
    }

    @FunctionalInterface
    private interface IoWork<T> {
        T run() throws IOException;
    }

    private void catchUp(String what) {
        try {
            boolean changed = catchUp(projectRoot, projectShelf, sessionShelf);
            changed |= catchUp(globalRoot, globalShelf);
            if (changed) {
                graph = null;
            }
        } catch (IOException e) {
            throw new BackendUnavailableException("Cannot " + what + ": the memory directories cannot be read ("
                    + e + "). Check that they exist and are readable.", e);
        }
    }

    /**
     * Scans what changed under {@code root}: every shelf when another writer announced a change, else the shelves
     * whose directory time moved (a person's edit). Scans hold the root's lock shared, because listing a directory
     * is no snapshot: a listing during a purge could miss the head and keep an older version.
     */
    private boolean catchUp(Root root, Shelf... shelves) throws IOException {
        boolean announced = root.changedGeneration() != null;
        if (!announced && java.util.Arrays.stream(shelves).noneMatch(Shelf::mayHaveChanged)) {
            return false;
        }
        try (StoreLock.Held held = root.sharedIfPresent()) {
            String generation = root.generation();
            boolean changed = false;
            for (Shelf shelf : shelves) {
                if (announced || shelf.mayHaveChanged()) {
                    changed |= shelf.scan();
                }
            }
            root.seen(generation);
            return changed;
        }
    }

    private void scan(Root root, Shelf... shelves) throws IOException {
        try (StoreLock.Held held = root.sharedIfPresent()) {
            String generation = root.generation();
            for (Shelf shelf : shelves) {
                shelf.scan();
            }
            root.seen(generation);
        }
    }

    /**
     * Scans every directory again, reading every file whose size or modification time changed: picks up files a
     * person edited in place while the store was open.
     */
    public void refresh() {
        locked("refresh the index", () -> {
            try {
                scan(projectRoot, projectShelf, sessionShelf);
                scan(globalRoot, globalShelf);
            } catch (IOException e) {
                throw new BackendUnavailableException("Cannot refresh the markdown memories: " + e + ".", e);
            }
            graph = null;
            return null;
        });
    }

    private Shelf shelf(Scope scope) {
        return switch (Objects.requireNonNull(scope, "scope")) {
            case SESSION -> sessionShelf;
            case PROJECT -> projectShelf;
            case GLOBAL -> globalShelf;
        };
    }

    private Root root(Scope scope) {
        return scope == Scope.GLOBAL ? globalRoot : projectRoot;
    }

    private static Optional<MemoryEntry> live(Chain chain) {
        return chain != null && chain.live() ? Optional.of(chain.head().entry()) : Optional.empty();
    }

    private Instant now() {
        return clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    }

    /** A key as commit messages name it: {@code project build-tool}. */
    private static String named(Scope scope, String key) {
        return scope.id() + " " + key;
    }

    private static String named(EntryRef ref) {
        return named(ref.scope(), ref.key());
    }

    private static String memories(int count) {
        return count + (count == 1 ? " memory" : " memories");
    }

    /** Writes a new version file into {@code shelf}, announces it and indexes it. */
    private IndexedFile create(Root root, Shelf shelf, MemoryFile file) throws IOException {
        AtomicFiles.createDirectories(shelf.directory(), fsync);
        Path path = shelf.directory().resolve(file.id() + ".md");
        try {
            AtomicFiles.create(shelf.directory(), path, MemoryFileCodec.serialize(file), fsync);
        } catch (FileAlreadyExistsException e) {
            throw new StorageException("A memory file named " + path.getFileName() + " exists already; ids are never "
                    + "reused, so nothing was written. Try again.", e);
        }
        return indexWritten(root, shelf, path, file);
    }

    /** Replaces a file in place (relations changed), announces it and indexes it. */
    private IndexedFile rewrite(Root root, Shelf shelf, IndexedFile old, MemoryFile file) throws IOException {
        AtomicFiles.write(shelf.directory(), old.path(), MemoryFileCodec.serialize(file), fsync);
        return indexWritten(root, shelf, old.path(), file);
    }

    /**
     * Indexes a file just written and announces it. The file is in place, so nothing after this fails the call: a
     * caller that retried would write a second version.
     */
    private IndexedFile indexWritten(Root root, Shelf shelf, Path path, MemoryFile file) {
        root.changed(path);
        try {
            root.bump();
        } catch (IOException e) {
            LOG.warn("Cannot announce a change in {} ({}); other providers see it when they next scan", root.directory(),
                    e.toString());
        }
        long size = -1;
        java.nio.file.attribute.FileTime modified = java.nio.file.attribute.FileTime.fromMillis(0);
        try {
            BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            size = attributes.size();
            modified = attributes.lastModifiedTime();
        } catch (IOException e) {
            LOG.debug("Cannot read the attributes of {}; it is read again at the next scan", path, e);
        }
        IndexedFile indexed = new IndexedFile(path, size, modified, file, Entries.toEntry(file, shelf.scope()));
        shelf.put(indexed);
        shelf.directoryScanned(shelf.currentDirectoryModified());
        graph = null;
        return indexed;
    }

    // ---- documents of the layered layout

    /** Whether writes of {@code key} in {@code scope} change its document first. */
    private boolean documented(Scope scope, String key) {
        return documents != null && scope == Scope.PROJECT && LayeredPaths.isLayered(key);
    }

    /**
     * Records in the chain the version that {@code key} shows from its document (an edit or a removal by another
     * tool, a document nothing wrote yet), so that the history keeps it under the write that follows.
     */
    private void settle(Root root, Shelf shelf, String key) throws IOException {
        if (!shelf.showsDocument(key)) {
            return;
        }
        IndexedFile shown = shelf.chain(key).head();
        MemoryFile file = shown.file().tombstone()
                ? Entries.tombstone(shelf.storedChain(key).head().file(), VersionIds.newId(key), now(), sessionId)
                : Entries.toFile(shown.entry(), VersionIds.newId(key), shown.file().supersedes(),
                        shown.file().related(), sessionId, shown.file().extra());
        create(root, shelf, file);
    }

    /**
     * Writes ({@code value} present) or removes the document of {@code key}, then runs {@code chainWrite}; if that
     * fails, puts the document back as it was. A crash in between leaves the document ahead of the chain, which
     * then shows it as the next version: the write in flight shows early, nothing is lost.
     */
    private <T> T documentFirst(Shelf shelf, String key, Optional<String> value, IoWork<T> chainWrite)
            throws IOException {
        Optional<String> before = documents.document(key).map(Documents.Document::value);
        changeDocument(shelf, key, value);
        try {
            return chainWrite.run();
        } catch (IOException | RuntimeException e) {
            try {
                changeDocument(shelf, key, before);
            } catch (IOException | RuntimeException undo) {
                e.addSuppressed(undo);
            }
            throw e;
        }
    }

    private void changeDocument(Shelf shelf, String key, Optional<String> value) throws IOException {
        try {
            if (value.isPresent()) {
                AtomicFiles.createDirectories(shelf.directory(), fsync);
                documents.write(key, value.get(), shelf.directory(), fsync);
            } else {
                documents.delete(key, fsync);
            }
        } finally {
            projectRoot.changed(documents.root().resolve(key + LayeredPaths.SUFFIX));
            shelf.documentChanged(key);
            graph = null;
        }
    }

    // ---- entries

    /** The entry of {@code key} in {@code scope}, if live. */
    public Optional<MemoryEntry> get(String key, Scope scope) {
        Keys.validate(key);
        Shelf shelf = shelf(scope);
        String what = "read key '" + Keys.abbreviate(key) + "'";
        return locked(what, () -> {
            shelf.recheckUnreadable(key);
            shelf.requireReadableHead(key, what);
            return live(shelf.chain(key));
        });
    }

    /** Appends a version of the key; see {@link dev.forge.memory.MemoryProvider#set}. */
    public MemoryEntry set(EntryWrite write) {
        Shelf shelf = shelf(write.scope());
        String key = write.key();
        String what = "write key '" + Keys.abbreviate(key) + "'";
        boolean documented = documented(write.scope(), key);
        return writing(root(write.scope()), what,
                entry -> "set " + named(write.scope(), key) + " (v" + entry.version() + ")", () -> {
            shelf.recheck(key);
            shelf.requireReadableHead(key, what);
            if (documented) {
                settle(root(write.scope()), shelf, key);
            }
            Chain chain = shelf.chain(key);
            Instant now = now();
            MemoryEntry entry;
            List<RelatedItem> related = List.of();
            Map<String, Object> extra = Map.of();
            Optional<String> category = Optional.empty();
            if (chain != null && chain.live()) {
                entry = write.toEntry(Optional.of(chain.head().entry()), now);
                related = chain.head().file().related();
                extra = chain.head().file().extra();
            } else {
                MemoryEntry fresh = write.toEntry(Optional.empty(), now);
                long version = chain == null ? 1 : chain.head().file().version() + 1;
                entry = new MemoryEntry(key, fresh.value(), fresh.scope(), fresh.tags(), fresh.metadata(),
                        fresh.createdAt(), fresh.updatedAt(), version);
            }
            MemoryFile file = Entries.toFile(entry, VersionIds.newId(key),
                    chain == null ? Optional.empty() : Optional.of(chain.head().id()), related, sessionId, extra);
            if (documented) {
                return documentFirst(shelf, key, Optional.of(entry.value()),
                        () -> create(root(write.scope()), shelf, file).entry());
            }
            return create(root(write.scope()), shelf, file).entry();
        });
    }

    /** Writes a tombstone for a live key; see {@link dev.forge.memory.MemoryProvider#delete}. */
    public boolean delete(String key, Scope scope) {
        Keys.validate(key);
        Shelf shelf = shelf(scope);
        Root root = root(scope);
        String what = "delete key '" + Keys.abbreviate(key) + "'";
        if (!locked(what, () -> {
            shelf.recheckUnreadable(key);
            shelf.requireReadableHead(key, what);
            return live(shelf.chain(key)).isPresent();
        })) {
            return false; // nothing to do: take no lock, create no directory
        }
        boolean documented = documented(scope, key);
        return writing(root, what, deleted -> "delete " + named(scope, key), () -> {
            shelf.recheck(key);
            shelf.requireReadableHead(key, what);
            if (documented) {
                settle(root, shelf, key);
            }
            Chain chain = shelf.chain(key);
            if (chain == null || !chain.live()) {
                return false;
            }
            MemoryFile tombstone = Entries.tombstone(chain.head().file(), VersionIds.newId(key), now(), sessionId);
            if (documented) {
                documentFirst(shelf, key, Optional.empty(), () -> create(root, shelf, tombstone));
            } else {
                create(root, shelf, tombstone);
            }
            return true;
        });
    }

    /** Writes a tombstone for every live key of the scope; see {@link dev.forge.memory.MemoryProvider#clear}. */
    public int clear(Scope scope) {
        Shelf shelf = shelf(scope);
        Root root = root(scope);
        String what = "clear the " + scope.name().toLowerCase(Locale.ROOT) + " memories";
        if (!locked(what, () -> shelf.chains().stream().anyMatch(Chain::live))) {
            return 0;
        }
        return writing(root, what, count -> "clear " + scope.id() + " (" + memories(count) + ")", () -> {
            if (documents != null && scope == Scope.PROJECT) {
                // Documents edited in place since the last scan are recorded, not lost.
                java.util.Set<String> keys = new java.util.TreeSet<>(documents.keys());
                shelf.chains().stream().map(Chain::key).filter(LayeredPaths::isLayered).forEach(keys::add);
                for (String key : keys) {
                    shelf.recheck(key);
                    if (shelf.unreadableHead(key).isEmpty()) { // else left as it is, for a person to repair
                        settle(root, shelf, key);
                    }
                }
            }
            List<Chain> live = shelf.chains().stream().filter(Chain::live).toList();
            Instant now = now();
            for (Chain chain : live) {
                MemoryFile tombstone = Entries.tombstone(chain.head().file(), VersionIds.newId(chain.key()), now, sessionId);
                if (documented(scope, chain.key())) {
                    documentFirst(shelf, chain.key(), Optional.empty(), () -> create(root, shelf, tombstone));
                } else {
                    create(root, shelf, tombstone);
                }
            }
            return live.size();
        });
    }

    /**
     * Replaces the key's versions with {@code chain} (checked by {@link EntryRules#checkChain}); see
     * {@link dev.forge.memory.Restoring#restore}.
     *
     * <p>Holding the root's lock, it writes the older versions first, each marked {@code committed_by} the head that
     * is not written yet, so that readers (a person, a provider opened after a crash) ignore them; then the head,
     * whose {@code replaces} names the versions of the old line: writing that one file is the switch from the old
     * line to the new one. Then it clears the marks and removes the old files. A crash before the switch leaves the
     * key as it was, after it the restored key; either way the next write removes what is left over. The head takes
     * the old head's relations, and its {@code replaces} keeps relations by id that reached the old line reaching
     * the key (in other sessions and projects too, whose files this provider cannot see).
     *
     * @throws dev.forge.memory.InvalidEntryException if a version cannot be written to a file (a timestamp outside
     *                                                the years 0000 to 9999, a body UTF-8 cannot encode)
     */
    public MemoryEntry restore(List<MemoryEntry> chain) {
        MemoryEntry current = chain.get(chain.size() - 1);
        String key = current.key();
        Shelf shelf = shelf(current.scope());
        Root root = root(current.scope());
        String what = "restore key '" + Keys.abbreviate(key) + "'";
        boolean documented = documented(current.scope(), key);
        return writing(root, what,
                head -> "restore " + named(current.scope(), key) + " (" + chain.size() + " versions)", () -> {
            shelf.recheck(key);
            shelf.requireReadableHead(key, what);
            if (documented) {
                settle(root, shelf, key);
            }
            Chain old = shelf.chain(key);
            List<IndexedFile> oldFiles = new ArrayList<>(shelf.unfinished(key));
            if (old != null) {
                oldFiles.addAll(ordered(old));
            }
            List<MemoryFile> files = restoredFiles(chain, old);
            List<IndexedFile> written = new ArrayList<>();
            IoWork<IndexedFile> toSwitch = () -> {
                try {
                    for (MemoryFile file : files.subList(0, files.size() - 1)) {
                        written.add(create(root, shelf, file));
                    }
                    return create(root, shelf, files.get(files.size() - 1));
                } catch (IOException | RuntimeException e) {
                    discard(root, shelf, written, e);
                    throw e;
                }
            };
            IndexedFile head = documented
                    ? documentFirst(shelf, key, Optional.of(current.value()), toSwitch) : toSwitch.run();
            // Switched: the key is restored whatever happens next, and leftovers are removed by the next write.
            try {
                for (IndexedFile file : written) {
                    rewrite(root, shelf, file, Entries.committed(file.file()));
                }
                deleteFiles(root, shelf, oldFiles);
            } catch (IOException e) {
                LOG.warn("Restored key '{}' in {}, but could not tidy up after it ({}); the next write does",
                        Keys.abbreviate(key), shelf.directory(), e.toString());
            }
            return head.entry();
        });
    }

    /** The files of a restored chain, oldest first, checked to be writable before anything is written. */
    private List<MemoryFile> restoredFiles(List<MemoryEntry> chain, Chain old) {
        String key = chain.get(0).key();
        String headId = VersionIds.newId(key);
        List<RelatedItem> related = List.of();
        java.util.LinkedHashSet<String> replaces = new java.util.LinkedHashSet<>();
        if (old != null) {
            replaces.add(old.head().id());
            if (old.live()) {
                // Relations to a deleted key stay gone, as after any deletion; those of a live one stay with it.
                related = old.head().file().related();
                for (IndexedFile version : old.line()) {
                    if (old.reaches(version.id())) {
                        replaces.add(version.id());
                        replaces.addAll(version.file().replaces());
                    }
                }
            }
        }
        List<MemoryFile> files = new ArrayList<>(chain.size());
        Optional<String> previous = Optional.empty();
        try {
            for (int i = 0; i < chain.size(); i++) {
                boolean last = i == chain.size() - 1;
                String id = last ? headId : VersionIds.newId(key);
                MemoryFile file = Entries.toFile(chain.get(i), id, previous, last ? related : List.of(), sessionId,
                        last ? List.copyOf(replaces) : List.of(), last ? Optional.empty() : Optional.of(headId), Map.of());
                MemoryFileCodec.serialize(file);
                files.add(file);
                previous = Optional.of(id);
            }
        } catch (IllegalArgumentException e) {
            throw new InvalidEntryException("Cannot restore key '" + Keys.abbreviate(chain.get(0).key()) + "': "
                    + e.getMessage() + ". Nothing was written.", e);
        }
        return files;
    }

    /** Removes the versions a failed restore wrote before its switch; readers ignore them anyway. */
    private void discard(Root root, Shelf shelf, List<IndexedFile> written, Exception failure) {
        try {
            deleteFiles(root, shelf, written);
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /** Removes every file of the key; see {@link dev.forge.memory.VersionHistory#purge(String, Scope)}. */
    public boolean purge(String key, Scope scope) {
        Keys.validate(key);
        Shelf shelf = shelf(scope);
        Root root = root(scope);
        String what = "purge key '" + Keys.abbreviate(key) + "'";
        if (!locked(what, () -> {
            shelf.recheckUnreadable(key);
            shelf.requireReadableHead(key, what);
            return shelf.chain(key) != null;
        })) {
            return false;
        }
        return writing(root, what, purged -> "purge " + named(scope, key), () -> {
            shelf.recheck(key);
            shelf.requireReadableHead(key, what);
            if (shelf.chain(key) == null) {
                return false;
            }
            if (documented(scope, key)) {
                changeDocument(shelf, key, Optional.empty());
            }
            Chain stored = shelf.storedChain(key);
            removeFiles(root, shelf, stored == null ? List.of() : List.of(stored));
            return true;
        });
    }

    /** Removes every file of every key of the scope; see {@link dev.forge.memory.VersionHistory#purge(Scope)}. */
    public int purge(Scope scope) {
        Shelf shelf = shelf(scope);
        Root root = root(scope);
        String what = "purge the " + scope.name().toLowerCase(Locale.ROOT) + " memories";
        if (!locked(what, () -> !shelf.chains().isEmpty())) {
            return 0;
        }
        return writing(root, what, count -> "purge " + scope.id() + " (" + count + (count == 1 ? " key)" : " keys)"),
                () -> {
            List<Chain> chains = List.copyOf(shelf.chains());
            for (Chain chain : chains) {
                if (documented(scope, chain.key())) {
                    changeDocument(shelf, chain.key(), Optional.empty());
                }
            }
            List<Chain> stored = new ArrayList<>();
            for (Chain chain : shelf.storedChains()) {
                if (shelf.unreadableHead(chain.key()).isEmpty()) {
                    stored.add(chain);
                } else {
                    LOG.warn("Purging the {} memories leaves the files of a key whose current version cannot be read "
                            + "in {}, for a person to repair (see doctor)", scope.id(), shelf.directory());
                }
            }
            removeFiles(root, shelf, stored);
            return chains.size();
        });
    }

    /** Removes this session's files and its directory. */
    public int endSession() {
        boolean anything = locked("end the session",
                () -> !sessionShelf.chains().isEmpty() || Files.exists(sessionShelf.directory()));
        if (!anything) {
            return 0;
        }
        return writing(projectRoot, "end the session",
                count -> "end session " + sessionId + " (" + memories(count) + ")", () -> {
            List<Chain> chains = List.copyOf(sessionShelf.chains());
            int live = (int) chains.stream().filter(Chain::live).count();
            removeFiles(projectRoot, sessionShelf, chains);
            // Unreadable files and leftovers of the session go too: the directory is this session's alone.
            AtomicFiles.deleteTree(sessionShelf.directory());
            projectRoot.changed(sessionShelf.directory());
            sessionShelf.scan();
            return live;
        });
    }

    private void removeFiles(Root root, Shelf shelf, List<Chain> chains) throws IOException {
        List<IndexedFile> files = new ArrayList<>();
        for (Chain chain : chains) {
            files.addAll(shelf.unfinished(chain.key()));
            files.addAll(ordered(chain));
        }
        deleteFiles(root, shelf, files);
    }

    /**
     * Every file of {@code chain}: off-chain files first, then the line oldest first and the head last, so that a
     * reader (or a crash) part way through a removal sees the key as it was, never an older version as its head.
     */
    private static List<IndexedFile> ordered(Chain chain) {
        List<IndexedFile> order = new ArrayList<>(chain.members());
        order.removeAll(chain.line());
        order.addAll(chain.line());
        return order;
    }

    /** Deletes {@code files} in this order, forgets them and announces it. */
    private void deleteFiles(Root root, Shelf shelf, List<IndexedFile> files) throws IOException {
        if (files.isEmpty()) {
            return;
        }
        List<String> names = new ArrayList<>();
        try {
            for (IndexedFile file : files) {
                try {
                    Files.delete(file.path());
                } catch (NoSuchFileException e) {
                    // removed by hand meanwhile: gone all the same
                }
                names.add(file.name());
                root.changed(file.path());
            }
            if (fsync) {
                AtomicFiles.syncDirectory(shelf.directory());
            }
        } finally {
            if (!names.isEmpty()) {
                shelf.remove(names);
                shelf.directoryScanned(shelf.currentDirectoryModified());
                graph = null;
                root.bump();
            }
        }
    }

    private List<MemoryEntry> candidates(Set<Scope> scopes) {
        List<MemoryEntry> entries = new ArrayList<>();
        for (Scope scope : scopes) {
            for (Chain chain : shelf(scope).chains()) {
                if (chain.live()) {
                    entries.add(chain.head().entry());
                }
            }
        }
        return entries;
    }

    /** The entries a query selects. */
    public List<MemoryEntry> query(Query query) {
        Objects.requireNonNull(query, "query");
        return locked("query", () -> query.apply(candidates(query.scopes())));
    }

    /** Keyword search. */
    public List<Hit> search(SearchRequest request) {
        Objects.requireNonNull(request, "request");
        return locked("search", () -> KeywordScorer.rank(request, candidates(request.scopes())));
    }

    /** The versions of a key, oldest first, tombstones left out. */
    public List<MemoryEntry> versions(String key, Scope scope) {
        Keys.validate(key);
        Shelf shelf = shelf(scope);
        String what = "read the history of key '" + Keys.abbreviate(key) + "'";
        return locked(what, () -> {
            shelf.recheckUnreadable(key);
            shelf.requireReadableHead(key, what);
            Chain chain = shelf.chain(key);
            if (chain == null) {
                return List.of();
            }
            List<MemoryEntry> versions = new ArrayList<>();
            for (IndexedFile version : chain.line()) {
                MemoryEntry entry = version.file().tombstone() ? null : shelf.entryOf(version);
                if (entry != null) {
                    versions.add(entry);
                }
            }
            return List.copyOf(versions);
        });
    }

    /**
     * The current entry of the key that version {@code id} belongs to, found from any version of it, in any of the
     * three directories; empty if no such version is indexed or the key is deleted now.
     */
    public Optional<MemoryEntry> latestVersion(String id) {
        Objects.requireNonNull(id, "id");
        return locked("find the latest version of " + id, () -> {
            for (Shelf shelf : List.of(sessionShelf, projectShelf, globalShelf)) {
                IndexedFile file = shelf.holder(id);
                if (file != null) {
                    shelf.requireReadableHead(file.file().key(), "find the latest version of " + id);
                    return live(shelf.chain(file.file().key()));
                }
            }
            return Optional.<MemoryEntry>empty();
        });
    }

    // ---- relations

    /** Relates two live entries; see {@link dev.forge.memory.MemoryGraph#relate}. */
    public Relation relate(EntryRef from, EntryRef to, String type) {
        EntryRules.checkRelationType(type);
        Keys.validate(from.key());
        Keys.validate(to.key());
        Shelf shelf = shelf(from.scope());
        Root root = root(from.scope());
        String what = "relate " + from + " to " + to;
        if (root(to.scope()) != root && documented(to.scope(), to.key())) {
            // The target's document may show a version no file holds yet, which a relation by id cannot name.
            writing(projectRoot, what, settled -> "record the document of " + named(to) + " as a version", () -> {
                projectShelf.recheck(to.key());
                projectShelf.requireReadableHead(to.key(), what);
                settle(projectRoot, projectShelf, to.key());
                return null;
            });
        }
        return writing(root, what, relation -> "relate " + named(from) + " -" + type + "-> " + named(to), () -> {
            shelf.recheck(from.key());
            shelf(to.scope()).recheck(to.key());
            shelf.requireReadableHead(from.key(), what);
            shelf(to.scope()).requireReadableHead(to.key(), what);
            settle(root, shelf, from.key());
            if (root(to.scope()) == root) {
                settle(root, shelf(to.scope()), to.key());
            }
            Chain source = shelf.chain(from.key());
            Chain target = shelf(to.scope()).chain(to.key());
            requireLive(source, from, from, to);
            requireLive(target, to, from, to);
            if (shelf(to.scope()).showsDocument(to.key())) {
                throw new ConflictException("Cannot relate " + from + " to " + to + ": another tool changed the "
                        + "target's document meanwhile. Nothing was written. Try again.");
            }
            for (RelatedItem item : source.head().file().related()) {
                if (type.equals(GraphView.relationType(item.relationship())) && to.equals(resolve(item, shelf).orElse(null))) {
                    return new Relation(from, type, to, item.createdAt().orElse(source.head().file().updatedAt()));
                }
            }
            Instant now = now();
            MemoryFile head = source.head().file();
            List<RelatedItem> related = new ArrayList<>(head.related());
            related.add(new RelatedItem(Optional.of(target.head().id()), Optional.empty(), Optional.empty(), type,
                    Optional.of(now), Map.of()));
            rewrite(root, shelf, source.head(), Entries.withRelated(head, related));
            return new Relation(from, type, to, now);
        });
    }

    private static void requireLive(Chain chain, EntryRef end, EntryRef from, EntryRef to) {
        if (chain == null || !chain.live()) {
            throw new EntryNotFoundException("Cannot relate " + from + " to " + to + ": " + end
                    + " does not exist. Store it first.");
        }
    }

    /** Removes a relation; see {@link dev.forge.memory.MemoryGraph#unrelate}. */
    public boolean unrelate(EntryRef from, EntryRef to, String type) {
        EntryRules.checkRelationType(type);
        Keys.validate(from.key());
        Keys.validate(to.key());
        Shelf shelf = shelf(from.scope());
        Root root = root(from.scope());
        return writing(root, "unrelate " + from + " from " + to,
                removed -> "unrelate " + named(from) + " -" + type + "-> " + named(to), () -> {
            shelf.recheck(from.key());
            shelf.requireReadableHead(from.key(), "unrelate " + from + " from " + to);
            settle(root, shelf, from.key());
            Chain source = shelf.chain(from.key());
            if (source == null || !source.live()) {
                return false;
            }
            MemoryFile head = source.head().file();
            List<RelatedItem> kept = new ArrayList<>();
            for (RelatedItem item : head.related()) {
                boolean match = type.equals(GraphView.relationType(item.relationship()))
                        && to.equals(resolve(item, shelf).orElse(null));
                if (!match) {
                    kept.add(item);
                }
            }
            if (kept.size() == head.related().size()) {
                return false;
            }
            rewrite(root, shelf, source.head(), Entries.withRelated(head, kept));
            return true;
        });
    }

    /** The relations of an entry; see {@link dev.forge.memory.MemoryGraph#relations}. */
    public List<Relation> relations(EntryRef entry, Direction direction) {
        Objects.requireNonNull(direction, "direction");
        Keys.validate(entry.key());
        return locked("read relations", () -> graph().relations(entry, direction));
    }

    /** Walks the relations; see {@link dev.forge.memory.MemoryGraph#traverse}. */
    public List<GraphPath> traverse(EntryRef start, Traversal traversal) {
        Objects.requireNonNull(traversal, "traversal");
        Keys.validate(start.key());
        return locked("traverse relations", () -> {
            if (live(shelf(start.scope()).readableChain(start.key())).isEmpty()) {
                return List.of();
            }
            GraphView view = graph();
            return GraphWalker.traverse(start, traversal, view::relations);
        });
    }

    /** Where a related item points, if it reaches a live entry this provider can see. */
    private Optional<EntryRef> resolve(RelatedItem item, Shelf from) {
        if (item.id().isPresent()) {
            String id = item.id().get();
            for (Shelf shelf : List.of(sessionShelf, projectShelf, globalShelf)) {
                IndexedFile file = shelf.holder(id);
                if (file != null) {
                    Chain chain = shelf.readableChain(file.file().key());
                    return chain != null && chain.reaches(file.id())
                            ? Optional.of(new EntryRef(file.file().key(), shelf.scope())) : Optional.empty();
                }
            }
            return Optional.empty();
        }
        if (item.key().isEmpty()) {
            return Optional.empty();
        }
        Scope scope = from.scope();
        if (item.scope().isPresent()) {
            Optional<Scope> named = Entries.scope(item.scope().get());
            if (named.isEmpty()) {
                return Optional.empty();
            }
            scope = named.get();
        }
        String key = item.key().get();
        return live(shelf(scope).readableChain(key)).map(MemoryEntry::ref);
    }

    private GraphView graph() {
        if (graph == null) {
            Map<EntryRef, List<Relation>> outgoing = new HashMap<>();
            List<StoreProblem> problems = new ArrayList<>();
            for (Shelf shelf : List.of(sessionShelf, projectShelf, globalShelf)) {
                for (Chain chain : shelf.chains()) {
                    if (!chain.live()) {
                        continue;
                    }
                    IndexedFile head = chain.head();
                    EntryRef from = head.entry().ref();
                    Map<String, Relation> unique = new LinkedHashMap<>();
                    for (RelatedItem item : head.file().related()) {
                        String type = GraphView.relationType(item.relationship());
                        if (type == null) {
                            problems.add(new StoreProblem(head.path().toString(), "relationship '"
                                    + item.relationship() + "' is not a relation type (a letter, then letters, digits, "
                                    + "'_' or '-'); the relation is ignored"));
                            continue;
                        }
                        Optional<EntryRef> to = resolve(item, shelf);
                        if (to.isEmpty()) {
                            continue; // deleted, purged, or not visible from this project and session
                        }
                        Relation relation = new Relation(from, type, to.get(),
                                item.createdAt().orElse(head.file().updatedAt()));
                        unique.putIfAbsent(type + "\u0000" + to.get().scope() + "\u0000" + to.get().key(), relation);
                    }
                    if (!unique.isEmpty()) {
                        outgoing.put(from, List.copyOf(unique.values()));
                    }
                }
            }
            graph = new GraphView(outgoing, problems);
        }
        return graph;
    }

    // ---- health

    /** Everything wrong with the files, after a full rescan. */
    public List<StoreProblem> doctor() {
        refresh();
        return locked("check the memories", () -> {
            List<StoreProblem> problems = new ArrayList<>();
            for (Shelf shelf : List.of(projectShelf, sessionShelf, globalShelf)) {
                problems.addAll(shelf.problems());
            }
            problems.addAll(graph().problems().stream()
                    .sorted(java.util.Comparator.comparing(StoreProblem::location).thenComparing(StoreProblem::problem))
                    .toList());
            projectRoot.gitProblem().ifPresent(problems::add);
            globalRoot.gitProblem().ifPresent(problems::add);
            return List.copyOf(problems);
        });
    }

    // ---- git

    /** Whether writes are committed to git, for the project directory and the global one. */
    public List<GitStatus> gitStatus() {
        return List.of(projectRoot.gitStatus(), globalRoot.gitStatus());
    }

    /** What other tools changed in the repositories since the store opened; empty when git is off for both. */
    public Optional<GitChanges> gitChanges() {
        return locked("look for changes in git", () -> {
            List<GitChanges.Directory> directories = new ArrayList<>();
            projectRoot.gitChanges().ifPresent(directories::add);
            globalRoot.gitChanges().ifPresent(directories::add);
            return directories.isEmpty() ? Optional.<GitChanges>empty() : Optional.of(new GitChanges(directories));
        });
    }

    /** Closes the store: releases the locks; later calls fail with {@link BackendUnavailableException}. */
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            projectRoot.release();
            globalRoot.release();
        } finally {
            lock.unlock();
        }
    }

    /** Whether the store is closed. */
    public boolean isClosed() {
        return closed;
    }
}
