package dev.forge.memory.markdown.internal;

import java.util.Objects;

/**
 * Whether the markdown store commits its writes to git ({@code git: true}), and as whom.
 *
 * @param on          whether each memory directory is a git repository that every write commits to
 * @param authorName  the author and committer name of the commits
 * @param authorEmail their email address
 */
public record GitOptions(boolean on, String authorName, String authorEmail) {

    /** The author of the commits unless configured: {@code forge-memory <forge-memory@localhost>}. */
    public static final String DEFAULT_NAME = "forge-memory";

    /** The default author's email address. */
    public static final String DEFAULT_EMAIL = "forge-memory@localhost";

    /** Git off. */
    public static final GitOptions OFF = new GitOptions(false, DEFAULT_NAME, DEFAULT_EMAIL);

    /** Checks that the names are present. */
    public GitOptions {
        Objects.requireNonNull(authorName, "authorName");
        Objects.requireNonNull(authorEmail, "authorEmail");
    }
}
