package dev.forge.memory.file.internal;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.StorageException;
import dev.forge.memory.file.internal.Journal.Line;
import dev.forge.memory.Keys;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves the GLOBAL entries an older version kept in a project store ({@code <base_path>/global}) into the shared
 * global store, each with its whole history (versions and timestamps as they were).
 *
 * <p>Under both exclusive locks (the project store's first), each key is restored into the shared store as one
 * recorded commit there, then removed from the project store; relations stay where they are (their GLOBAL ends now
 * name the shared entries). A crash between the two leaves the key in both with the same content, and the next open
 * removes it from the project store. A key the shared store already holds with another current version is left in
 * the project store, and {@code doctor} names it with what to do ({@link StoreDoctor}); so is one whose history
 * cannot be read. Nothing is overwritten or dropped.
 */
final class GlobalMigration {

    private static final Logger LOG = LoggerFactory.getLogger(GlobalMigration.class);

    private GlobalMigration() {
    }

    /** Moves what it can from {@code project}'s own GLOBAL directory into its shared global store. */
    static void run(FileStore project) {
        Namespace global = project.namespace(Scope.GLOBAL);
        if (!project.globalApart() || project.readWhole(List.of(global), () -> project.index.get(global).entries.isEmpty())) {
            return;
        }
        FileStore shared = project.shared();
        int moved = project.write("move its GLOBAL entries into the shared global store " + shared.directory(), changes -> {
            project.fileIndex.rescan(global);
            List<String> done = new ArrayList<>();
            shared.write("take the GLOBAL entries of " + project.directory(), sharedChanges -> {
                for (Map.Entry<String, MemoryEntry> left : List.copyOf(project.index.get(global).entries.entrySet())) {
                    if (moveOne(project, shared, global, left.getKey(), left.getValue(), sharedChanges)) {
                        done.add(left.getKey());
                    }
                }
                return null;
            });
            if (done.isEmpty()) {
                return 0;
            }
            List<Line> lines = new ArrayList<>();
            done.forEach(name -> lines.add(Line.delete(global, name)));
            project.announce(changes, lines);
            for (String name : done) {
                project.files.remove(global, name, changes);
                project.fileIndex.indexRemove(global, name);
            }
            project.files.sync(global);
            return done.size();
        });
        if (moved > 0) {
            LOG.info("Moved {} GLOBAL entries from {} into the shared global store {}", moved, project.directory(), shared.directory());
        }
    }

    /** Whether {@code name} is now in the shared store as it is here, so that the project store may let it go. */
    private static boolean moveOne(FileStore project, FileStore shared, Namespace global, String name, MemoryEntry current,
                                   FileChanges sharedChanges) throws java.io.IOException {
        shared.fileIndex.reload(global, name);
        Lookup there = shared.lookup(global, name);
        if (there.entry() != null || there.damaged() != null) {
            boolean same = current.equals(there.entry());
            if (!same) {
                LOG.warn("GLOBAL key '{}' of {} was not moved: the shared global store {} holds another value for it; "
                        + "see 'forge-memory doctor'", Keys.abbreviate(current.key()), project.directory(), shared.directory());
            }
            return same;
        }
        List<MemoryEntry> chain;
        try {
            chain = project.files.versions(global, name, current);
        } catch (RuntimeException e) {
            LOG.warn("GLOBAL key '{}' of {} was not moved: {}", Keys.abbreviate(current.key()), project.directory(), e.getMessage());
            return false;
        }
        try {
            shared.commits.applyRecorded(List.of(new CommitLog.Restore(global, chain)), sharedChanges,
                    FileCommits.Recorded.restore(current.key()));
        } catch (StorageException e) {
            LOG.warn("GLOBAL key '{}' of {} was not moved: {}", Keys.abbreviate(current.key()), project.directory(), e.getMessage());
            return false;
        }
        return true;
    }
}
