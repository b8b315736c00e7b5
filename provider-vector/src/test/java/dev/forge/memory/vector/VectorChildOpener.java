package dev.forge.memory.vector;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.MemoryProvider;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The other process of {@link VectorLifecycleTest} and {@link VectorSharedGlobalTest}: tries to open the vector
 * provider on the base directory given as the first argument (with {@code global_path} naming its own index when a
 * third argument {@code one-index} is given) and writes what happened to the file given as the second: {@code refused}
 * and the message, or {@code opened} and whether PROJECT {@code k} is there. Exits 0 in both cases; a failure of
 * another kind exits 1 with its stack trace.
 */
public final class VectorChildOpener {

    private VectorChildOpener() {
    }

    /** Runs the child; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        Path base = Path.of(args[0]);
        Path report = Path.of(args[1]);
        Map<String, Object> extra = args.length > 2 && args[2].equals("one-index")
                ? Map.of("global_path", ".forge/vectors") : Map.of();
        try (MemoryProvider provider = VectorStores.open(base, "p", extra)) {
            Files.writeString(report, "opened " + provider.get("k", dev.forge.memory.Scope.PROJECT).isPresent());
        } catch (BackendUnavailableException e) {
            Files.writeString(report, "refused " + e.getMessage());
        } catch (RuntimeException e) {
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }
}
