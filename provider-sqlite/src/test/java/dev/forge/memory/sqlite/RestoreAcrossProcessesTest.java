package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.conformance.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real second JVM, {@link SqliteChildRestorer}, restoring keys in a loop and killed (SIGKILL) at a random moment,
 * most likely inside a restore's transaction: every key holds one whole chain afterwards, never a mix of two, never
 * without its relation, and the file and its search index check clean.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RestoreAcrossProcessesTest {

    private static final int KEYS = 30;
    private static final Instant T1 = Instant.parse("2020-01-02T03:04:05.006Z");
    private static final Instant T2 = Instant.parse("2021-01-02T03:04:05.006Z");

    @TempDir
    Path directory;

    @TempDir
    Path signals;

    /** One of two chains of {@code key}: three versions of "alpha" words, or two of "beta" words with a gap. */
    static List<MemoryEntry> chain(String key, boolean alpha) {
        if (alpha) {
            return List.of(new MemoryEntry(key, "alpha first", Scope.PROJECT, List.of("a"), Map.of(), T1, T1, 1),
                    new MemoryEntry(key, "alpha second", Scope.PROJECT, List.of("a"), Map.of(), T1, T1, 2),
                    new MemoryEntry(key, "alpha third", Scope.PROJECT, List.of("a"), Map.of("n", 3L), T1, T2, 3));
        }
        return List.of(new MemoryEntry(key, "beta first", Scope.PROJECT, List.of("b"), Map.of(), T2, T2, 5),
                new MemoryEntry(key, "beta last", Scope.PROJECT, List.of("b", "c"), Map.of("n", 9L), T2, T2, 9));
    }

    @Test
    void a_process_killed_while_restoring_leaves_every_key_with_one_whole_chain() throws Exception {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("anchor", "every key points here", Scope.PROJECT);
            for (int i = 0; i < KEYS; i++) {
                provider.set("k:" + i, "before the import", Scope.PROJECT);
                provider.requireGraph().relate(EntryRef.of("k:" + i, Scope.PROJECT), EntryRef.of("anchor", Scope.PROJECT), "POINTS_AT");
            }
            Process child = new ProcessBuilder(ChildJvm.command(SqliteChildRestorer.class, directory.toString(),
                    Integer.toString(KEYS), signals.toString()))
                    .redirectErrorStream(true).redirectOutput(signals.resolve("child.log").toFile()).start();
            try {
                assertThat(ChildJvm.awaitFile(signals.resolve("started"), Duration.ofMinutes(5)))
                        .as("the child restored two passes; its output:%n%s", log()).isTrue();
                Thread.sleep(ThreadLocalRandom.current().nextInt(5, 60));
                assertThat(child.isAlive()).as("the child was still restoring; its output:%n%s", log()).isTrue();
            } finally {
                child.destroyForcibly();
                child.waitFor(5, TimeUnit.MINUTES);
            }

            int alphas = 0;
            for (int i = 0; i < KEYS; i++) {
                String key = "k:" + i;
                List<MemoryEntry> history = provider.requireHistory().versions(key, Scope.PROJECT);
                assertThat(history).as(key).isIn(chain(key, true), chain(key, false));
                assertThat(provider.get(key, Scope.PROJECT)).contains(history.get(history.size() - 1));
                assertThat(provider.requireGraph().relations(EntryRef.of(key, Scope.PROJECT), Direction.OUTGOING)).as(key).hasSize(1);
                alphas += history.size() == 3 ? 1 : 0;
            }
            assertThat(provider.search(SearchRequest.builder("alpha").limit(100).build())).hasSize(alphas);
            assertThat(provider.search(SearchRequest.builder("beta").limit(100).build())).hasSize(KEYS - alphas);
            assertThat(provider.doctor()).isEmpty();
        }
    }

    private String log() throws java.io.IOException {
        Path file = signals.resolve("child.log");
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }
}
