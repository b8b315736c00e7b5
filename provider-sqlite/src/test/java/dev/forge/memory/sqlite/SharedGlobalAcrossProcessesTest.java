package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two projects in two directories, one process each, writing the shared GLOBAL database at once: the second project is
 * never locked out by the first one's open provider, and no GLOBAL write of either is lost.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SharedGlobalAcrossProcessesTest {

    private static final int CHILD_WRITES = 40;

    @TempDir
    Path directory;

    @TempDir
    Path signals;

    @Test
    void two_projects_writing_global_at_once_lose_nothing() throws Exception {
        Path forgeHome = directory.resolve("forge-home");
        Path otherProject = Files.createDirectories(directory.resolve("other-checkout"));
        try (SqliteMemoryProvider provider = Stores.open(directory, Map.of("busy_timeout", "60s"))) {
            // The child opens its provider while this one is open: a second project is never locked out.
            Process child = ChildWriters.startAndGo(signals, SqliteGlobalChildWriter.class, forgeHome.toString(),
                    otherProject.toString(), Integer.toString(CHILD_WRITES), signals.toString());
            int parentWrites = 0;
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (System.nanoTime() < deadline && (parentWrites < 10 || child.isAlive())) {
                    provider.set("counter", "parent write " + parentWrites, Scope.GLOBAL);
                    provider.set("parent:" + parentWrites, "a global fact from project-a", Scope.GLOBAL);
                    provider.set("mine:" + parentWrites, "project-a's own", Scope.PROJECT);
                    parentWrites++;
                    Thread.sleep(1);
                }
                ChildWriters.awaitSuccess(child, signals);
            } finally {
                child.destroyForcibly();
            }
            assertThat(provider.query(Query.of("child:*", Scope.GLOBAL))).hasSize(CHILD_WRITES);
            assertThat(provider.query(Query.of("parent:*", Scope.GLOBAL))).hasSize(parentWrites);
            assertThat(provider.query(Query.of("mine:*", Scope.PROJECT))).hasSize(parentWrites)
                    .allSatisfy(entry -> assertThat(entry.value()).isEqualTo("project-a's own"));
            long counterWrites = parentWrites + CHILD_WRITES;
            List<MemoryEntry> versions = provider.requireHistory().versions("counter", Scope.GLOBAL);
            assertThat(versions).extracting(MemoryEntry::version)
                    .containsExactlyElementsOf(LongStream.rangeClosed(1, counterWrites).boxed().toList());
            assertThat(provider.doctor()).isEmpty();
        }
    }
}
