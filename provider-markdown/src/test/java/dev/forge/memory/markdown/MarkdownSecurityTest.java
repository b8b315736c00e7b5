package dev.forge.memory.markdown;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Scope;
import dev.forge.memory.conformance.OwnerOnlyFiles;
import dev.forge.memory.conformance.Reliability;
import dev.forge.memory.conformance.ValuesNotLogged;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The markdown provider keeps memories private: everything it creates is owner-only (files 0600, directories 0700)
 * whatever the umask (here 022), and no value is logged at INFO or above.
 */
@Tag(Reliability.TAG)
class MarkdownSecurityTest {

    @TempDir
    Path store;

    @Test
    void every_file_and_directory_of_the_store_is_private_to_its_owner() {
        OwnerOnlyFiles.assertAfterWrites(store, () -> Stores.open(store));
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

    @Test
    void no_value_is_logged_at_info_or_above() {
        ValuesNotLogged.check(() -> Stores.open(store));
    }
}
