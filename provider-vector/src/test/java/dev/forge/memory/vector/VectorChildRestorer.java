package dev.forge.memory.vector;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ChildJvm;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The other process of {@link VectorRestoreTest}'s crash test: opens the vector provider on the base directory given
 * as the first argument and restores key {@code k} over and over, version {@code n} holding the value
 * {@link #value(long) value(n)}, until it is killed. It creates the signal file given as the second argument once a
 * few restores are done, and gives up by itself after a minute so that it never outlives a failed test for long.
 */
public final class VectorChildRestorer {

    /** When every restored version was created. */
    static final Instant CREATED = Instant.parse("2021-03-04T05:06:07.008Z");

    private VectorChildRestorer() {
    }

    /** The value the child restores as version {@code version}: the parent checks that value and version match. */
    static String value(long version) {
        return "restored lighthouse log number " + version;
    }

    /** Runs the child; see the class comment for the arguments. */
    public static void main(String[] args) {
        Path base = Path.of(args[0]);
        Path ready = Path.of(args[1]);
        long deadline = System.nanoTime() + 60_000_000_000L;
        try (MemoryProvider provider = VectorStores.open(base, "p", Map.of())) {
            for (long version = 2; System.nanoTime() < deadline; version++) {
                // two versions per restore: the earlier one is checked and dropped (no history), the last is kept
                provider.requireRestoring().restore(List.of(
                        new MemoryEntry("k", value(version - 1), Scope.PROJECT, List.of(), Map.of(), CREATED,
                                CREATED.plusMillis(version - 1), version - 1),
                        new MemoryEntry("k", value(version), Scope.PROJECT, List.of("imported"), Map.of("n", version),
                                CREATED, CREATED.plusMillis(version), version)));
                if (version == 6) {
                    ChildJvm.signal(ready);
                }
            }
        }
        System.exit(0);
    }
}
