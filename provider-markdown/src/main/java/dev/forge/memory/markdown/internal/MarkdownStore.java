package dev.forge.memory.markdown.internal;

import dev.forge.memory.support.EntryStore;
import static dev.forge.memory.markdown.internal.CommitMessages.memories;
import static dev.forge.memory.markdown.internal.CommitMessages.named;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.EntryRules;
import dev.forge.memory.GraphPath;
import dev.forge.memory.Hit;
import dev.forge.memory.Keys;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.Query;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.Traversal;
import dev.forge.memory.markdown.GitChanges;
import dev.forge.memory.markdown.GitStatus;
import dev.forge.memory.support.EntryWrite;
import dev.forge.memory.support.KeywordScorer;
import dev.forge.memory.support.SearchText;
import dev.forge.memory.support.files.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
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
 * {@link dev.forge.memory.support.files.StoreLock} and scan before they write, so that two processes never write two
 * versions on one head ({@link StoreAccess}).
 *
 * <p>One lock guards the index; calls of one provider run one at a time. Entries are kept in memory, so reads and
 * queries touch no file but the generation files; history and relations are read from the index too. This class
 * holds the entries' reads and writes; {@link VersionFiles} writes the files, {@link LayeredDocuments} the documents
 * of the layered layout, {@link RelationFiles} the relations and {@link ChainRestore} restores.
 */
public final class MarkdownStore implements EntryStore {

    private static final Logger LOG = LoggerFactory.getLogger(MarkdownStore.class);

    /** The directory, under the project's memory directory, that holds one directory per session. */
    public static final String SESSION_DIRECTORY = "session";

    /** The directory, under the project's memory directory, of the version files in the layered layout. */
    public static final String LAYERED_VERSION_DIRECTORY = ".forge/versions";

    private final String sessionId;
    private final Shelves shelves;
    private final VersionFiles files;
    private final LayeredDocuments documents;
    private final StoreAccess access;
    private final RelationFiles relations;
    private final ChainRestore restores;

