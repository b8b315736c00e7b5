package dev.forge.memory.file;

import static dev.forge.memory.file.Stores.open;
import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A real second process, {@link ChildWriter}, writing into a directory this JVM has open. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class CrossProcessTest {

    private static final int CHILD_ENTRIES = 30;

    @TempDir
    Path store;

    @TempDir
    Path logs;

    private Process startChild() throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                ChildWriter.class.getName(), store.toString(), Stores.PROJECT, Integer.toString(CHILD_ENTRIES));
        builder.redirectErrorStream(true);
        builder.redirectOutput(logs.resolve("child.log").toFile());
        return builder.start();
    }

    private void awaitSuccess(Process child) throws Exception {
        boolean exited = child.waitFor(60, TimeUnit.SECONDS);
        if (!exited) {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String log = Files.readString(logs.resolve("child.log"), StandardCharsets.UTF_8);
        assertThat(exited).as("the child process finished in time; its output:%n%s", log).isTrue();
        assertThat(child.exitValue()).as("the child process succeeded; its output:%n%s", log).isZero();
    }

    @Test
    void entries_written_by_another_process_are_seen_by_an_open_provider() throws Exception {
        try (FileMemoryProvider provider = open(store)) {
            provider.set("shared", "parent write before the child", Scope.PROJECT);
            assertThat(provider.query(Query.of("child:*"))).isEmpty();

            awaitSuccess(startChild());

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
            // Write while the child is running (bounded, in case it finishes early or hangs).
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (parentWrites < 200 && System.nanoTime() < deadline && (parentWrites < 20 || child.isAlive())) {
                provider.set("parent:" + parentWrites, "from the parent", Scope.PROJECT);
                provider.set("shared", "parent write " + parentWrites, Scope.PROJECT);
                parentWrites++;
            }
            awaitSuccess(child);

            assertThat(provider.query(Query.of("parent:*", Scope.PROJECT))).hasSize(parentWrites);
            assertThat(provider.query(Query.of("child:*", Scope.PROJECT))).hasSize(CHILD_ENTRIES - 1);
            long sharedWrites = parentWrites + CHILD_ENTRIES;
            assertThat(provider.get("shared", Scope.PROJECT).orElseThrow().version()).isEqualTo(sharedWrites);
            assertThat(provider.requireHistory().versions("shared", Scope.PROJECT)).extracting(MemoryEntry::version)
                    .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, sharedWrites).boxed().toList());
        }
    }
}
