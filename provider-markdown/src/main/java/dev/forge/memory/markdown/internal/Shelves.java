package dev.forge.memory.markdown.internal;

import dev.forge.memory.Keys;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Where the memories of one markdown store live: the project's and the global {@link Root}, the {@link Shelf} of each
 * scope, and the documents of the layered layout. Counts the changes of the index, so that what is derived from it
 * (the relations) knows when to be built again. Used holding the store's index lock.
 */
final class Shelves {

    final Root projectRoot;
    final Root globalRoot;
    final Shelf project;
    final Shelf session;
    final Shelf global;
    /** The documents of the layered layout; null in the standard one. */
    final Documents documents;
    private long changes;

    Shelves(Path projectDirectory, Path globalDirectory, boolean layered, String sessionId, long maxFileSize,
            boolean fsync, GitOptions git, Clock clock) {
        this.projectRoot = new Root(projectDirectory, fsync, git, clock);
        this.globalRoot = new Root(globalDirectory, fsync, git, clock);
        Path versions = layered ? projectDirectory.resolve(MarkdownStore.LAYERED_VERSION_DIRECTORY) : projectDirectory;
        this.documents = layered ? new Documents(projectDirectory, maxFileSize) : null;
        this.project = new Shelf(Scope.PROJECT, versions, maxFileSize, documents);
        this.session = new Shelf(Scope.SESSION,
                versions.resolve(MarkdownStore.SESSION_DIRECTORY).resolve(Keys.toFileName(sessionId)), maxFileSize);
        this.global = new Shelf(Scope.GLOBAL, globalDirectory, maxFileSize);
    }

    Shelf shelf(Scope scope) {
        return switch (Objects.requireNonNull(scope, "scope")) {
            case SESSION -> session;
            case PROJECT -> project;
            case GLOBAL -> global;
        };
    }

    Root root(Scope scope) {
        return scope == Scope.GLOBAL ? globalRoot : projectRoot;
    }

    /** The shelves whose directories lie under {@code root}. */
    List<Shelf> under(Root root) {
        return root == globalRoot ? List.of(global) : List.of(project, session);
    }

    /** Every shelf, in the order a version id is looked up: this session's, the project's, the global one. */
    List<Shelf> byLookup() {
        return List.of(session, project, global);
    }

    /** Whether writes of {@code key} in {@code scope} change its document first. */
    boolean documented(Scope scope, String key) {
        return documents != null && scope == Scope.PROJECT && LayeredPaths.isLayered(key);
    }

    /** The live entries of {@code scopes}. */
    List<MemoryEntry> candidates(Set<Scope> scopes) {
        List<MemoryEntry> entries = new ArrayList<>();
        for (Scope scope : scopes) {
            for (Chain chain : shelf(scope).chains()) {
                if (chain.live()) {
                    entries.add(chain.headEntry());
                }
            }
        }
        return entries;
    }

    /** The head entry of {@code chain}, if there is one and it is not deleted. */
    static Optional<MemoryEntry> live(Chain chain) {
        return chain != null && chain.live() ? Optional.of(chain.headEntry()) : Optional.empty();
    }

    /** Notes that the index changed: a file was written, removed or scanned, a document changed. */
    void changed() {
        changes++;
    }

    /** How many times the index changed; what is derived from it is current while this stays the same. */
    long changes() {
        return changes;
    }
}
