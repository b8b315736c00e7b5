package dev.forge.memory.markdown;

import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The other process of {@link TwoWritersTest}: opens the markdown provider on the base directory given as the first
 * argument and appends versions to one key while the test's own provider does the same.
 *
 * <p>Arguments: base directory, key, number of versions, signal directory, and optionally {@code git} to open the
 * provider with {@code git: true}. Once its provider is open it creates
 * {@code ready} in the signal directory and waits for {@code go}, so that both are running before either writes. Then
 * it sets the key to {@code child write 0} ... {@code child write N-1} and exits 0; any failure exits non-zero with
 * the stack trace on standard error.
 */
public final class ChildWriter {

    private ChildWriter() {
    }

    /** Runs the child; see the class comment for the arguments. */
    public static void main(String[] args) {
        Path base = Path.of(args[0]);
        String key = args[1];
        int count = Integer.parseInt(args[2]);
        Path signals = Path.of(args[3]);
        boolean git = args.length > 4 && args[4].equals("git");
        try (MarkdownMemoryProvider provider = MarkdownMemoryProvider.open(Stores.context(base, "child-session"),
                new MarkdownConfig(null, null, null, false, null, git, null))) {
            ChildJvm.signal(signals.resolve("ready"));
            if (!ChildJvm.awaitFile(signals.resolve("go"), Duration.ofMinutes(5))) {
                throw new IllegalStateException("the parent never said go");
            }
            for (int i = 0; i < count; i++) {
                provider.set(key, "child write " + i, Scope.PROJECT);
            }
        }
        System.exit(0);
    }
}