    private MarkdownStore(String provider, Clock clock, String sessionId, long maxFileSize, boolean fsync,
            Path projectDirectory, Path globalDirectory, boolean layered, GitOptions git) {
        this.sessionId = sessionId;
        this.shelves = new Shelves(projectDirectory, globalDirectory, layered, sessionId, maxFileSize, fsync, git, clock);
        this.files = new VersionFiles(shelves, clock, sessionId, fsync);
        this.documents = new LayeredDocuments(shelves, files);
        this.access = new StoreAccess(provider, shelves, files);
        this.relations = new RelationFiles(access, shelves, files, documents);
        this.restores = new ChainRestore(access, shelves, files, documents);
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
            store.access.scanAll();
        } catch (IOException | RuntimeException e) {
            store.shelves.projectRoot.release();
            store.shelves.globalRoot.release();
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

    private void warnAboutFileProviderLayout() {
        Path legacy = shelves.projectRoot.directory().resolve("project");
        if (Files.isDirectory(legacy, LinkOption.NOFOLLOW_LINKS)) {
            LOG.warn("{} holds a 'project' directory written by the file provider; the markdown provider does not read "
                    + "it. Set 'memory.provider: file' in .forge/config.yaml to keep using those memories.",
                    shelves.projectRoot.directory());
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

    /** How many memory files this store read since it opened (documents of the layered layout not counted). */
    public long filesRead() {
        return shelves.project.filesRead() + shelves.session.filesRead() + shelves.global.filesRead();
    }

    /** This project's memory directory. */
    public Path projectDirectory() {
        return shelves.projectRoot.directory();
    }

    /** The directory of this project's version files: the project directory, or its {@code .forge/versions}. */
    public Path versionDirectory() {
        return shelves.project.directory();
    }

    /** This session's memory directory. */
    public Path sessionDirectory() {
        return shelves.session.directory();
    }

    /** The global memory directory. */
    public Path globalDirectory() {
        return shelves.global.directory();
    }

    /**
     * Fails if the store is closed.
     *
     * @throws BackendUnavailableException if it is
     */
    public void checkOpen() {
        access.checkOpen();
    }

    /**
     * Scans every directory again, reading every file whose size or modification time changed: picks up files a
     * person edited in place while the store was open.
     */
    public void refresh() {
        access.refresh();
    }

    // ---- entries

    /** The entry of {@code key} in {@code scope}, if live. */
    public Optional<MemoryEntry> get(String key, Scope scope) {
        Keys.validate(key);
        Shelf shelf = shelves.shelf(scope);
        String what = "read key '" + Keys.abbreviate(key) + "'";
        return access.locked(what, shelf, key, () -> {
            shelf.recheckUnreadable(key);
            shelf.requireReadableHead(key, what);
            return Shelves.live(shelf.chain(key));
        });
    }

    /** Appends a version of the key; see {@link dev.forge.memory.MemoryProvider#set}. */
    public MemoryEntry set(EntryWrite write) {
        Shelf shelf = shelves.shelf(write.scope());
        Root root = shelves.root(write.scope());
        String key = write.key();
        String what = "write key '" + Keys.abbreviate(key) + "'";
        boolean documented = shelves.documented(write.scope(), key);
        return access.writing(root, what, shelf, key,
                entry -> "set " + named(write.scope(), key) + " (v" + entry.version() + ")", () -> {
            shelf.recheck(key);
            shelf.requireReadableHead(key, what);
            if (documented) {
                documents.settle(root, shelf, key);
            }
            Chain chain = shelf.chain(key);
            Instant now = files.now();
            MemoryEntry entry;
            List<RelatedItem> related = List.of();
            Map<String, Object> extra = Map.of();
            if (chain != null && chain.live()) {
                entry = write.toEntry(Optional.of(chain.headEntry()), now);
                related = chain.head().file().related();
                extra = chain.head().file().extra();
            } else {
                MemoryEntry fresh = write.toEntry(Optional.empty(), now);
                long version = chain == null ? 1 : chain.headVersion() + 1;
                entry = new MemoryEntry(key, fresh.value(), fresh.scope(), fresh.tags(), fresh.metadata(),
                        fresh.createdAt(), fresh.updatedAt(), version);
            }
            MemoryFile next = Entries.toFile(entry, VersionIds.newId(key),
                    chain == null ? Optional.empty() : Optional.of(chain.head().id()), related, sessionId, extra);
            MemoryFile file = chain == null ? next : Entries.continuing(next, chain.head().file());
            if (documented) {
                return documents.documentFirst(shelf, key, Optional.of(entry.value()),
                        () -> files.create(root, shelf, file).entry());
            }
            return files.create(root, shelf, file).entry();
        });
    }

    /** Writes a tombstone for a live key; see {@link dev.forge.memory.MemoryProvider#delete}. */
    public boolean delete(String key, Scope scope) {
        Keys.validate(key);
        Shelf shelf = shelves.shelf(scope);
        Root root = shelves.root(scope);
        String what = "delete key '" + Keys.abbreviate(key) + "'";
        if (!access.locked(what, shelf, key, () -> {
            shelf.recheckUnreadable(key);
            shelf.requireReadableHead(key, what);
            return Shelves.live(shelf.chain(key)).isPresent();
        })) {
            return false; // nothing to do: take no lock, create no directory
        }
        boolean documented = shelves.documented(scope, key);
        return access.writing(root, what, shelf, key, deleted -> "delete " + named(scope, key), () -> {
            shelf.recheck(key);
            shelf.requireReadableHead(key, what);
            if (documented) {
                documents.settle(root, shelf, key);
            }
            Chain chain = shelf.chain(key);
            if (chain == null || !chain.live()) {
                return false;
            }
            MemoryFile tombstone = Entries.tombstone(chain.head().file(), VersionIds.newId(key), files.now(), sessionId);
            if (documented) {
                documents.documentFirst(shelf, key, Optional.empty(), () -> files.create(root, shelf, tombstone));
            } else {
                files.create(root, shelf, tombstone);
            }
            return true;
        });
    }

    /** Writes a tombstone for every live key of the scope; see {@link dev.forge.memory.MemoryProvider#clear}. */
    public int clear(Scope scope) {
        Shelf shelf = shelves.shelf(scope);
        Root root = shelves.root(scope);
        String what = "clear the " + scope.name().toLowerCase(Locale.ROOT) + " memories";
        if (!access.locked(what, () -> shelf.chains().stream().anyMatch(Chain::live))) {
            return 0;
        }
        return access.writing(root, what, count -> "clear " + scope.id() + " (" + memories(count) + ")", () -> {
            if (shelves.documents != null && scope == Scope.PROJECT) {
                // Documents edited in place since the last scan are recorded, not lost.
                Set<String> keys = new TreeSet<>(shelves.documents.keys());
                shelf.chains().stream().map(Chain::key).filter(LayeredPaths::isLayered).forEach(keys::add);
                for (String key : keys) {
                    shelf.recheck(key);
                    if (shelf.unreadableHead(key).isEmpty()) { // else left as it is, for a person to repair
                        documents.settle(root, shelf, key);
                    }
                }
            }
            List<Chain> live = shelf.chains().stream().filter(Chain::live).toList();
            Instant now = files.now();
            for (Chain chain : live) {
                MemoryFile tombstone = Entries.tombstone(chain.head().file(), VersionIds.newId(chain.key()), now, sessionId);
                if (shelves.documented(scope, chain.key())) {
                    documents.documentFirst(shelf, chain.key(), Optional.empty(),
                            () -> files.create(root, shelf, tombstone));
                } else {
                    files.create(root, shelf, tombstone);
                }
            }
            return live.size();
        });
    }

    /** Replaces the key's versions with {@code chain}; see {@link ChainRestore#restore}. */
    public MemoryEntry restore(List<MemoryEntry> chain) {
        return restores.restore(chain);
    }

    /** Removes every file of the key; see {@link dev.forge.memory.VersionHistory#purge(String, Scope)}. */
    public boolean purge(String key, Scope scope) {
        Keys.validate(key);
        Shelf shelf = shelves.shelf(scope);
        Root root = shelves.root(scope);
        String what = "purge key '" + Keys.abbreviate(key) + "'";
        if (!access.locked(what, shelf, key, () -> {
            shelf.recheckUnreadable(key);
            shelf.requireReadableHead(key, what);
            return shelf.chain(key) != null;
        })) {
            return false;
        }
        return access.writing(root, what, shelf, key, purged -> "purge " + named(scope, key), () -> {
            shelf.recheck(key);
            shelf.requireReadableHead(key, what);
            if (shelf.chain(key) == null) {
                return false;
            }
            if (shelves.documented(scope, key)) {
                documents.change(shelf, key, Optional.empty());
            }
            Chain stored = shelf.storedChain(key);
            files.removeFiles(root, shelf, stored == null ? List.of() : List.of(stored));
            return true;
        });
    }

    /** Removes every file of every key of the scope; see {@link dev.forge.memory.VersionHistory#purge(Scope)}. */
    public int purge(Scope scope) {
        Shelf shelf = shelves.shelf(scope);
        Root root = shelves.root(scope);
        String what = "purge the " + scope.name().toLowerCase(Locale.ROOT) + " memories";
        if (!access.locked(what, () -> !shelf.chains().isEmpty())) {
            return 0;
        }
        return access.writing(root, what,
                count -> "purge " + scope.id() + " (" + count + (count == 1 ? " key)" : " keys)"), () -> {
            List<Chain> chains = List.copyOf(shelf.chains());
            for (Chain chain : chains) {
                if (shelves.documented(scope, chain.key())) {
                    documents.change(shelf, chain.key(), Optional.empty());
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
            files.removeFiles(root, shelf, stored);
            return chains.size();
        });
    }

    /** Removes this session's files and its directory. */
    public int endSession() {
        Shelf session = shelves.session;
        Root root = shelves.projectRoot;
        boolean anything = access.locked("end the session",
                () -> !session.chains().isEmpty() || Files.exists(session.directory()));
        if (!anything) {
            return 0;
        }
        return access.writing(root, "end the session",
                count -> "end session " + sessionId + " (" + memories(count) + ")", () -> {
            List<Chain> chains = List.copyOf(session.chains());
            int live = (int) chains.stream().filter(Chain::live).count();
            files.removeFiles(root, session, chains);
            // Unreadable files and leftovers of the session go too: the directory is this session's alone.
            AtomicFiles.deleteTree(session.directory());
            root.changed(session.directory());
            session.scan();
            return live;
        });
    }

    /** The entries a query selects. */
    public List<MemoryEntry> query(Query query) {
        Objects.requireNonNull(query, "query");
        return access.locked("query", () -> query.apply(shelves.candidates(query.scopes())));
    }

    /** Keyword search over each entry's {@code text} (its value and configured {@code search_fields}). */
    public List<Hit> search(SearchRequest request, SearchText text) {
        Objects.requireNonNull(request, "request");
        return access.locked("search", () -> KeywordScorer.rank(request, shelves.candidates(request.scopes()), text));
    }

    /** The keys of the scope that are deleted but keep versions, in key order; see VersionHistory#deletedKeys. */
    public List<String> deletedKeys(Scope scope) {
        Shelf shelf = shelves.shelf(scope);
        return access.locked("list the deleted keys of the " + scope.id() + " memories", () -> shelf.chains().stream()
                .filter(chain -> !chain.live() && chain.line().stream().anyMatch(version -> !version.file().tombstone()))
                .map(Chain::key).sorted().toList());
    }

    /** The versions of a key, oldest first, tombstones left out. */
    public List<MemoryEntry> versions(String key, Scope scope) {
        Keys.validate(key);
        Shelf shelf = shelves.shelf(scope);
        String what = "read the history of key '" + Keys.abbreviate(key) + "'";
        return access.locked(what, shelf, key, () -> {
            shelf.recheckUnreadable(key);
            shelf.requireReadableHead(key, what);
            Chain chain = shelf.chain(key);
            if (chain == null) {
                return List.of();
            }
            List<MemoryEntry> versions = new ArrayList<>();
            for (IndexedFile version : chain.line()) {
                MemoryEntry entry = version.file().tombstone() ? null : chain.present(version, shelf.entryOf(version));
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
        return access.locked("find the latest version of " + id, () -> {
            for (Shelf shelf : shelves.byLookup()) {
                IndexedFile file = shelf.holder(id);
                if (file != null) {
                    shelf.requireReadableHead(file.file().key(), "find the latest version of " + id);
                    return Shelves.live(shelf.chain(file.file().key()));
                }
            }
            return Optional.<MemoryEntry>empty();
        });
    }

    // ---- relations

    /** Relates two live entries; see {@link dev.forge.memory.MemoryGraph#relate}. */
    public Relation relate(EntryRef from, EntryRef to, String type) {
        return relations.relate(from, to, type);
    }

    /** Makes a relation with its time; see {@link dev.forge.memory.MemoryGraph#restore}. */
    public Relation restore(Relation relation) {
        return relations.restore(relation);
    }

    /** Removes a relation; see {@link dev.forge.memory.MemoryGraph#unrelate}. */
    public boolean unrelate(EntryRef from, EntryRef to, String type) {
        return relations.unrelate(from, to, type);
    }

    /** The relations of an entry; see {@link dev.forge.memory.MemoryGraph#relations}. */
    public List<Relation> relations(EntryRef entry, Direction direction) {
        return relations.relations(entry, direction);
    }

    /** Walks the relations; see {@link dev.forge.memory.MemoryGraph#traverse}. */
    public List<GraphPath> traverse(EntryRef start, Traversal traversal) {
        return relations.traverse(start, traversal);
    }

    // ---- health and git

    /** Everything wrong with the files, after a full rescan. */
    public List<StoreProblem> doctor() {
        refresh();
        return access.locked("check the memories", () -> {
            List<StoreProblem> problems = new ArrayList<>();
            for (Shelf shelf : List.of(shelves.project, shelves.session, shelves.global)) {
                problems.addAll(shelf.problems());
            }
            problems.addAll(relations.graph().problems().stream()
                    .sorted(Comparator.comparing(StoreProblem::location).thenComparing(StoreProblem::problem))
                    .toList());
            shelves.projectRoot.gitProblem().ifPresent(problems::add);
            shelves.globalRoot.gitProblem().ifPresent(problems::add);
            return List.copyOf(problems);
        });
    }

    /** Whether writes are committed to git, for the project directory and the global one. */
    public List<GitStatus> gitStatus() {
        return List.of(shelves.projectRoot.gitStatus(), shelves.globalRoot.gitStatus());
    }

    /** What other tools changed in the repositories since the store opened; empty when git is off for both. */
    public Optional<GitChanges> gitChanges() {
        return access.locked("look for changes in git", () -> {
            List<GitChanges.Directory> directories = new ArrayList<>();
            shelves.projectRoot.gitChanges().ifPresent(directories::add);
            shelves.globalRoot.gitChanges().ifPresent(directories::add);
            return directories.isEmpty() ? Optional.<GitChanges>empty() : Optional.of(new GitChanges(directories));
        });
    }

    /** Closes the store: releases the locks; later calls fail with {@link BackendUnavailableException}. */
    public void close() {
        access.close();
    }

    /** Whether the store is closed. */
    public boolean isClosed() {
        return access.isClosed();
    }
}
