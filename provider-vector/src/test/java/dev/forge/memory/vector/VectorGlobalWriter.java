package dev.forge.memory.vector;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ChildJvm;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;

/**
 * A process of {@link VectorGlobalProcessesTest}: one project in a directory of its own, the test's forge home. Opens
 * the provider, signals {@code ready-<project>}, waits for {@code go}, then sets {@code count} GLOBAL keys of its own
 * and overwrites the GLOBAL key {@code shared} as often, appending each acknowledged version of {@code shared} to
 * {@code versions-<project>}; signals {@code done-<project>} and keeps its provider open until {@code close}.
 * Arguments: project directory, forge home, project id, count, signal directory. Exits 1 with a stack trace on failure.
 */
public final class VectorGlobalWriter {

    private VectorGlobalWriter() {
    }

    /** Runs the writer; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        Path directory = Path.of(args[0]);
        Path forgeHome = Path.of(args[1]);
        String project = args[2];
        int count = Integer.parseInt(args[3]);
        Path signals = Path.of(args[4]);
        Duration wait = Duration.ofMinutes(5);
        try (MemoryProvider provider = new VectorMemoryProviderFactory().open(VectorStores.context(directory, project,
                VectorStores.hashing(384, Map.of())).toBuilder().forgeHome(forgeHome).build())) {
            ChildJvm.signal(signals.resolve("ready-" + project));
            if (!ChildJvm.awaitFile(signals.resolve("go"), wait)) {
                throw new IllegalStateException("no go signal");
            }
            Path versions = signals.resolve("versions-" + project);
            for (int i = 0; i < count; i++) {
                provider.set("own:" + project + ":" + i, "written by " + project + " as number " + i, Scope.GLOBAL);
                long version = provider.set("shared", project + " " + i, Scope.GLOBAL).version();
                Files.writeString(versions, version + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            }
            ChildJvm.signal(signals.resolve("done-" + project));
            if (!ChildJvm.awaitFile(signals.resolve("close"), wait)) {
                throw new IllegalStateException("no close signal");
            }
        } catch (Exception | Error e) {
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }
}
