package dev.forge.memory.markdown.internal;

import dev.forge.memory.Keys;
import dev.forge.memory.Scope;
import dev.forge.memory.StoreProblem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** What {@code doctor} says about one {@link Shelf}: its unreadable files, unfinished restores and broken chains. */
final class ShelfProblems {

    private ShelfProblems() {
    }

    /**
     * What is wrong in a shelf, in a stable order.
     *
     * @param unreadable the unreadable files by name
     * @param unfinished the versions of unfinished restores by key
     * @param stored     the chains of version files by key
     * @param documents  the documents of the layered layout, or null
     * @param superseded the ids a readable file supersedes or replaces
     */
    static List<StoreProblem> of(Scope scope, Path directory, Map<String, StoreProblem> unreadable,
            Map<String, List<IndexedFile>> unfinished, Map<String, Chain> stored, Documents documents,
            Set<String> superseded) {
        List<StoreProblem> problems = new ArrayList<>();
        unreadable.forEach((name, problem) -> problems.add(new StoreProblem(problem.location(), problem.problem()
                + heldBackNote(name.substring(0, name.length() - MemoryFileCodec.FILE_SUFFIX.length()), directory,
                stored, superseded))));
        String scopeName = scope.name().toLowerCase(Locale.ROOT);
        new TreeMap<>(unfinished).forEach((key, pending) -> {
            for (IndexedFile version : pending) {
                problems.add(new StoreProblem(directory + " (key '" + Keys.abbreviate(key) + "', " + scopeName + ")",
                        version.name() + " (version " + version.file().version() + ") belongs to a restore that did "
                        + "not finish (its head " + version.file().committedBy().orElseThrow() + " was never "
                        + "written); it is ignored, and removed by the next write to this directory"));
            }
        });
        new TreeMap<>(stored).forEach((key, chain) -> {
            for (String problem : chain.problems()) {
                problems.add(new StoreProblem(directory + " (key '" + Keys.abbreviate(key) + "', " + scopeName + ")",
                        problem));
            }
        });
        if (documents != null) {
            problems.addAll(documents.problems());
        }
        return problems;
    }

    /** What an unreadable version file with {@code id} holds back: nothing, or a key. */
    private static String heldBackNote(String id, Path directory, Map<String, Chain> stored, Set<String> superseded) {
        if (!VersionIds.fingerprinted(id) || superseded.contains(id)) {
            return "";
        }
        List<String> keys = new TreeMap<>(stored).keySet().stream().filter(key -> VersionIds.mayBelongTo(id, key))
                .map(key -> "'" + Keys.abbreviate(key) + "'").toList();
        return "; it may be the newest version of " + (keys.isEmpty() ? "a memory with no other version here"
                : (keys.size() == 1 ? "key " : "one of the keys ") + String.join(", ", keys))
                + ", which is not served, and not written to, until the file is repaired or moved out of " + directory;
    }
}
