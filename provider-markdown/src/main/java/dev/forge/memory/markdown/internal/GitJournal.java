package dev.forge.memory.markdown.internal;

import dev.forge.memory.markdown.GitChanges;
import dev.forge.memory.markdown.GitStatus;
import dev.forge.memory.support.files.AtomicFiles;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.Status;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheBuilder;
import org.eclipse.jgit.dircache.DirCacheEditor;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.errors.LockFailedException;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevTree;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.EmptyTreeIterator;
import org.eclipse.jgit.treewalk.FileTreeIterator;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.WorkingTreeIterator;
import org.eclipse.jgit.treewalk.filter.PathFilterGroup;
import org.eclipse.jgit.treewalk.filter.TreeFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The git repository of one memory directory ({@code git: true}): every write of the provider is followed by one
 * commit of the files it changed, and {@link #changes()} tells what other tools changed since the provider opened.
 *
 * <p>The repository is {@code <directory>/.git} (or the repository a {@code .git} file or link names, as long as it is
 * inside the directory: see {@link GitLocation}); parent directories are never searched, so a project's own repository
 * never receives memory commits. It is opened when the provider opens, if it exists, and otherwise created by the
 * first write. A repository without any commit first gets one of the files already in the directory. The provider
 * writes a {@code .gitignore} (or adds its lines to the one there) so that its lock, its change marker, session
 * directories and temporary files are never committed.
 *
 * <p>A commit holds exactly the paths the write created, rewrote or deleted: edits another tool left uncommitted in
 * other files stay uncommitted (and are reported). It is built from HEAD's tree, not from the index, so that what a
 * person staged is not swept in either; the index is then updated for the committed paths only. Callers hold the
 * directory's {@link dev.forge.memory.support.files.StoreLock} exclusively, so providers and processes never interleave
 * commits; a git command of another tool holding {@code index.lock} or a ref lock is waited for, up to
 * {@link #LOCK_WAIT_MILLIS}.
 *
 * <p>Nothing here ever fails a write: any error switches git off for this provider, with the reason logged once at
 * WARN and reported by {@link #status()} (and so by {@code doctor()}); the memory files are written all the same.
 * Not thread-safe: the store calls it holding its own lock.
 */
final class GitJournal {

    private static final Logger LOG = LoggerFactory.getLogger(GitJournal.class);

    /** The repository directory in a memory directory. */
    static final String DOT_GIT = Constants.DOT_GIT;

    /** The ignore file the provider writes. */
    static final String GITIGNORE = Constants.DOT_GIT_IGNORE;

    /** The lines the provider puts in {@link #GITIGNORE}: what it keeps in the directory that is no memory, or not kept. */
    static final List<String> IGNORED = List.of("/" + dev.forge.memory.support.files.StoreLock.FILE_NAME,
            "/" + Root.GENERATION_FILE, "/" + MarkdownStore.SESSION_DIRECTORY + "/",
            "/" + MarkdownStore.LAYERED_VERSION_DIRECTORY + "/" + MarkdownStore.SESSION_DIRECTORY + "/",
            AtomicFiles.TEMP_PREFIX + "*");

    /** How long a commit waits for a lock another git command holds before git is switched off. */
    static final long LOCK_WAIT_MILLIS = 10_000;

    private static final String DELETED = "deleted";

    private final Path directory;
    private final Path dotGit;
    private final GitOptions options;
    private final Clock clock;
    private final boolean fsync;
    private Repository repository;
    // The commit the provider is in step with; null when the repository had no commit at open.
    private ObjectId baseline;
    // This provider's commits that could not move the baseline, because another tool's commit came in between.
    private final Set<ObjectId> own = new HashSet<>();
    // The uncommitted state (content id, or DELETED) of every path that had uncommitted edits at open, less the paths
    // this provider committed since.
    private final Map<String, String> dirtyAtLoad = new HashMap<>();
    // Paths (relative, '/'-separated) the current write changed.
    private final Set<String> pending = new TreeSet<>();
    private boolean writing;
    private volatile String offReason;

    private GitJournal(Path directory, GitOptions options, Clock clock, boolean fsync) {
        this.directory = directory;
        this.dotGit = directory.resolve(DOT_GIT);
        this.options = options;
        this.clock = clock;
        this.fsync = fsync;
    }

    /**
     * The journal of {@code directory}: opens its repository if there is one, recording HEAD and the uncommitted
     * edits as the baseline. Creates nothing; a repository that cannot be opened switches git off.
     *
     * @throws LinkageError if JGit is not on the class path
     */
    static GitJournal open(Path directory, GitOptions options, Clock clock, boolean fsync) {
        // Load JGit now: without it on the class path this fails here, where the caller expects it, not in a write.
        FileRepositoryBuilder.class.getName();
        GitJournal journal = new GitJournal(directory, options, clock, fsync);
        if (Files.exists(journal.dotGit, LinkOption.NOFOLLOW_LINKS)) {
            try {
                journal.repository = journal.openRepository();
                journal.baseline = journal.repository.resolve(Constants.HEAD);
                journal.dirtyAtLoad.putAll(journal.uncommittedState());
            } catch (GitLocation.OutsideException e) {
                journal.off(e.getMessage(), e);
            } catch (IOException | RuntimeException e) {
                journal.off("the repository " + journal.dotGit + " cannot be opened (" + e + "). Repair it, or move it "
                        + "away to have a new one created (the memories do not depend on it), or set 'git: false'", e);
            }
        }
        return journal;
    }

    Path directory() {
        return directory;
    }

    /** On, or off with the reason. */
    GitStatus status() {
        String reason = offReason;
        return new GitStatus(directory, reason == null, Optional.ofNullable(reason));
    }

    // ---- writes

    /**
     * Called holding the directory's lock before a write: opens or creates the repository and its ignore file, and
     * commits the files already there if the repository has no commit yet.
     */
    void beginWrite() {
        pending.clear();
        writing = false;
        if (offReason != null) {
            return;
        }
        try {
            if (repository == null) {
                repository = Files.exists(dotGit, LinkOption.NOFOLLOW_LINKS) ? openRepository() : createRepository();
            }
        } catch (GitLocation.OutsideException e) {
            off(e.getMessage(), e);
            return;
        } catch (IOException | RuntimeException e) {
            off("the repository " + dotGit + " cannot be opened or created (" + e + "). Check the directory's "
                    + "permissions, repair or move away " + dotGit + ", or set 'git: false'", e);
            return;
        }
        try {
            boolean ignoreFileChanged = writeIgnoreFile();
            if (repository.resolve(Constants.HEAD) == null) {
                List<String> found = workingTreeFiles();
                if (found.stream().anyMatch(path -> !path.equals(GITIGNORE))) {
                    commit(null, "record the memories already here (" + found.size() + " files)");
                    ignoreFileChanged = false;
                }
            }
            if (ignoreFileChanged) {
                pending.add(GITIGNORE);
            }
            writing = true;
        } catch (IOException | RuntimeException e) {
            off("cannot prepare the repository " + dotGit + " for a commit (" + e + "). Repair it (git status in "
                    + directory + "), or set 'git: false'", e);
        }
    }

    /** Records that the current write created, rewrote or deleted {@code path} (a file or a directory). */
    void changed(Path path) {
        if (!writing || !path.startsWith(directory)) {
            return;
        }
        String relative = relative(directory.relativize(path));
        if (!relative.isEmpty()) {
            pending.add(relative);
        }
    }

    /** Called holding the directory's lock after a write: commits what it changed with {@code message}. */
    void endWrite(String message) {
        boolean was = writing;
        writing = false;
        if (!was || pending.isEmpty()) {
            pending.clear();
            return;
        }
        List<String> paths = List.copyOf(pending);
        pending.clear();
        try {
            long start = System.nanoTime();
            boolean committed = commit(paths, message);
            if (committed && LOG.isDebugEnabled()) {
                LOG.debug("Committed '{}' ({} paths) in {} in {} ms", message, paths.size(), directory,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            }
        } catch (IOException | RuntimeException e) {
            off("the commit of '" + message + "' failed (" + e + "); the memory was written but not committed. Repair "
                    + "the repository (git status in " + directory + ") and open the provider again, or set 'git: false'", e);
        }
    }

    /**
     * Commits {@code paths} (relative; null: every file not ignored) as they are in the working tree, on top of HEAD.
     *
     * @return whether a commit was made (false when the files are as HEAD has them)
     */
    private boolean commit(Collection<String> paths, String message) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LOCK_WAIT_MILLIS);
        boolean interrupted = false;
        try {
            while (true) {
                DirCache index;
                try {
                    index = repository.lockDirCache();
                } catch (LockFailedException e) {
                    interrupted |= waitOrFail(deadline, e, "the index lock " + dotGit.resolve("index.lock"));
                    continue;
                }
                try {
                    Boolean done = commitHoldingIndex(index, paths, message);
                    if (done != null) {
                        return done;
                    }
                } finally {
                    index.unlock();
                }
                // HEAD moved or its lock was held: build the commit again on the new HEAD.
                interrupted |= waitOrFail(deadline, null, "the lock of HEAD in " + dotGit);
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Sleeps a little before another attempt; fails once the deadline passed. Returns whether it was interrupted. */
    private static boolean waitOrFail(long deadline, IOException cause, String what) throws IOException {
        if (System.nanoTime() - deadline > 0) {
            throw new IOException(what + " has been held for " + LOCK_WAIT_MILLIS / 1000 + " s: another git command is "
                    + "running, or one crashed (remove the lock file if none runs)", cause);
        }
        try {
            Thread.sleep(20);
            return false;
        } catch (InterruptedException e) {
            return true;
        }
    }

    /** One attempt, holding the index lock: true or false when done, null to try again (HEAD moved or was locked). */
    private Boolean commitHoldingIndex(DirCache index, Collection<String> paths, String message) throws IOException {
        ObjectId head = repository.resolve(Constants.HEAD);
        try (ObjectInserter inserter = repository.newObjectInserter();
                ObjectReader reader = inserter.newReader();
                RevWalk walk = new RevWalk(reader)) {
            RevTree headTree = head == null ? null : walk.parseCommit(head).getTree();
            List<Edit> edits = edits(inserter, reader, headTree, paths);
            DirCache tree = DirCache.newInCore();
            DirCacheBuilder builder = tree.builder();
            if (headTree != null) {
                builder.addTree(new byte[0], DirCacheEntry.STAGE_0, reader, headTree);
            }
            builder.finish();
            apply(tree, edits);
            ObjectId treeId = tree.writeTree(inserter);
            ObjectId before = headTree != null ? headTree : inserter.idFor(Constants.OBJ_TREE, new byte[0]);
            if (treeId.equals(before)) {
                return false;
            }
            PersonIdent who = new PersonIdent(options.authorName(), options.authorEmail(), clock.instant(), ZoneOffset.UTC);
            CommitBuilder commit = new CommitBuilder();
            commit.setTreeId(treeId);
            if (head != null) {
                commit.setParentId(head);
            }
            commit.setAuthor(who);
            commit.setCommitter(who);
            commit.setMessage(message + "\n");
            ObjectId id = inserter.insert(commit);
            inserter.flush();

            RefUpdate update = repository.updateRef(Constants.HEAD);
            update.setNewObjectId(id);
            update.setExpectedOldObjectId(head == null ? ObjectId.zeroId() : head);
            update.setRefLogMessage((head == null ? "commit (initial): " : "commit: ") + message, false);
            RefUpdate.Result result = update.update(walk);
            switch (result) {
                case NEW, FAST_FORWARD -> {
                    // committed
                }
                case LOCK_FAILURE, REJECTED -> {
                    return null;
                }
                default -> throw new IOException("updating HEAD to the new commit gave " + result);
            }
            // The index follows for the committed paths, with their file times so that git status need not read them.
            apply(index, edits);
            index.write();
            if (!index.commit()) {
                LOG.warn("Committed '{}' in {}, but could not update the index; git status shows those files as changed "
                        + "until 'git reset' there", message, directory);
            }
            if (Objects.equals(head, baseline)) {
                baseline = id;
            } else {
                own.add(id);
            }
            for (Edit edit : edits) {
                dirtyAtLoad.remove(edit.path());
            }
            return true;
        }
    }

    /** A path as the commit will have it: a blob of the working tree's content, or gone. */
    private record Edit(String path, ObjectId blob, FileMode mode, long length, Instant modified) {

        static Edit deletion(String path) {
            return new Edit(path, null, null, 0, null);
        }

        DirCacheEditor.PathEdit toPathEdit() {
            if (blob == null) {
                return new DirCacheEditor.DeletePath(path);
            }
            return new DirCacheEditor.PathEdit(path) {
                @Override
                public void apply(DirCacheEntry entry) {
                    entry.setFileMode(mode);
                    entry.setObjectId(blob);
                    entry.setLength(length);
                    entry.setLastModified(modified);
                }
            };
        }
    }

    private static void apply(DirCache cache, List<Edit> edits) {
        DirCacheEditor editor = cache.editor();
        for (Edit edit : edits) {
            editor.add(edit.toPathEdit());
        }
        editor.finish();
    }

    /**
     * The edits that bring HEAD's tree to the working tree for {@code paths} (null: everything): files there that
     * git does not ignore (or that HEAD tracks) are added as they are, tracked files that are gone are deleted.
     */
    private List<Edit> edits(ObjectInserter inserter, ObjectReader reader, RevTree headTree, Collection<String> paths)
            throws IOException {
        List<Edit> edits = new ArrayList<>();
        try (TreeWalk walk = new TreeWalk(repository, reader)) {
            int head = headTree == null ? walk.addTree(new EmptyTreeIterator()) : walk.addTree(headTree);
            int work = walk.addTree(new FileTreeIterator(repository));
            if (paths != null) {
                walk.setFilter(PathFilterGroup.createFromStrings(paths));
            }
            while (walk.next()) {
                String path = walk.getPathString();
                boolean tracked = walk.getRawMode(head) != 0;
                WorkingTreeIterator file = walk.getTree(work, WorkingTreeIterator.class);
                if (walk.getFileMode(head) == FileMode.GITLINK || walk.getFileMode(work) == FileMode.GITLINK) {
                    continue; // a repository inside: not ours to record
                }
                if (walk.isSubtree()) {
                    if (tracked || (file != null && !file.isEntryIgnored() && !internal(path + "/"))) {
                        walk.enterSubtree();
                    }
                    continue;
                }
                if (file == null) {
                    if (tracked) {
                        edits.add(Edit.deletion(path));
                    }
                    continue;
                }
                if (!tracked && (file.isEntryIgnored() || internal(path))) {
                    continue;
                }
                ObjectId blob;
                try (InputStream in = file.openEntryStream()) {
                    blob = inserter.insert(Constants.OBJ_BLOB, file.getEntryContentLength(), in);
                }
                edits.add(new Edit(path, blob, file.getEntryFileMode(), file.getEntryLength(),
                        file.getEntryLastModifiedInstant()));
            }
        }
        return edits;
    }

    /** Every file of the working tree that git does not ignore, relative. */
    private List<String> workingTreeFiles() throws IOException {
        List<String> files = new ArrayList<>();
        try (TreeWalk walk = new TreeWalk(repository)) {
            walk.addTree(new FileTreeIterator(repository));
            while (walk.next()) {
                WorkingTreeIterator file = walk.getTree(0, WorkingTreeIterator.class);
                String path = walk.getPathString();
                if (file.isEntryIgnored() || internal(walk.isSubtree() ? path + "/" : path)
                        || walk.getFileMode(0) == FileMode.GITLINK) {
                    continue;
                }
                if (walk.isSubtree()) {
                    walk.enterSubtree();
                } else {
                    files.add(path);
                }
            }
        }
        return files;
    }

    /** Whether {@code path} is one of the provider's own files that are never committed, whatever the ignore file says. */
    static boolean internal(String path) {
        String name = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        name = name.substring(name.lastIndexOf('/') + 1);
        return path.equals(dev.forge.memory.support.files.StoreLock.FILE_NAME) || path.equals(Root.GENERATION_FILE)
                || path.startsWith(MarkdownStore.SESSION_DIRECTORY + "/")
                || path.startsWith(MarkdownStore.LAYERED_VERSION_DIRECTORY + "/" + MarkdownStore.SESSION_DIRECTORY + "/")
                || name.startsWith(AtomicFiles.TEMP_PREFIX);
    }

    /** Writes the ignore file, or adds the lines it lacks; returns whether it changed. */
    private boolean writeIgnoreFile() throws IOException {
        Path file = directory.resolve(GITIGNORE);
        String text = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        List<String> lines = text.lines().map(String::strip).toList();
        List<String> missing = IGNORED.stream().filter(line -> !lines.contains(line)).toList();
        if (missing.isEmpty()) {
            return false;
        }
        StringBuilder next = new StringBuilder(text);
        if (!text.isEmpty() && !text.endsWith("\n")) {
            next.append('\n');
        }
        next.append("# forge-memory (markdown provider, git: true): its lock, change marker, sessions and temporary files\n");
        missing.forEach(line -> next.append(line).append('\n'));
        AtomicFiles.write(directory, file, next.toString().getBytes(StandardCharsets.UTF_8), fsync);
        return true;
    }

    // ---- repositories

    private Repository openRepository() throws IOException {
        FileRepositoryBuilder builder = new FileRepositoryBuilder().setWorkTree(directory.toFile()).setMustExist(true);
        if (Files.isDirectory(dotGit, LinkOption.NOFOLLOW_LINKS)) {
            builder.setGitDir(dotGit.toFile());
        } // else a '.git' file or link: JGit follows it, and the check below keeps it inside the directory
        builder.setup();
        GitLocation.requireInside(builder, directory, dotGit);
        Repository opened = builder.build();
        try {
            if (opened.isBare()) {
                throw new IOException(dotGit + " is a bare repository");
            }
            forceToDisk(opened);
            return opened;
        } catch (IOException | RuntimeException e) {
            opened.close();
            throw e;
        }
    }

    private Repository createRepository() throws IOException {
        Repository created = new FileRepositoryBuilder().setGitDir(dotGit.toFile()).setWorkTree(directory.toFile()).build();
        try {
            created.create(false);
            try {
                // The objects hold the memories: as private as the memory files (0600 in a 0700 directory).
                Files.setPosixFilePermissions(dotGit, PosixFilePermissions.fromString("rwx------"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system
            }
            forceToDisk(created);
            LOG.info("Created a git repository for the memories in {}", directory);
            return created;
        } catch (IOException | RuntimeException e) {
            created.close();
            throw e;
        }
    }

    /** With {@code fsync: true}, objects and refs are forced to the disk too (for this provider; not saved). */
    private void forceToDisk(Repository opened) {
        if (fsync) {
            opened.getConfig().setBoolean("core", null, "fsyncObjectFiles", true);
            opened.getConfig().setBoolean("core", null, "fsyncRefFiles", true);
        }
    }

    // ---- changes

    /**
     * What other tools changed since the provider opened the repository: paths their commits touched since the
     * baseline, and paths whose uncommitted state is not what it was at open (less what the provider committed).
     *
     * @throws IOException if the repository cannot be read
     */
    GitChanges.Directory changes() throws IOException {
        if (repository == null) {
            if (!Files.exists(dotGit, LinkOption.NOFOLLOW_LINKS)) {
                return new GitChanges.Directory(directory, Optional.ofNullable(baseline).map(ObjectId::name),
                        Optional.empty(), List.of(), List.of(), false);
            }
            repository = openRepository();
        }
        ObjectId head = repository.resolve(Constants.HEAD);
        Set<String> committed = new TreeSet<>();
        try (RevWalk walk = new RevWalk(repository)) {
            RevCommit base = null;
            if (baseline != null) {
                try {
                    base = walk.parseCommit(baseline);
                } catch (MissingObjectException e) {
                    base = null; // the history was rewritten and the old commits removed
                }
            }
            if (head == null) {
                if (base != null) {
                    committed.addAll(diff(walk, base.getTree(), null)); // every commit is gone
                }
            } else {
                RevCommit tip = walk.parseCommit(head);
                if (baseline != null && (base == null || !walk.isMergedInto(base, tip))) {
                    // Rewritten (reset, amend, rebase): compare the trees, whoever made the commits.
                    committed.addAll(diff(walk, base == null ? null : base.getTree(), tip.getTree()));
                }
                walk.reset();
                walk.markStart(walk.parseCommit(head));
                if (base != null) {
                    walk.markUninteresting(walk.parseCommit(baseline));
                }
                for (RevCommit commit : walk) {
                    if (!own.contains(commit)) {
                        RevTree parent = commit.getParentCount() == 0 ? null
                                : walk.parseCommit(commit.getParent(0)).getTree();
                        committed.addAll(diff(walk, parent, commit.getTree()));
                    }
                }
            }
        }
        Map<String, String> dirtyNow = uncommittedState();
        Set<String> uncommitted = new TreeSet<>();
        for (String path : union(dirtyNow.keySet(), dirtyAtLoad.keySet())) {
            String now = dirtyNow.containsKey(path) ? dirtyNow.get(path) : contentState(path);
            if (!now.equals(dirtyAtLoad.get(path))) {
                uncommitted.add(path);
            }
        }
        committed.removeIf(GitJournal::internal);
        return new GitChanges.Directory(directory, Optional.ofNullable(baseline).map(ObjectId::name),
                Optional.ofNullable(head).map(ObjectId::name), List.copyOf(committed), List.copyOf(uncommitted),
                !dirtyNow.isEmpty());
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new TreeSet<>(a);
        all.addAll(b);
        return all;
    }

    /** The paths that differ between two trees (null: empty). */
    private List<String> diff(RevWalk walk, RevTree from, RevTree to) throws IOException {
        List<String> paths = new ArrayList<>();
        try (TreeWalk tree = new TreeWalk(walk.getObjectReader())) {
            tree.setRecursive(true);
            if (from == null) {
                tree.addTree(new EmptyTreeIterator());
            } else {
                tree.addTree(from);
            }
            if (to == null) {
                tree.addTree(new EmptyTreeIterator());
            } else {
                tree.addTree(to);
            }
            tree.setFilter(TreeFilter.ANY_DIFF);
            while (tree.next()) {
                paths.add(tree.getPathString());
            }
        }
        return paths;
    }

    /**
     * Every path with an uncommitted edit (staged or not, new files included, ignored ones and the provider's own
     * files left out), with its state: the id of its content in the working tree, or {@link #DELETED}.
     */
    private Map<String, String> uncommittedState() throws IOException {
        Status status;
        try {
            status = Git.wrap(repository).status().call();
        } catch (GitAPIException e) {
            throw new IOException("git status failed: " + e.getMessage(), e);
        }
        Set<String> paths = new TreeSet<>(status.getUncommittedChanges());
        paths.addAll(status.getUntracked());
        Map<String, String> state = new HashMap<>();
        for (String path : paths) {
            if (!internal(path)) {
                state.put(path, contentState(path));
            }
        }
        return state;
    }

    private String contentState(String path) throws IOException {
        Path file = directory.resolve(path.replace('/', File.separatorChar));
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return Files.exists(file, LinkOption.NOFOLLOW_LINKS) ? "other" : DELETED;
        }
        try (ObjectInserter.Formatter formatter = new ObjectInserter.Formatter()) {
            return formatter.idFor(Constants.OBJ_BLOB, Files.readAllBytes(file)).name();
        }
    }

    private static String relative(Path path) {
        return path.toString().replace(File.separatorChar, '/');
    }

    // ---- off

    private void off(String reason, Throwable cause) {
        if (offReason != null) {
            return;
        }
        offReason = reason;
        writing = false;
        pending.clear();
        LOG.warn("git is off for the memories in {}: {}", directory, reason);
        LOG.debug("Why git is off for {}", directory, cause);
        closeRepository();
    }

    /** Switches git off because reading the changes failed. */
    void failedToRead(Exception e) {
        off("the repository " + dotGit + " cannot be read (" + e + "). Repair it (git status in " + directory
                + "), or set 'git: false'", e);
    }

    private void closeRepository() {
        if (repository != null) {
            repository.close();
            repository = null;
        }
    }

    /** Closes the repository. */
    void close() {
        closeRepository();
    }
}
