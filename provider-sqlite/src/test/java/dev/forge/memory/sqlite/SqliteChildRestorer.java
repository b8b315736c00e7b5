package dev.forge.memory.sqlite;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Restoring;
import dev.forge.memory.conformance.ChildJvm;
import java.nio.file.Path;
import java.util.Map;

/**
 * The other process of {@link RestoreAcrossProcessesTest}: restores keys into the database until it is killed.
 *
 * <p>Arguments: directory, number of keys, signal directory. It restores {@code k:0} to {@code k:N-1} again and again,
 * pass after pass, each pass with the other of the two chains of {@link RestoreAcrossProcessesTest#chain}, and creates
 * {@code started} in the signal directory once two passes are done; it never stops by itself. Any failure exits
 * non-zero with the stack trace.
 */
public final class SqliteChildRestorer {

    private SqliteChildRestorer() {
    }

    /** Runs the child; see the class comment for the arguments. */
    public static void main(String[] args) {
        Path directory = Path.of(args[0]);
        int keys = Integer.parseInt(args[1]);
        Path signals = Path.of(args[2]);
        try (MemoryProvider provider = new SqliteMemoryProviderFactory().open(Stores.context(directory, Map.of()))) {
            Restoring restoring = provider.requireRestoring();
            for (int pass = 0; ; pass++) {
                for (int i = 0; i < keys; i++) {
                    restoring.restore(RestoreAcrossProcessesTest.chain("k:" + i, pass % 2 == 0));
                }
                if (pass == 1) {
                    ChildJvm.signal(signals.resolve("started"));
                }
            }
        } catch (RuntimeException e) {
            e.printStackTrace();
            System.exit(1);
        }
    }
}
