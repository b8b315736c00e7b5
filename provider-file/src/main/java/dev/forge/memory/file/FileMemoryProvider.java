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
import dev.forge.memory.file.internal.FileStore;
import dev.forge.memory.EntryRules;
import dev.forge.memory.support.EntryWrite;
import dev.forge.memory.support.FacetedMemoryProvider;
import dev.forge.memory.support.Facets;
import dev.forge.memory.support.tx.OptimisticTransaction;
import dev.forge.memory.Keys;
import dev.forge.memory.support.KeywordScorer;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code file} provider: one JSON file per entry, readable and diffable, in a directory per scope.
 *
 * <h2>Layout</h2>
 * <pre>
 * &lt;base_path&gt;/
 *   session/&lt;project-dir&gt;/&lt;session-dir&gt;/&lt;name&gt;.json   entries of one session of one project
 *   project/&lt;project-dir&gt;/&lt;name&gt;.json      entries of one project
 *   global/&lt;name&gt;.json                     entries shared by every project
 *   &lt;scope dir&gt;/.history/&lt;name&gt;/&lt;n&gt;.json    earlier versions of a key
 *   relations.json                          every relation
 *   transactions/                           commit records of commits in progress
 *   journal                                 the change journal
 *   .lock                                   the store lock
 * </pre>
 * Directory and file names are {@link Keys#toFileName} of the session id, project id and key: injective, safe
 * on every common file system (so {@code a:b}, {@code a_b} and {@code A:b} never share a file). Each file holds
 * the whole entry, key included, and the key is checked on read. With {@code compression: gzip} files end in
 * {@code .json.gz}; files in either encoding are read.
 *
 * <h2>Writes</h2>
 * A write goes to a temporary file in the same directory, is forced to the disk ({@code fsync: true}) and renamed
 * over the old file atomically: a reader sees the old entry or the new one, never a part, and a crash leaves
 * no half-written entry. The replaced version is kept as history by a hard link to its file (a copy where the file
 * system has no hard links), so an overwrite costs one rename and three fsyncs (the history directory, the new
 * file, the scope directory), a new key two. An encoded file over {@code max_file_size} is refused with a
 * {@link dev.forge.memory.ValueTooLargeException}.
 *
 * <p>A failed call changes nothing: each step of a write (history link, new file, files renamed out of the way
 * before they are deleted, the relations file) is undone if a later one fails, and the error says what failed. Only
 * if undoing fails too (the disk failing twice) can part of the change stay, and the error says so. Thread
 * interrupts do not cut a call short: files are read and written with streams that interrupts do not close, the
 * few channel operations are retried, and the interrupt flag is set again when the call returns. A failed fsync is
 * an error, except on Windows, which cannot fsync a directory.
 *
 * <p>On POSIX file systems files are created {@code 0600} and directories {@code 0700}. File names stay within
 * the 143 bytes of eCryptfs. Symbolic links in the store are never followed when deleting or moving; a history
 * directory that is a link is moved aside, not written through or read. The store directory itself may be a link (or
 * lie under one): it is followed, and the store lives wholly in the directory it leads to; a link that leads to no
 * directory is refused at open, and nothing is created where it points.
 *
 * <h2>Damaged files</h2>
 * A file that cannot be parsed (or holds another key), or cannot be read at all (no permission, an I/O error, a link
 * that leads nowhere or a directory in its place), never stops the store from opening: it is logged, kept
 * out of queries and searches, and {@code get} of its key throws {@link dev.forge.memory.CorruptEntryException}
 * naming the file (a {@code get} reads it again, so a repair is seen at once). It is never deleted or overwritten: a later {@code set} or {@code delete} of the key first
 * renames it to {@code <file>.corrupt-<timestamp>} (with the key's history), and {@code clear} leaves it in place.
 * A damaged {@code relations.json} fails graph reads and {@code unrelate} the same way; {@code relate} moves it
 * aside and starts a new one.
 *
 * <h2>Several processes and instances</h2>
 * Any number of processes, and provider instances within one process, may open the same directory at once.
 * Every write takes an exclusive lock: an OS file lock on {@code .lock}, combined with a lock shared by every
 * provider of this JVM on the same lock file, found by the file's identity (device and inode), so a directory
 * reached by two paths has one lock. After locking, a holder checks that {@code .lock} is still the file it locked;
 * if the directory was deleted and created again meanwhile, it locks the new one, as new processes do. Under the
 * lock a writer reads the changes of other writers first, then re-reads from disk the entry files and the
 * relations file it is about to change (one small read, one {@code stat}), so that a change its index missed is
 * never overwritten; {@code clear} lists the directory. It appends what it is going to change to the
 * {@code journal} before changing any file, so no change reaches the disk unjournaled; a line whose change then
 * failed only makes readers re-read an unchanged file. Each provider keeps an in-memory index of its session,
 * project and global entries; before every read it compares the journal with what it has seen (one {@code stat})
 * and, if it grew, re-reads just the files named in the new lines, under a shared lock, so that it never sees half
 * of another writer's change. A damaged or cut-off journal line, a new journal generation (started when the journal
 * grows past its limit) or a missing journal makes readers rescan. Every read therefore sees every write that
 * finished before it started, in this process or another. The directory must be on a local file system with
 * working file locks; network file systems are not supported.
 *
 * <h2>Transactions and crashes</h2>
 * Optimistic: writes are buffered, reads inside see them, and commit fails with
 * {@link dev.forge.memory.ConflictException} (applying nothing) if any key the transaction read or wrote was
 * changed by another writer since it first touched it (re-read from disk to check). Commit holds the store lock,
 * writes a commit record to {@code transactions/} and forces it to disk before changing any entry, applies every
 * change, journals them all at once, and removes the record: other providers see all of a commit or none of it.
 * If a change fails, the commit is undone and fails with nothing applied (retrying is safe); if undoing fails, it
 * is completed instead; if that fails too, the error names the record, which stays. A record left by a crash (or
 * that last case) is completed by the next process that opens or writes the store, so that either all of a commit
 * is there or none; while it cannot be completed, writes fail with a message naming it, and reads still work.
 * A crash in the middle of a single write leaves the old or the new file, and its journal line in any case. (With
 * {@code fsync: false} all this holds for a crash of the process, not of the machine.)
 *
 * <h2>Restore</h2>
 * {@link dev.forge.memory.Restoring#restore} (import, migration) writes the given versions as they are: the last becomes the
 * entry file, the earlier ones the key's whole {@code .history} directory (gaps in version numbers kept); a damaged
 * file of the key is moved aside as by {@code set}, relations stay. Since no single rename replaces an entry file
 * and its history directory together, a restore is a commit of one operation: its record (holding the whole chain)
 * is forced to disk before any file changes, the history is built in a temporary directory and renamed into place,
 * and a restore cut off by a crash is completed by the next open, write or history read, in any process, so the key
 * ends with its old state or the whole new chain, never a mix. A restore that fails is undone. Restoring a chain the key already holds writes
 * nothing.
 *
 * <p>Thread-safe; no background threads. Semantic search is not offered.
 */
public final class FileMemoryProvider extends FacetedMemoryProvider {

    /** The name this provider is selected by. */
    public static final String NAME = "file";

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
        offerGraph(Facets.graph(relations::relate, relations::unrelate, relations::relations, relations::traverse));
        // Deletions are not kept here (a delete removes the history files), so purging is deleting.
        offerHistory(Facets.history(store::versions, this::delete, this::clear));
        FileTransactions backend = new FileTransactions(store, limits, context.clock());
        offerTransactions(() -> OptimisticTransaction.begin(backend));
        // A restore writes the key's current file and its whole history, as one recorded commit.
        offerRestoring(this::restore);
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
        FileStore store = FileStore.open(NAME, directory, context.projectId(), context.sessionId(), context.clock(),
                config.compression() == FileConfig.Compression.GZIP, config.fsync(), config.maxFileSize().bytes(), journalLimit);
        return new FileMemoryProvider(context, config, store);
    }

    /** The store directory (its real path). */
    public Path directory() {
        return store.directory();
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
        return store.get(key, scope);
    }

    @Override
    public MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
        store.checkOpen();
        return store.set(EntryWrite.validate(key, value, scope, tags, metadata, limits));
    }

    @Override
    public List<MemoryEntry> query(Query query) {
        store.checkOpen();
        Objects.requireNonNull(query, "query");
        return query.apply(store.entries(query.scopes()));
    }

    @Override
    public List<Hit> search(SearchRequest request) {
        store.checkOpen();
        Objects.requireNonNull(request, "request");
        if (request.mode() != SearchMode.KEYWORD) {
            throw new UnsupportedCapabilityException(NAME, request.mode().requiredCapability());
        }
        return KeywordScorer.rank(request, store.entries(request.scopes()));
    }

    @Override
    public boolean delete(String key, Scope scope) {
        store.checkOpen();
        Keys.validate(key);
        Objects.requireNonNull(scope, "scope");
        return store.delete(key, scope);
    }

    @Override
    public int clear(Scope scope) {
        store.checkOpen();
        Objects.requireNonNull(scope, "scope");
        return store.clear(scope);
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

    private MemoryEntry restore(List<MemoryEntry> versions) {
        store.checkOpen();
        return store.restore(EntryRules.checkChain(versions, limits));
    }

    /** Releases the store lock. Idempotent; nothing keeps running. */
    @Override
    public void close() {
        store.close();
    }

    @Override
    public String toString() {
        return "FileMemoryProvider[" + store.directory() + ", project=" + context.projectId() + ", session=" + context.sessionId() + "]";
    }

    /**
     * Lists entry files that cannot be read (skipped by queries; reading their key fails), damaged files moved
     * aside by a later write, and a damaged relations file.
     */
    @Override
    public List<dev.forge.memory.StoreProblem> doctor() {
        return store.problems();
    }
}
