package dev.forge.memory.markdown;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Scope;
import dev.forge.memory.conformance.OwnerOnlyFiles;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.StoreSecurityContract;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The markdown provider's store is owner-only and its log holds no values: see {@link StoreSecurityContract}. */
class MarkdownSecurityTest extends StoreSecurityContract {

    @Override
    protected MemoryProvider open(Path store) {
        return Stores.open(store);
    }

    /**
     * JGit creates the files of {@code .git} with the umask's permissions (a documented exception); they are out of
     * others' reach only because the memory directory holding {@code .git} is owner-only, which this checks.
     */
    @Test
    void with_git_on_only_the_repository_follows_the_umask_and_its_directory_is_private() {
        Assumptions.assumeTrue(OwnerOnlyFiles.posix(store), "POSIX permissions only");
        try (MarkdownMemoryProvider provider = Stores.open(store, new MarkdownConfig(null, null, null, false, null, true, null))) {
            provider.set("note", "a private note", Scope.PROJECT);
            provider.set("everyone", "a global note", Scope.GLOBAL);
        }
        List<String> exposed = OwnerOnlyFiles.exposed(store);
        assertThat(exposed).isNotEmpty().allMatch(p -> p.contains("/.git/") || p.contains("/.git "), "inside a .git directory");
        assertThat(exposed).noneMatch(p -> p.startsWith(".forge/memory ") || p.startsWith(".forge "));
    }
}
