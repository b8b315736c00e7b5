package dev.forge.memory.markdown;

import dev.forge.memory.support.StoreBackedMemoryProvider;
import dev.forge.memory.support.Facets;
import dev.forge.memory.support.SearchText;
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
 * The {@code markdown} provider, forge-memory's default: one markdown file with YAML front-matter per version of a
 * memory, which a person can read, edit and delete in a text editor and an agent still queries fast.
 *
 * <p>Versions are append-only: {@code set} writes the next version and never changes a file's value; {@code delete}
 * and {@code clear} write a tombstone version ({@link Capability#TOMBSTONES}); {@link VersionHistory#purge} removes
 * every file of a key. {@link Restoring#restore} is atomic: after a crash the key is as it was or as restored, and
 * what a crashed restore left is reported by {@link #doctor()}.
 *
 * <p>Files other tools and people change are respected: a write by another provider or process, and a file added,
 * removed or saved by renaming, is seen at the next call; a file edited in place is seen by {@link #refresh()}, at the
 * next open, and always before a write builds on it, so a hand edit is never overwritten. An unreadable file is
 * skipped and listed by {@link #doctor()}; when it may be a key's newest version, the key is held back rather than
 * shown at an older version: {@code get} and its history throw {@link dev.forge.memory.CorruptEntryException} naming
 * the file, queries and searches leave the key out, and writes to it are refused, until the file is repaired.
 *
 * <p>Safe for many threads (the calls of one provider run one at a time) and for several processes on one
 * directory: writers take an exclusive lock, so no version is lost and no head gets two successors. Opening creates
 * and locks nothing. With {@code git: true} every write is also one commit; git never fails a write
 * ({@link #gitStatus()} says why it is off). There are no transactions ({@code transactions()} is empty); semantic
 * and hybrid search throw {@link UnsupportedCapabilityException}.
 *
 * <p>File format, on-disk layout, the layered layout, git and settings: docs/providers/markdown.md.
 */
public final class MarkdownMemoryProvider extends StoreBackedMemoryProvider {

    /** The name this provider is selected by. */
    public static final String NAME = "markdown";

    static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(
            Capability.KEYWORD_SEARCH, Capability.GRAPH, Capability.HISTORY, Capability.TOMBSTONES, Capability.RESTORE));

    private final MarkdownStore store;
    private final SearchText text;

    private MarkdownMemoryProvider(MarkdownStore store, SearchText text) {
        super(store);
        this.store = store;
        this.text = text;
        offerGraph(Facets.graph(store::relate, store::unrelate, store::relations, store::traverse, store::restore));
        offerHistory(Facets.history(store::versions, store::purge, store::purge, store::deletedKeys));
        /*
         * A restore writes the versions given as new files beside the key's old ones and switches to them by writing
         * the new head last, so that a crash leaves the key either as it was or as restored (see the class comment);
         * the key's relations stay.
         */
        offerRestoring(restorer());
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
                config.layout() == MarkdownConfig.Layout.LAYERED, git), config.searchFields());
    }

    @Override
    public String name() {
        return NAME;
    }

    /** How many memory files the provider read since it opened; a test seam, to tell that a call read only its key's. */
    long filesRead() {
        return store.filesRead();
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
     * Keyword search over bodies and the configured {@code search_fields} (keys and tags by default).
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
        return store.search(request, text);
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
