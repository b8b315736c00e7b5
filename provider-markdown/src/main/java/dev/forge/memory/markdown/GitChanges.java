package dev.forge.memory.markdown;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What other tools changed in the memory directories' git repositories since a {@code markdown} provider opened them:
 * see {@link MarkdownMemoryProvider#changedSinceLoad()}.
 *
 * @param directories one item per memory directory git is on for: the project's, then the global one
 */
public record GitChanges(List<Directory> directories) {

    /** Copies the list. */
    public GitChanges {
        directories = List.copyOf(directories);
    }

    /** Whether anything changed in any of the directories: a commit by another tool, or an uncommitted edit. */
    public boolean changed() {
        return directories.stream().anyMatch(Directory::changed);
    }

    /**
     * The changes in one memory directory.
     *
     * @param directory   the memory directory, the repository's working tree
     * @param baseline    the commit the provider is in step with: HEAD when it opened, moved along by its own commits
     *                    while no other commit came in between; empty if there was no commit then
     * @param head        HEAD now; empty if the repository has no commit (or does not exist yet)
     * @param committed   the paths (relative to the directory, {@code /}-separated, sorted) that commits other than
     *                    this provider's changed since the baseline; when the history was rewritten (a reset, an
     *                    amended commit), every path that differs between the baseline and HEAD
     * @param uncommitted the paths whose uncommitted edits (modified, added, deleted or new files, staged or not) are
     *                    new or different since the provider opened; edits already there at open are not listed
     *                    until they change. Files git ignores, such as {@code .lock}, are never listed
     * @param dirty       whether the working tree has uncommitted edits now, whenever they were made
     */
    public record Directory(Path directory, Optional<String> baseline, Optional<String> head, List<String> committed,
            List<String> uncommitted, boolean dirty) {

        /** Copies the lists. */
        public Directory {
            Objects.requireNonNull(directory, "directory");
            Objects.requireNonNull(baseline, "baseline");
            Objects.requireNonNull(head, "head");
            committed = List.copyOf(committed);
            uncommitted = List.copyOf(uncommitted);
        }

        /** Whether another tool committed a change to a path here since the baseline, or made an uncommitted edit. */
        public boolean changed() {
            return !committed.isEmpty() || !uncommitted.isEmpty();
        }
    }
}
