package dev.forge.memory.hybrid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.conformance.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process importing batches through the router (sqlite storage, vector search) is killed part way, as
 * {@link HybridCrashTest} does with single writes: a batch the storage committed but the search child had not yet
 * written is missing from the child, exactly as one key is. {@code doctor()} must name exactly the keys the child
 * misses, with {@code forge-memory reindex}, and nothing else; after a reindex every key is in the child.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class HybridBatchCrashTest {

    @TempDir
    Path base;

    @Test
    void a_batch_the_search_child_missed_in_a_kill_is_named_by_doctor_and_healed_by_reindex() throws Exception {
        Path ready = base.resolve("child-ready");
        Process child = new ProcessBuilder(ChildJvm.command(List.of("-Xmx256m"), HybridChildImporter.class,
                base.toString(), ready.toString()))
                .redirectErrorStream(true).redirectOutput(base.resolve("child-output.txt").toFile()).start();
        try {
            assertThat(ChildJvm.awaitFile(ready, Duration.ofMinutes(5))).as("the child imported three batches").isTrue();
            // a SIGKILL at some point of the batch loop: in the storage's batch, the embedding, the child's commit
            Thread.sleep(100 + (long) (Math.random() * 400));
        } finally {
            child.destroyForcibly();
            assertThat(child.waitFor(5, TimeUnit.MINUTES)).as("the child is gone").isTrue();
        }

        try (HybridMemoryProvider router = HybridChildImporter.open(base)) {
            List<MemoryEntry> stored = router.storage().query(Query.builder().build());
            assertThat(stored.size()).as("whole batches only").isGreaterThanOrEqualTo(3 * HybridChildImporter.BATCH)
                    .isEqualTo(stored.size() / HybridChildImporter.BATCH * HybridChildImporter.BATCH);
            Set<String> missing = new TreeSet<>();
            for (MemoryEntry entry : stored) {
                if (router.searchProvider().orElseThrow().get(entry.key(), entry.scope()).isEmpty()) {
                    missing.add(entry.key());
                }
            }
            assertThat(missing.size()).as("at most the batch in flight").isLessThanOrEqualTo(HybridChildImporter.BATCH);
            List<StoreProblem> problems = router.doctor();
            assertThat(problems).hasSize(missing.size()).allSatisfy(p -> assertThat(p.problem())
                    .contains("has no copy of").contains("forge-memory reindex"));
            for (String key : missing) {
                assertThat(problems).anySatisfy(p -> assertThat(p.problem()).contains("'" + key + "'"));
            }

            router.requireReindexing().reindex();

            assertThat(router.doctor()).isEmpty();
            for (MemoryEntry entry : stored) {
                assertThat(router.searchProvider().orElseThrow().get(entry.key(), entry.scope())).contains(entry);
            }
            assertThat(router.searchProvider().orElseThrow().query(Query.builder().build())).hasSameSizeAs(stored);
        }
    }
}
