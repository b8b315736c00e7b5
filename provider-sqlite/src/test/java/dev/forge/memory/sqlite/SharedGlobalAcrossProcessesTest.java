package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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

    private String log() throws IOException {
        return Files.readString(signals.resolve("child.log"), StandardCharsets.UTF_8);
    }

    @Test
    void two_projects_writing_global_at_once_lose_nothing() throws Exception {
        Path forgeHome = directory.resolve("forge-home");
        Path otherProject = Files.createDirectories(directory.resolve("other-checkout"));
        try (SqliteMemoryProvider provider = Stores.open(directory, Map.of("busy_timeout", "60s"))) {
            ProcessBuilder builder = new ProcessBuilder(ChildJvm.command(SqliteGlobalChildWriter.class, forgeHome.toString(),
                    otherProject.toString(), Integer.toString(CHILD_WRITES), signals.toString()));
            builder.redirectErrorStream(true);
            builder.redirectOutput(signals.resolve("child.log").toFile());
            Process child = builder.start();
            int parentWrites = 0;
            try {
                assertThat(ChildJvm.awaitFile(signals.resolve("ready"), Duration.ofSeconds(60)))
                        .as("the child opened its provider while this one is open; its output:%n%s", log()).isTrue();
                ChildJvm.signal(signals.resolve("go"));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (System.nanoTime() < deadline && (parentWrites < 10 || child.isAlive())) {
                    provider.set("counter", "parent write " + parentWrites, Scope.GLOBAL);
                    provider.set("parent:" + parentWrites, "a global fact from project-a", Scope.GLOBAL);
                    provider.set("mine:" + parentWrites, "project-a's own", Scope.PROJECT);
                    parentWrites++;
                    Thread.sleep(1);
                }
                assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("the child finished; its output:%n%s", log()).isTrue();
                assertThat(child.exitValue()).as("the child succeeded; its output:%n%s", log()).isZero();
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
