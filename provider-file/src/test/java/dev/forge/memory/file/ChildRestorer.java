package dev.forge.memory.file;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ChildJvm;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The other process of {@link RestoreTest}'s crash test: restores key {@code k} again and again, alternating
 * between {@link #chainA()} and {@link #chainB()}, until it is killed.
 *
 * <p>Arguments: directory, signal directory. It creates {@code ready} in the signal directory after its first
 * two restores, so that the parent kills it while it restores, not while it starts.
 */
public final class ChildRestorer {

    private static final Instant T0 = Instant.parse("2020-01-01T00:00:00Z");

    private ChildRestorer() {
    }

    /** Five versions, 1 to 5, with enough text that writing them takes a while. */
    static List<MemoryEntry> chainA() {
        List<MemoryEntry> chain = new ArrayList<>();
        for (int v = 1; v <= 5; v++) {
            chain.add(new MemoryEntry("k", ("chain A version " + v + " ").repeat(200), Scope.PROJECT, List.of("a"),
                    Map.of("chain", "A"), T0, T0.plusSeconds(v), v));
        }
        return List.copyOf(chain);
    }

    /** Three versions with a gap, 2, 3 and 7, none equal to a version of chain A. */
    static List<MemoryEntry> chainB() {
        List<MemoryEntry> chain = new ArrayList<>();
        for (int v : new int[] {2, 3, 7}) {
            chain.add(new MemoryEntry("k", "chain B version " + v, Scope.PROJECT, List.of("b"), Map.of("chain", "B"),
                    T0, T0.plusSeconds(100 + v), v));
        }
        return List.copyOf(chain);
    }

    /** Runs the child; see the class comment for the arguments. */
    public static void main(String[] args) {
        Path directory = Path.of(args[0]);
        Path signals = Path.of(args[1]);
        try (MemoryProvider provider = Stores.open(directory, Stores.PROJECT, "child-session", Map.of())) {
            for (long round = 0; ; round++) {
                provider.requireRestoring().restore(round % 2 == 0 ? chainA() : chainB());
                if (round == 1) {
                    ChildJvm.signal(signals.resolve("ready"));
                }
            }
        }
    }
}
