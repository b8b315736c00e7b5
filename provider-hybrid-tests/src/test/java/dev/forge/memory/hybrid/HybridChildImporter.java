package dev.forge.memory.hybrid;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ChildJvm;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The other process of {@link HybridBatchCrashTest}: opens a hybrid router (sqlite storage, vector search with the
 * hashing model) on the base directory given as the first argument and restores batches of {@value #BATCH} new keys
 * ({@code batch-<n>-<i>}) until it is killed. It creates the signal file given as the second argument after its third
 * batch, and gives up by itself after ten minutes so that it never outlives a failed test for long.
 */
public final class HybridChildImporter {

    static final int BATCH = 50;
    private static final Instant CREATED = Instant.parse("2021-03-04T05:06:07.008Z");

    private HybridChildImporter() {
    }

    /** The router both processes open on {@code base}. */
    static HybridMemoryProvider open(Path base) {
        ProviderContext context = ProviderContext.builder().projectId("p").sessionId("s").baseDirectory(base)
                .forgeHome(base.resolve("forge-home")).build();
        return HybridStores.open(context, HybridStores.config(Map.of("provider", "sqlite"), HybridStores.vector(), null,
                Map.of()));
    }

    /** Runs the child; see the class comment for the arguments. */
    public static void main(String[] args) {
        Path base = Path.of(args[0]);
        Path ready = Path.of(args[1]);
        long deadline = System.nanoTime() + 600_000_000_000L;
        try (HybridMemoryProvider router = open(base)) {
            for (int n = 0; System.nanoTime() < deadline; n++) {
                List<List<MemoryEntry>> batch = new ArrayList<>();
                for (int i = 0; i < BATCH; i++) {
                    batch.add(List.of(new MemoryEntry("batch-" + n + "-" + i, "imported lighthouse log " + n + " " + i,
                            Scope.PROJECT, List.of("imported"), Map.of(), CREATED, CREATED, 1)));
                }
                router.requireRestoring().restoreAll(batch);
                if (n == 2) {
                    ChildJvm.signal(ready);
                }
            }
        }
        System.exit(0);
    }
}
