package dev.forge.memory.file;

import dev.forge.memory.Capability;
import dev.forge.memory.Hit;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.forge.memory.file.internal.FileTransactions;
import dev.forge.memory.file.internal.FileRelations;
import dev.forge.memory.file.internal.FileHistory;
import dev.forge.memory.file.internal.BatchRestore;
import dev.forge.memory.file.internal.FileStore;
import dev.forge.memory.file.internal.StoreDoctor;
import dev.forge.memory.file.internal.StoreOpener;
import dev.forge.memory.EntryRules;
import dev.forge.memory.support.EntryWrite;
import dev.forge.memory.support.FacetedMemoryProvider;
import dev.forge.memory.support.Facets;
import dev.forge.memory.support.tx.OptimisticTransaction;
import dev.forge.memory.Keys;
import dev.forge.memory.support.KeywordScorer;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code file} provider: one JSON file per entry, readable and diffable, in a directory per scope.
 *
 * <p>File names are {@link Keys#toFileName} of the key and of the session and project ids: injective and safe, so no
 * two keys share a file. Every write is atomic (a temporary file forced to the disk, then renamed over the old one):
 * a reader sees the old entry or the new one, and a crash leaves no half-written entry. A failed call changes nothing
 * (each step is undone, and the error says what failed), and a thread interrupt does not cut a call short. An
 * encoded file over {@code max_file_size} is refused with {@link dev.forge.memory.ValueTooLargeException}. A damaged
 * file never stops the store from opening and is never deleted: {@code get} of its key throws
 * {@link dev.forge.memory.CorruptEntryException} naming the file, and a later write of the key moves it aside.
 *
 * <p>Transactions are optimistic: a commit applies all of its changes or none, and fails with
 * {@link dev.forge.memory.ConflictException}, applying nothing, if a key it read or wrote was changed by another
 * writer meanwhile. A batch of restores ({@link dev.forge.memory.Restoring#restoreAll}) is one such commit per store. A
 * commit or a {@link dev.forge.memory.Restoring#restore} cut off by a crash is completed by the
 * next process that opens or writes the store. With {@code fsync: false} this holds for a crash of the process, not
 * of the machine.
 *
 * <p>GLOBAL entries live in a store of their own shared by every project of the user ({@code global_path}, by default
 * {@code $FORGE_HOME/file}); PROJECT and SESSION entries in the project's store ({@code base_path}). Both are the same
 * kind of store; a transaction may span them (see docs/providers/file.md for what holds across the two).
 *
 * <p>Thread-safe, with no background threads. Any number of processes and provider instances may share one directory
 * on a local file system: every read sees every write that finished before it started, in this process or another.
 * Semantic search is not offered.
 *
 * <p>On-disk layout, locking, crash recovery and settings: docs/providers/file.md.
 */
public final class FileMemoryProvider extends FacetedMemoryProvider {

    /** The name this provider is selected by. */
    public static final String NAME = "file";

    /** The directory under the forge home that holds the shared global store unless {@code global_path} names another. */
    static final String DEFAULT_GLOBAL_DIRECTORY = "file";

    /** The journal size past which a writer starts a new generation. */
    static final long DEFAULT_JOURNAL_LIMIT = 1024 * 1024;

    static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(
            Capability.KEYWORD_SEARCH, Capability.GRAPH, Capability.TRANSACTIONS, Capability.HISTORY, Capability.RESTORE));

    private final ProviderContext context;
    private final FileConfig config;
    private final FileStore store;
    private final Limits limits;

    private FileMemoryProvider(ProviderContext context, FileConfig config, FileStore store) {
        this.context = context;
        this.config = config;
        this.store = store;
        this.limits = Limits.DEFAULT.withMaxValueBytes(Math.min(Limits.DEFAULT.maxValueBytes(), config.maxFileSize().bytes()));
        FileRelations relations = store.graph();
        offerGraph(Facets.graph(relations::relate, relations::unrelate, relations::relations, relations::traverse,
                relations::restore));
        // Deletions are not kept here (a delete removes the history files), so purging is deleting.
        offerHistory(Facets.history(this::versions, this::delete, this::clear));
        FileTransactions backend = new FileTransactions(store, limits, context.clock());
        offerTransactions(() -> OptimisticTransaction.begin(backend));
        // A restore writes the key's current file and its whole history, as one recorded commit; a batch, its keys'.
        offerRestoring(Facets.restoring(this::restoreAll));
    }

    /**
     * Opens the store {@code config} names for the project and session of {@code context}.
     *
     * @throws dev.forge.memory.BackendUnavailableException if the directory cannot be created, locked or read
     */
    public static FileMemoryProvider open(ProviderContext context, FileConfig config) {
        return open(context, config, DEFAULT_JOURNAL_LIMIT);
    }

    static FileMemoryProvider open(ProviderContext context, FileConfig config, long journalLimit) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(config, "config");
        Path directory = context.resolve(config.basePath());
        Path global = config.globalPath() == null ? context.forgeHome().resolve(DEFAULT_GLOBAL_DIRECTORY)
                : context.resolve(config.globalPath());
        FileStore store = new StoreOpener(NAME, context.clock(), config.compression() == FileConfig.Compression.GZIP,
                config.fsync(), config.maxFileSize().bytes(), journalLimit).open(directory, global, context.projectId(), context.sessionId());
        return new FileMemoryProvider(context, config, store);
    }

    /** How many entry files the provider read since it opened; a test seam, to tell that a call read only its key's. */
    long filesRead() {
        return store.filesRead();
    }

    /** The store directory (its real path). */
    public Path directory() {
        return store.directory();
    }

    /** The directory GLOBAL entries live in (its real path): the shared global store, or the store directory itself. */
    public Path globalDirectory() {
        return store.owner(Scope.GLOBAL).directory();
    }

    /** The settings this provider was opened with. */
    public FileConfig config() {
        return config;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<MemoryEntry> get(String key, Scope scope) {
        store.checkOpen();
        Keys.validate(key);
        Objects.requireNonNull(scope, "scope");
        return store.ownerForReading(scope).flatMap(owner -> owner.get(key, scope));
    }

    @Override
    public MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
        store.checkOpen();
        EntryWrite write = EntryWrite.validate(key, value, scope, tags, metadata, limits);
        return store.owner(write.scope()).set(write);
    }

    @Override
    public List<MemoryEntry> query(Query query) {
        store.checkOpen();
        Objects.requireNonNull(query, "query");
        return query.apply(entries(query.scopes()));
    }

    @Override
    public List<Hit> search(SearchRequest request) {
        store.checkOpen();
        Objects.requireNonNull(request, "request");
        if (request.mode() != SearchMode.KEYWORD) {
            throw new UnsupportedCapabilityException(NAME, request.mode().requiredCapability());
        }
        // One corpus for both stores, so that scores (term statistics) do not depend on where an entry lives.
        return KeywordScorer.rank(request, entries(request.scopes()), config.searchFields());
    }

    private List<MemoryEntry> entries(Set<Scope> scopes) {
        Optional<FileStore> global = store.ownerForReading(Scope.GLOBAL);
        if (global.isPresent() && global.get() == store || !scopes.contains(Scope.GLOBAL)) {
            return store.entries(scopes);
        }
        EnumSet<Scope> own = EnumSet.copyOf(scopes);
        own.remove(Scope.GLOBAL);
        List<MemoryEntry> all = new ArrayList<>(own.isEmpty() ? List.of() : store.entries(own));
        global.ifPresent(shared -> all.addAll(shared.entries(Set.of(Scope.GLOBAL))));
        return all;
    }

    @Override
    public boolean delete(String key, Scope scope) {
        store.checkOpen();
        Keys.validate(key);
        Objects.requireNonNull(scope, "scope");
        boolean deleted = store.ownerForReading(scope).map(owner -> owner.delete(key, scope)).orElse(false);
        if (deleted && scope == Scope.GLOBAL) {
            store.graph().pruneGlobal();
        }
        return deleted;
    }

    @Override
    public int clear(Scope scope) {
        store.checkOpen();
        Objects.requireNonNull(scope, "scope");
        int cleared = store.ownerForReading(scope).map(owner -> owner.clear(scope)).orElse(0);
        if (cleared > 0 && scope == Scope.GLOBAL) {
            store.graph().pruneGlobal();
        }
        return cleared;
    }

    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    /** {@link Limits#DEFAULT} with values capped at {@code max_file_size}. */
    @Override
    public Limits limits() {
        return limits;
    }

    private List<MemoryEntry> versions(String key, Scope scope) {
        store.checkOpen();
        Keys.validate(key);
        Objects.requireNonNull(scope, "scope");
        return store.ownerForReading(scope).map(owner -> FileHistory.versions(owner, key, scope)).orElseGet(List::of);
    }

    private List<MemoryEntry> restoreAll(List<List<MemoryEntry>> chains) {
        store.checkOpen();
        List<List<MemoryEntry>> checked = chains.stream().map(chain -> EntryRules.checkChain(chain, limits)).toList();
        return checked.isEmpty() ? List.of() : BatchRestore.restore(store, checked);
    }

    /** Releases the store locks. Idempotent; nothing keeps running. */
    @Override
    public void close() {
        store.close();
    }

    @Override
    public String toString() {
        return "FileMemoryProvider[" + store.directory() + ", global=" + globalDirectory() + ", project=" + context.projectId() + ", session=" + context.sessionId() + "]";
    }

    /**
     * Lists entry files that cannot be read (skipped by queries; reading their key fails), damaged files moved
     * aside by a later write, and a damaged relations file.
     */
    @Override
    public List<dev.forge.memory.StoreProblem> doctor() {
        return StoreDoctor.problems(store);
    }
}
