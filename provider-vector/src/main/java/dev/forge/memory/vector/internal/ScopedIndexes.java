package dev.forge.memory.vector.internal;

import dev.forge.memory.Scope;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.MultiReader;
import org.apache.lucene.search.IndexSearcher;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The two indexes a vector provider works on: the project's (PROJECT and SESSION entries, at {@code path}) and the
 * GLOBAL one every project shares (at {@code global_path}), or one index for all three when both settings name one
 * directory. A read over scopes of both searches one {@link MultiReader} of the two, so that BM25's statistics and the
 * vector search span both and scores from either index are on one scale.
 */
public final class ScopedIndexes {

    private final VectorIndex project;
    private final VectorIndex global;

    private ScopedIndexes(VectorIndex project, VectorIndex global) {
        this.project = project;
        this.global = global;
    }

    /**
     * Opens the project index at {@code projectDirectory} and the shared GLOBAL index at {@code globalDirectory}, each
     * created with {@code fresh}'s state when missing. When both are one directory (a {@code global_path} naming the
     * project's index, or a project whose {@code path} is the shared index, such as one in the home directory), one
     * index holds all three scopes, opened as the shared index is, so that it locks out no other project. Nothing is
     * left open if either fails.
     */
    public static ScopedIndexes open(Path projectDirectory, Path globalDirectory, Supplier<IndexState> fresh) {
        if (sameDirectory(projectDirectory, globalDirectory)) {
            GlobalIndex one = GlobalIndex.acquire(globalDirectory, fresh, GlobalIndex.LOCK_WAIT);
            return new ScopedIndexes(one, one);
        }
        SharedIndex project = SharedIndex.acquire(projectDirectory, fresh);
        try {
            return new ScopedIndexes(project, GlobalIndex.acquire(globalDirectory, fresh, GlobalIndex.LOCK_WAIT));
        } catch (RuntimeException e) {
            project.release();
            throw e;
        }
    }

    /**
     * The name of the model the indexes at these directories record, read without opening them: the project's, else
     * the GLOBAL one's (a new project then reads the GLOBAL memories other projects wrote with no reindex); empty when
     * neither exists yet.
     */
    public static Optional<String> recordedModel(Path projectDirectory, Path globalDirectory) {
        return IndexFiles.peek(projectDirectory).or(() -> IndexFiles.peek(globalDirectory)).map(IndexState::model);
    }

    /** Whether the two paths name one existing directory (links resolved). */
    private static boolean sameDirectory(Path a, Path b) {
        if (a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize())) {
            return true;
        }
        try {
            return java.nio.file.Files.exists(a) && java.nio.file.Files.exists(b) && java.nio.file.Files.isSameFile(a, b);
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** The index holding {@code scope}'s entries. */
    public VectorIndex of(Scope scope) {
        return scope == Scope.GLOBAL ? global : project;
    }

    /** The project's index. */
    public VectorIndex project() {
        return project;
    }

    /** The GLOBAL index; the project's own when {@link #split()} is false. */
    public VectorIndex global() {
        return global;
    }

    /** Whether GLOBAL lives in an index of its own. */
    public boolean split() {
        return project != global;
    }

    /** Every distinct index, the project's first. */
    public List<VectorIndex> all() {
        return split() ? List.of(project, global) : List.of(project);
    }

    /** The distinct indexes holding entries of {@code scopes}, the project's first. */
    public List<VectorIndex> of(Set<Scope> scopes) {
        boolean needsGlobal = split() && scopes.contains(Scope.GLOBAL);
        boolean needsProject = !split() || scopes.stream().anyMatch(scope -> scope != Scope.GLOBAL);
        if (needsGlobal && needsProject) {
            return List.of(project, global);
        }
        return List.of(needsGlobal ? global : project);
    }

    /**
     * Runs {@code work} on a searcher over the indexes holding {@code scopes}: one index's own searcher, or one over a
     * {@link MultiReader} of both (taken project first, so that two such reads never wait for each other in turn).
     */
    public <T> T read(Set<Scope> scopes, VectorIndex.SearcherWork<T> work) {
        List<VectorIndex> indexes = of(scopes);
        if (indexes.size() == 1) {
            return indexes.get(0).read(work);
        }
        return project.read(projectSearcher -> global.read(globalSearcher -> {
            // closeSubReaders false: the MultiReader takes a reference to each reader and gives it back on close
            try (MultiReader both = new MultiReader(new IndexReader[] {projectSearcher.getIndexReader(),
                    globalSearcher.getIndexReader()}, false)) {
                return work.apply(new IndexSearcher(both));
            }
        }));
    }

    /** The directories of the indexes holding {@code scopes}, for messages. */
    public String location(Set<Scope> scopes) {
        return String.join(" and ", of(scopes).stream().map(index -> index.directory().toString()).toList());
    }

    /** Releases both indexes. */
    public void release() {
        try {
            project.release();
        } finally {
            if (split()) {
                global.release();
            }
        }
    }
}
