package dev.forge.memory.markdown.internal;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * Where the repository of a memory directory keeps what it commits, and the rule that it is inside that directory. A
 * {@code .git} file ({@code gitdir: ...}, as a submodule has), a {@code .git} link, or the {@code commondir} of a linked
 * work tree could otherwise lead the commits of private memories into any repository on the machine.
 */
final class GitLocation {

    private GitLocation() {
    }

    /** The repository a {@code .git} leads outside its memory directory; the message says where and what to do. */
    static final class OutsideException extends IOException {
        private static final long serialVersionUID = 1L;

        OutsideException(String message) {
            super(message);
        }
    }

    /**
     * Checks, after {@link FileRepositoryBuilder#setup()}, that the git directory, the common directory and the object
     * directory the builder resolved all lie inside {@code directory}, links resolved.
     *
     * @throws OutsideException if one does not
     * @throws IOException      if one cannot be resolved (it does not exist)
     */
    static void requireInside(FileRepositoryBuilder builder, Path directory, Path dotGit) throws IOException {
        Path root = directory.toRealPath();
        for (File place : new File[] {builder.getGitDir(), builder.getGitCommonDir(), builder.getObjectDirectory()}) {
            if (place == null) {
                continue;
            }
            Path real = place.toPath().toAbsolutePath().normalize();
            real = real.toFile().exists() ? real.toRealPath() : real;
            if (!real.startsWith(root)) {
                throw new OutsideException(dotGit + " leads to the repository " + real + ", outside the memory directory "
                        + directory + ": memories are committed only to a repository inside it, so nothing is committed "
                        + "there. Remove " + dotGit + " (the next write creates a repository of its own) or set 'git: false'");
            }
        }
    }
}
