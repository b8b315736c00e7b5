package dev.forge.memory.markdown;

import dev.forge.memory.support.StoreBackedMemoryProvider;
import dev.forge.memory.support.Facets;
import dev.forge.memory.Capability;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Restoring;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.forge.memory.VersionHistory;
import dev.forge.memory.markdown.internal.GitOptions;
import dev.forge.memory.markdown.internal.MarkdownStore;
import dev.forge.memory.Keys;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code markdown} provider, forge-memory's default: memories a person can read, edit and delete in a text
 * editor, that an agent still queries fast.
 *
 * <h2>Files</h2>
 * One file per version of a memory, {@code mem_<uuid>.md}: YAML front-matter between {@code ---} lines, then the
 * value as a markdown body. The provider writes version 8 UUIDs whose first eight hex digits are the first 32 bits of
 * the SHA-256 of the key, so that a file that cannot be read still tells which key it may belong to.
 * <pre>
 * ---
 * id: mem_1b4e28ba-2fa1-41d2-883f-0016d3cca427
 * key: build-tool
 * created_at: 2026-11-22T04:15:12.123Z
 * updated_at: 2026-11-22T04:16:40.001Z
 * version: 2
 * scope: project
 * tags:
 *   - build
 * supersedes: mem_0b9d6c1e-3f4a-4c2b-9d1e-5a6b7c8d9e0f
 * related:
 *   - id: mem_a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d
 *     relationship: refines
 * session_id: sess-42
 * ---
 * We use Maven 3.9 with the wrapper.
 * </pre>
 * Fields a person or a newer version adds are kept when the file is rewritten. The metadata entries
 * {@code category} and {@code trigger}, when text, are written as the front-matter fields of those names.
 *
 * <h2>Layout</h2>
 * <pre>
 * &lt;path&gt;/mem_*.md                  PROJECT memories (path: .forge/memory under the project by default)
 * &lt;path&gt;/session/&lt;session&gt;/mem_*.md  SESSION memories of one session; removed by endSession()
 * &lt;global_path&gt;/mem_*.md           GLOBAL memories ($FORGE_HOME/memory, else ~/.forge/memory)
 * &lt;dir&gt;/.lock, &lt;dir&gt;/.generation   the writers' lock and change marker of path and of global_path
 * </pre>
 * Directories are created by the first write with mode {@code 0700} and files with {@code 0600}, where the file
 * system has POSIX permissions: memories hold what an agent learned about a person's work, which other accounts on
 * the machine, group members included, have no reason to read. (Stricter than the {@code 0750} of the original
 * design, for that reason.)
 *
 * <h2>The layered layout</h2>
 * With {@code layout: layered} ({@link MarkdownConfig.Layout#LAYERED}) the project directory is a Forge plugin memory
 * directory. The version files of PROJECT memories move to {@code <path>/.forge/versions/} (SESSION ones to its
 * {@code session/<id>/}), and the current value of each key of the form {@code projects/{project}/{file}},
 * {@code skills/{skill}/{project}/{file}}, {@code commands/{project}/{file}} or {@code agents/{agent}/{file}} is also
 * the file {@code <path>/<key>.md}, byte for byte, without front-matter: its document. Each name is a letter or digit,
 * then letters, digits, {@code .}, {@code _} or {@code -}, without {@code ..}; {@code index}, {@code lifecycle} and
 * {@code quality_guidance} are the plugin's structural files, never memories. Other keys live only in the version
 * files. A document is the truth for its key's current value: one another tool wrote or edited shows as the next
 * version (with the tags, metadata and relations of the head), one it removed as a deletion, and the next write
 * records that version in the chain before its own. Writes change the document first, then the chain, so a crash in
 * between shows the write in flight early and loses nothing. Reads write nothing. GLOBAL memories keep the standard
 * layout.
 *
 * <h2>Versions</h2>
 * Files are never changed to change a value: {@code set} writes the next version, which {@code supersedes} the
 * previous head. {@code delete} and {@code clear} write a tombstone version ({@code tombstone: true}), so the history
 * survives ({@link Capability#TOMBSTONES}); {@link VersionHistory#purge} removes every file of a key, for privacy.
 * The history is the chain walked back from the head; a cycle or a missing link in files edited by hand ends the
 * walk (see {@link #doctor()}).
 *
 * <h2>Restore</h2>
 * {@link Restoring#restore} replaces a key's versions, under the lock like any write. It writes the older versions
 * first, each with {@code committed_by: <id of the new head>}: until a file with that id exists they belong to an
 * unfinished restore and are ignored. Writing the new head, whose {@code supersedes} links the new line and whose
 * {@code replaces} lists the versions of the old line, is the switch: the old line no longer counts. Then the marks
 * are cleared and the old files removed. A crash before the switch leaves the key as it was; after it, as restored.
 * What a crashed restore leaves is reported by {@link #doctor()} and removed by the next write to the directory.
 * The head keeps the old head's relations, and relations by id to the old versions reach the restored key through
 * {@code replaces}.
 *
 * <h2>Relations</h2>
 * A relation is an item of the {@code related} list of its source's head file, naming its target by the id of one of
 * the target's versions (or, written by hand, by {@code key} and optional {@code scope}); relate and unrelate rewrite
 * that head file in place, the only in-place change the provider makes. A {@code relationship} word such as
 * {@code relates-to} is the relation type {@code relates_to}. A relation by id reaches the target's current version
 * until the target is deleted; one written by key follows the key.
 *
 * <h2>Reading, editing by hand, and other processes</h2>
 * Every file is read at open and indexed in memory: the front-matter of every version and the body of current
 * versions (older bodies are read from disk by the history), so reads never parse files. At every call the
 * provider checks the generation file each writer overwrites, and the directories' modification times: a write by
 * another provider or process, and a memory file a person adds, removes or saves by renaming (as most editors do),
 * are seen at the next call. A file edited in place without a rename is seen by {@link #refresh()}, at the next
 * open, and before any write that builds on it (writes re-check the files of the keys they touch). Unreadable files
 * (broken front-matter, a missing key, a wrong type, no read permission, a link) are skipped with a warning naming
 * the file, and listed by {@link #doctor()}. When such a file may be the newest version of a key (its name carries the
 * key's fingerprint and no readable version supersedes it), or a layered document cannot be read, the key is held
 * back rather than shown at an older version: {@code get} and the history throw
 * {@link dev.forge.memory.CorruptEntryException} naming the file, queries and searches leave the key out, and every
 * write to it is refused with that exception, until the file is repaired or moved away. Files of the random version 4
 * ids written before carry no fingerprint and are only reported.
 *
 * <p>Several processes may share the directories: writers take an exclusive lock ({@code .lock}) and read any new
 * files before they write, so no version is lost and no head gets two successors; a provider that sees a change
 * lists the directory under the shared lock, so it never sees half of a purge or a clear. Opening a provider
 * creates and locks nothing. Calls of one provider run one at a time.
 *
 * <h2>Git ({@code git: true})</h2>
 * The project directory and the global directory are then each a git repository of their own, {@code <dir>/.git}:
 * opened if it exists (a {@code .git} file naming the repository, as in a submodule, is followed), else created by
 * the first write. Parent directories are never searched, so the project's own repository gets no memory commits.
 * Every write that changes files is followed by one commit of exactly those files, made holding the directory's
 * lock, by {@code forge-memory <forge-memory@localhost>} unless {@code git_author} says otherwise, with a message
 * naming the operation, the scope and the key: {@code set project build-tool (v2)}, {@code delete project
 * build-tool}, {@code clear project (12 memories)}, {@code relate project a -refines-> project b}, {@code purge
 * global style}, {@code restore project build-tool (3 versions)}. Edits other tools left uncommitted in other files
 * are not swept in (a file the write rewrites, such as a head that gains a relation, is committed as it is on disk,
 * a hand edit included). The provider writes a {@code .gitignore} (or adds its lines) for {@code .lock},
 * {@code .generation}, {@code session/} (sessions are ephemeral) and temporary files. A repository with no commit
 * first gets a commit of the files already there, so a store used before {@code git: true} starts with its history.
 * {@link #changedSinceLoad()} tells what other tools changed since the provider opened. Git never fails a write: if
 * the repository cannot be opened, created or committed to, the write is kept, git is switched off for this
 * provider with the reason (logged once at WARN), and {@link #gitStatus()} and {@link #doctor()} report it.
 */
public final class MarkdownMemoryProvider extends StoreBackedMemoryProvider {

    /** The name this provider is selected by. */
    public static final String NAME = "markdown";

    static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(
            Capability.KEYWORD_SEARCH, Capability.GRAPH, Capability.HISTORY, Capability.TOMBSTONES, Capability.RESTORE));

    private final MarkdownStore store;

    private MarkdownMemoryProvider(MarkdownStore store) {
        super(store);
        this.store = store;
        offerGraph(Facets.graph(store::relate, store::unrelate, store::relations, store::traverse));
        offerHistory(Facets.history(store::versions, store::purge, store::purge));
        /*
         * A restore writes the versions given as new files beside the key's old ones and switches to them by writing
         * the new head last, so that a crash leaves the key either as it was or as restored (see the class comment);
         * the key's relations stay.
         */
        offerRestoring(this::restore);
    }

    /**
     * Opens the memories that {@code config} places for the project and session of {@code context}.
     *
     * @throws dev.forge.memory.ConfigurationException      if a path is invalid or the project and global
     *                                                      directories overlap
     * @throws dev.forge.memory.BackendUnavailableException if a directory exists but cannot be read
     */
    public static MarkdownMemoryProvider open(ProviderContext context, MarkdownConfig config) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(config, "config");
        Path project = context.resolve(config.path().replace(MarkdownConfig.PROJECT_PLACEHOLDER,
                Keys.toFileName(context.projectId())));
        Path global = config.globalPath() == null ? context.forgeHome().resolve("memory")
                : context.resolve(config.globalPath());
        GitOptions git = new GitOptions(config.git(), config.gitAuthorName(), config.gitAuthorEmail());
        return new MarkdownMemoryProvider(MarkdownStore.open(NAME, context.clock(), context.sessionId(),
                config.maxFileSize().bytes(), config.fsync(), project, global,
                config.layout() == MarkdownConfig.Layout.LAYERED, git));
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The directory of this project's memories. */
    public Path projectDirectory() {
        return store.projectDirectory();
    }

    /**
     * The directory of this project's version files: the {@linkplain #projectDirectory() project directory} in the
     * standard layout, its {@code .forge/versions} in the layered one.
     */
    public Path versionDirectory() {
        return store.versionDirectory();
    }

    /** The directory of this session's memories. */
    public Path sessionDirectory() {
        return store.sessionDirectory();
    }

    /** The directory of global memories. */
    public Path globalDirectory() {
        return store.globalDirectory();
    }

    /**
     * Keyword search over keys, tags and bodies.
     *
     * @throws UnsupportedCapabilityException for semantic and hybrid search: this provider has no embeddings
     */
    @Override
    public List<Hit> search(SearchRequest request) {
        Objects.requireNonNull(request, "request");
        store.checkOpen();
        if (request.mode() != SearchMode.KEYWORD) {
            throw new UnsupportedCapabilityException(NAME, request.mode().requiredCapability());
        }
        return store.search(request);
    }

    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    /**
     * Reads the directories again, including files edited in place while the provider was open, then lists unreadable
     * files, broken version chains and relationship words that are not relation types, and, with {@code git: true},
     * a directory git had to be switched off for, with the reason.
     */
    @Override
    public List<StoreProblem> doctor() {
        return store.doctor();
    }

    /**
     * The current entry of the key that the version {@code id} (a file name without {@code .md}) belongs to: the
     * head of its chain, found from any version in this project's, this session's or the global directory. Empty if
     * no readable file has that id or the key is deleted now.
     */
    public Optional<MemoryEntry> latestVersion(String id) {
        return store.latestVersion(id);
    }

    /**
     * Whether each write is committed to git ({@code git: true}), for the project directory and the global one, in
     * this order; off with the reason when git is off in the configuration, or was switched off after an error (a
     * repository that cannot be opened or created, a commit that failed). Reads nothing on disk.
     */
    public List<GitStatus> gitStatus() {
        return store.gitStatus();
    }

    /**
     * What other tools (or other providers) changed in the memory directories' git repositories since this provider
     * opened them: for each directory git is on for, the paths changed by commits other than this provider's own
     * since HEAD at open (the baseline, moved along by this provider's own commits), and the paths whose uncommitted
     * edits are new since open. The provider's own writes never count. Empty when git is off for both directories
     * (see {@link #gitStatus()}); a repository that cannot be read switches git off for it and is left out.
     *
     * @throws dev.forge.memory.BackendUnavailableException if the provider is closed
     */
    public Optional<GitChanges> changedSinceLoad() {
        return store.gitChanges();
    }

    /**
     * Reads again every file whose size or modification time changed since it was read: picks up files a person
     * edited in place, which the provider does not otherwise notice while open.
     *
     * @throws dev.forge.memory.BackendUnavailableException if closed, or a directory cannot be read
     */
    public void refresh() {
        store.refresh();
    }

    @Override
    public void close() {
        store.close();
    }

    @Override
    public String toString() {
        return "MarkdownMemoryProvider[" + store.projectDirectory() + ", global " + store.globalDirectory() + "]";
    }

}
