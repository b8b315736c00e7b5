package dev.forge.memory.markdown;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.conformance.ChildJvm;
import java.nio.file.Path;
import java.util.List;

/**
 * The other process of {@link RestoreTest}: opens the markdown provider on the base directory given as the first
 * argument and restores one key over and over, alternating between {@link RestoreTest#chainA} and
 * {@link RestoreTest#chainB}, until it is killed. It creates {@code ready} in the signal directory (the second
 * argument) after its first restore.
 */
public final class ChildRestorer {

    private ChildRestorer() {
    }

    /** Runs the child; see the class comment for the arguments. */
    public static void main(String[] args) {
        Path base = Path.of(args[0]);
        Path signals = Path.of(args[1]);
        try (MarkdownMemoryProvider provider = MarkdownMemoryProvider.open(Stores.context(base, "child-session"),
                new MarkdownConfig(null, null, null, false))) {
            for (long round = 0; ; round++) {
                List<MemoryEntry> chain = round % 2 == 0 ? RestoreTest.chainA() : RestoreTest.chainB();
                provider.requireRestoring().restore(chain);
                if (round == 0) {
                    ChildJvm.signal(signals.resolve("ready"));
                }
            }
        }
    }
}
