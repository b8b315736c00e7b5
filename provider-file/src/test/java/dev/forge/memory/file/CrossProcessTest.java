package dev.forge.memory.file;

import static dev.forge.memory.file.Stores.open;
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
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A real second process, {@link ChildWriter}, writing into a directory this JVM has open. */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class CrossProcessTest {

    private static final int CHILD_ENTRIES = 30;

    @TempDir
    Path store;

    @TempDir
    Path signals;

    private Process startChild() throws IOException {
        ProcessBuilder builder = new ProcessBuilder(ChildJvm.command(ChildWriter.class, store.toString(),
                Stores.PROJECT, Integer.toString(CHILD_ENTRIES), signals.toString()));
        builder.redirectErrorStream(true);
        builder.redirectOutput(signals.resolve("child.log").toFile());
        return builder.start();
    }

    private String log() throws IOException {
        return Files.readString(signals.resolve("child.log"), StandardCharsets.UTF_8);
    }

    /** Waits until the child has its provider open, so that what follows overlaps with it. */
    private void awaitReady(Process child) throws IOException {
        boolean ready = ChildJvm.awaitFile(signals.resolve("ready"), Duration.ofMinutes(5));
        assertThat(ready).as("the child opened the store; alive: %s, its output:%n%s", child.isAlive(), log()).isTrue();
    }

    private void awaitSuccess(Process child) throws Exception {
        boolean exited = child.waitFor(5, TimeUnit.MINUTES);
        assertThat(exited).as("the child process finished in time; its output:%n%s", log()).isTrue();
        assertThat(child.exitValue()).as("the child process succeeded; its output:%n%s", log()).isZero();
    }

    @Test
    void entries_written_by_another_process_are_seen_by_an_open_provider() throws Exception {
        try (FileMemoryProvider provider = open(store)) {
            provider.set("shared", "parent write before the child", Scope.PROJECT);
            assertThat(provider.query(Query.of("child:*"))).isEmpty();

            Process child = startChild();
            try {
                awaitReady(child);
                ChildJvm.signal(signals.resolve("go"));
                awaitSuccess(child);
            } finally {
                child.destroyForcibly();
            }

            List<MemoryEntry> children = provider.query(Query.of("child:*", Scope.PROJECT));
            assertThat(children).hasSize(CHILD_ENTRIES - 1).extracting(MemoryEntry::key).doesNotContain("child:0");
            assertThat(provider.get("child:7", Scope.PROJECT).orElseThrow().value()).isEqualTo("written by the child process, entry 7");
            assertThat(provider.get("from-child", Scope.GLOBAL)).isPresent();
            // The child continued the parent's version sequence instead of starting its own.
            MemoryEntry shared = provider.get("shared", Scope.PROJECT).orElseThrow();
            assertThat(shared.version()).isEqualTo(CHILD_ENTRIES + 1);
            assertThat(shared.value()).isEqualTo("child write " + (CHILD_ENTRIES - 1));
            assertThat(provider.requireHistory().versions("shared", Scope.PROJECT)).hasSize(CHILD_ENTRIES + 1)
                    .first().extracting(MemoryEntry::value).isEqualTo("parent write before the child");
            // The child's session entries would be invisible; it wrote none, and its session is not ours.
            assertThat(provider.query(Query.of("*", Scope.SESSION))).isEmpty();
        }
    }

    @Test
    void a_parent_and_a_child_writing_at_the_same_time_lose_no_write() throws Exception {
        try (FileMemoryProvider provider = open(store)) {
            Process child = startChild();
            int parentWrites = 0;
            try {
                awaitReady(child);
                // Both are open; both start writing now.
                ChildJvm.signal(signals.resolve("go"));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (parentWrites < 400 && System.nanoTime() < deadline && (parentWrites < 20 || child.isAlive())) {
                    provider.set("parent:" + parentWrites, "from the parent", Scope.PROJECT);
                    provider.set("shared", "parent write " + parentWrites, Scope.PROJECT);
                    parentWrites++;
                    // Let a waiting child in: an OS file lock is not fair, a release and a re-lock can starve it.
                    Thread.sleep(1);
                }
                awaitSuccess(child);
            } finally {
                child.destroyForcibly();
            }

            assertThat(provider.query(Query.of("parent:*", Scope.PROJECT))).hasSize(parentWrites);
            assertThat(provider.query(Query.of("child:*", Scope.PROJECT))).hasSize(CHILD_ENTRIES - 1);
            long sharedWrites = parentWrites + CHILD_ENTRIES;
            assertThat(provider.get("shared", Scope.PROJECT).orElseThrow().version()).isEqualTo(sharedWrites);
            List<MemoryEntry> versions = provider.requireHistory().versions("shared", Scope.PROJECT);
            assertThat(versions).extracting(MemoryEntry::version)
                    .containsExactlyElementsOf(LongStream.rangeClosed(1, sharedWrites).boxed().toList());
            // The writes really overlapped: the key's history alternates between the two processes more than once.
            String writers = versions.stream().map(v -> v.value().startsWith("child") ? "C" : "P").collect(Collectors.joining());
            assertThat(writers.replaceAll("(.)\\1+", "$1")).as("who wrote each version: %s", writers).hasSizeGreaterThanOrEqualTo(3);
        }
    }
}
