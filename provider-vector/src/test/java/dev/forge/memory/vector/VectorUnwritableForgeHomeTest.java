package dev.forge.memory.vector;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.UnprivilegedJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A forge home the process may not write to (mode 0500), in a child JVM that permissions apply to: the provider is
 * refused with one sentence naming the shared index, {@code $FORGE_HOME} and {@code global_path}, and the project's
 * index keeps what it held.
 */
class VectorUnwritableForgeHomeTest {

    @TempDir
    Path base;

    /** The child: opens the provider on the project directory and forge home given, and prints what happened. */
    public static void main(String[] args) {
        Path project = Path.of(args[0]);
        Path forgeHome = Path.of(args[1]);
        if (Files.isWritable(forgeHome)) {
            System.exit(UnprivilegedJvm.PERMISSIONS_NOT_ENFORCED);
        }
        try (MemoryProvider provider = new VectorMemoryProviderFactory().open(VectorStores.context(project, "p",
                VectorStores.hashing(384, Map.of())).toBuilder().forgeHome(forgeHome).build())) {
            System.out.println("opened");
        } catch (BackendUnavailableException e) {
            System.out.println("refused " + e.getMessage());
        }
    }

    @Test
    void an_unwritable_forge_home_is_refused_with_what_to_do_and_the_project_index_keeps_its_entries() throws Exception {
        Path project = Files.createDirectories(base.resolve("project"));
        Path forgeHome = Files.createDirectories(base.resolve("forge-home"));
        try (MemoryProvider provider = new VectorMemoryProviderFactory().open(VectorStores.context(project, "p",
                VectorStores.hashing(384, Map.of("global_path", "own-global"))).toBuilder().forgeHome(forgeHome).build())) {
            provider.set("build", "maven", Scope.PROJECT);
        }
        Files.setPosixFilePermissions(forgeHome, PosixFilePermissions.fromString("r-x------"));
        try {
            UnprivilegedJvm.Result result = UnprivilegedJvm.run(base, VectorUnwritableForgeHomeTest.class,
                    project.toString(), forgeHome.toString());
            assertThat(result.exitCode()).as("stderr: %s", result.err()).isZero();
            assertThat(result.out()).startsWith("refused ").contains(forgeHome.resolve("vectors").toString())
                    .contains("$FORGE_HOME").contains("'global_path'");
        } finally {
            Files.setPosixFilePermissions(forgeHome, PosixFilePermissions.fromString("rwx------"));
        }
        assertThat(forgeHome.resolve("vectors")).doesNotExist();
        try (MemoryProvider provider = new VectorMemoryProviderFactory().open(VectorStores.context(project, "p",
                VectorStores.hashing(384, Map.of())).toBuilder().forgeHome(forgeHome).build())) {
            assertThat(provider.get("build", Scope.PROJECT).orElseThrow().value()).isEqualTo("maven");
        }
    }
}
