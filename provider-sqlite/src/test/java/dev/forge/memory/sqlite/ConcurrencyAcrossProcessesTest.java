package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real second JVM, {@link SqliteChildWriter}, writing to the database file while this JVM's provider writes to it:
 * no "database is locked" reaches either side, and no write is lost.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ConcurrencyAcrossProcessesTest {

    private static final int CHILD_ENTRIES = 60;

    @TempDir
    Path directory;

    @TempDir
    Path signals;

    @Test
    void two_processes_writing_one_file_at_once_lose_nothing_and_never_see_it_locked() throws Exception {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            Process child = ChildWriters.startAndGo(signals, SqliteChildWriter.class, directory.toString(),
                    Integer.toString(CHILD_ENTRIES), signals.toString());
            int parentWrites = 0;
            try {
                // Write while the child is alive (and at least a few times), reading in between. A short pause lets the
                // child's busy handler find the lock free: SQLite's lock is not fair, and a writer that never pauses
                // makes the other process wait (boundedly, by busy_timeout) for each write.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (System.nanoTime() < deadline && (parentWrites < 20 || child.isAlive())) {
                    provider.set("parent:" + parentWrites, "from the parent", Scope.PROJECT);
                    provider.set("shared", "parent write " + parentWrites, Scope.PROJECT);
                    provider.query(Query.of("child:*", Scope.PROJECT));
                    parentWrites++;
                    Thread.sleep(1);
                }
                ChildWriters.awaitSuccess(child, signals);
            } finally {
                child.destroyForcibly();
            }

            assertThat(provider.query(Query.of("parent:*", Scope.PROJECT))).hasSize(parentWrites);
            assertThat(provider.query(Query.of("child:*", Scope.PROJECT))).hasSize(CHILD_ENTRIES - 1);
            assertThat(provider.get("from-child", Scope.GLOBAL)).isPresent();
            long sharedWrites = parentWrites + CHILD_ENTRIES;
            assertThat(provider.get("shared", Scope.PROJECT).orElseThrow().version()).isEqualTo(sharedWrites);
            List<MemoryEntry> versions = provider.requireHistory().versions("shared", Scope.PROJECT);
            assertThat(versions).extracting(MemoryEntry::version)
                    .containsExactlyElementsOf(LongStream.rangeClosed(1, sharedWrites).boxed().toList());
            String writers = versions.stream().map(v -> v.value().startsWith("child") ? "C" : "P").collect(Collectors.joining());
            assertThat(writers.replaceAll("(.)\\1+", "$1")).as("who wrote each version: %s", writers).hasSizeGreaterThanOrEqualTo(3);
            assertThat(provider.doctor()).isEmpty();
        }
    }
}
