package dev.forge.memory.file.internal;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.Scope;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.file.internal.EntryFiles.Loaded;
import dev.forge.memory.support.files.AtomicFiles;
import dev.forge.memory.support.files.Interrupts;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What is wrong with the files a provider sees, for {@code doctor}: in its project store and, when GLOBAL lives
 * apart, in the shared global store, plus the GLOBAL entries an old project store still holds because the shared store
 * has another value for the key.
 */
public final class StoreDoctor {

    private StoreDoctor() {
    }

    /**
     * Entry files that cannot be read (skipped, their keys unreadable), files moved aside as
     * {@code NAME.corrupt-TIMESTAMP} by a later write of their key, a damaged relations file, and GLOBAL entries left in
     * {@code project}'s own {@code global} directory; sorted by location.
     */
    public static List<StoreProblem> problems(FileStore project) {
        project.checkOpen();
        List<StoreProblem> problems = new ArrayList<>(of(project));
        // A shared store never made (no GLOBAL entry yet) is not made by looking for problems.
        if (project.globalApart() && Files.exists(project.sharedDirectory())) {
            FileStore shared;
            try {
                shared = project.shared();
            } catch (MemoryException e) {
                problems.add(new StoreProblem(project.sharedDirectory().toString(), "the shared global store cannot be "
                        + "opened: " + e.getMessage()));
                problems.sort(Comparator.comparing(StoreProblem::location).thenComparing(StoreProblem::problem));
                return List.copyOf(problems);
            }
            problems.addAll(of(shared));
            problems.addAll(Interrupts.deferred(() -> project.caughtUp("check the store", () -> {
                project.fileIndex.complete(List.of(project.namespace(Scope.GLOBAL)));
                return leftOver(project, shared);
            })));
        }
        problems.sort(Comparator.comparing(StoreProblem::location).thenComparing(StoreProblem::problem));
        return List.copyOf(problems);
    }

    private static List<StoreProblem> of(FileStore store) {
        return Interrupts.deferred(() -> store.caughtUp("check the store", () -> {
            store.fileIndex.complete(List.copyOf(store.index.keySet()));
            List<StoreProblem> problems = new ArrayList<>();
            for (Map.Entry<Namespace, FileStore.NamespaceIndex> space : store.index.entrySet()) {
                for (Loaded damaged : space.getValue().damaged.values()) {
                    problems.add(new StoreProblem(damaged.file().toString(), "cannot be read: " + damaged.problem()
                            + "; it is skipped and reading its key fails until it is repaired, removed, or the key stored again"));
                }
                Path directory = store.files.directory(space.getKey());
                if (Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
                    try (Stream<Path> list = Files.list(directory)) {
                        list.filter(f -> f.getFileName().toString().contains(AtomicFiles.CORRUPT_INFIX)).forEach(f ->
                                problems.add(new StoreProblem(f.toString(), "a damaged file moved aside when its key was "
                                        + "stored again; nothing reads it: look into it, then remove it")));
                    }
                }
            }
            if (store.graph.relationsProblem() != null) {
                problems.add(new StoreProblem(store.relationFile.file().toString(), "cannot be read: "
                        + store.graph.relationsProblem() + "; relations are unavailable until it is repaired or removed"));
            }
            return problems;
        }));
    }

    /** The GLOBAL entries the move into the shared store left behind: the shared store holds another value for each. */
    private static List<StoreProblem> leftOver(FileStore project, FileStore shared) {
        List<StoreProblem> problems = new ArrayList<>();
        Namespace global = project.namespace(Scope.GLOBAL);
        for (Map.Entry<String, MemoryEntry> left : project.index.get(global).entries.entrySet()) {
            MemoryEntry entry = left.getValue();
            problems.add(new StoreProblem(project.files.existing(global, left.getKey()).orElse(project.files.target(global, left.getKey())).toString(), "GLOBAL key '"
                    + entry.key() + "' (version " + entry.version() + ") written by an older forge-memory in this project's "
                    + "store was not moved into the shared global store " + shared.directory() + ", which holds another "
                    + "value for it; reads use the shared one. Compare the two, store the value to keep with 'forge-memory "
                    + "set --scope global', then delete this file and its .history directory"));
        }
        return problems;
    }
}
