package dev.forge.memory.markdown;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether the {@code markdown} provider commits its writes to one memory directory's git repository
 * ({@code git: true}), and if not, why. See {@link MarkdownMemoryProvider#gitStatus()}.
 *
 * @param directory the memory directory (the project's or the global one): the repository's working tree
 * @param on        whether every write to the directory is followed by a commit
 * @param offReason when off, why: the configuration, or the error that switched git off for this provider (a
 *                  repository that cannot be opened or created, a commit that failed) and what to do about it
 */
public record GitStatus(Path directory, boolean on, Optional<String> offReason) {

    /** Checks that an off status has a reason and an on status none. */
    public GitStatus {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(offReason, "offReason");
        if (on == offReason.isPresent()) {
            throw new IllegalArgumentException("a git status that is off has a reason, one that is on has none");
        }
    }
}
