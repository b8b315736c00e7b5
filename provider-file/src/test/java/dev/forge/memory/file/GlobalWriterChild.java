package dev.forge.memory.file;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * A child process of {@link SharedGlobalProcessesTest}: one project's provider writing GLOBAL keys of its own, a
 * GLOBAL key every project overwrites, and transactions over a PROJECT and a GLOBAL key. Arguments: the project
 * directory, the project id, the forge home, the number of rounds, the signal directory (it creates
 * {@code ready-<project>} once open and starts at {@code go}).
 */
public final class GlobalWriterChild {

    private GlobalWriterChild() {
    }

    /** Runs the child; see the class comment for the arguments. */
    public static void main(String[] args) {
        Path directory = Path.of(args[0]);
        String project = args[1];
        Path forgeHome = Path.of(args[2]);
        int rounds = Integer.parseInt(args[3]);
        Path signals = Path.of(args[4]);
        try (MemoryProvider provider = Stores.openShared(directory, project, forgeHome, Map.of())) {
            ChildJvm.signal(signals.resolve("ready-" + project));
            if (!ChildJvm.awaitFile(signals.resolve("go"), Duration.ofMinutes(5))) {
                throw new IllegalStateException("the parent never said go");
            }
            for (int i = 0; i < rounds; i++) {
                provider.set("g:" + project + ":" + i, "from " + project, Scope.GLOBAL);
                provider.set("g:shared", project + " " + i, Scope.GLOBAL);
                if (i % 5 == 0) {
                    int round = i;
                    provider.requireTransactions().inTransaction(tx -> {
                        tx.set("p:" + round, "project part", Scope.PROJECT);
                        tx.set("g:tx:" + project + ":" + round, "global part", Scope.GLOBAL);
                        return null;
                    });
                }
            }
        }
        System.exit(0);
    }
}
