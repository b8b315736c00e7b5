package dev.forge.memory.file;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import java.nio.file.Path;
import java.time.Clock;

/**
 * The other process of {@link CrossProcessTest}: opens the file provider on the directory given as the first
 * argument and writes into it while the test's own provider has it open.
 *
 * <p>Arguments: directory, project id, number of entries. Writes {@code child:0} to {@code child:N-1} in PROJECT
 * scope, {@code from-child} in GLOBAL scope, sets {@code shared} once per entry, deletes {@code child:0}, and
 * exits 0; any failure exits non-zero with the stack trace on standard error.
 */
public final class ChildWriter {

    private ChildWriter() {
    }

    /** Runs the child; see the class comment for the arguments. */
    public static void main(String[] args) {
        Path directory = Path.of(args[0]);
        String project = args[1];
        int count = Integer.parseInt(args[2]);
        ProviderContext context = ProviderContext.builder()
                .projectId(project)
                .sessionId("child-session")
                .clock(Clock.systemUTC())
                .baseDirectory(directory)
                .registry(ProviderRegistry.of())
                .config(dev.forge.memory.spi.ProviderConfig.of(java.util.Map.of("base_path", ".")))
                .build();
        try (MemoryProvider provider = new FileMemoryProviderFactory().open(context)) {
            for (int i = 0; i < count; i++) {
                provider.set("child:" + i, "written by the child process, entry " + i, Scope.PROJECT);
                provider.set("shared", "child write " + i, Scope.PROJECT);
            }
            provider.set("from-child", "a global fact from the child", Scope.GLOBAL);
            if (!provider.delete("child:0", Scope.PROJECT)) {
                throw new IllegalStateException("child:0 was not there to delete");
            }
        }
        System.exit(0);
    }
}
