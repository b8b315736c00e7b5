package dev.forge.memory.file;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ChildJvm;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * The other process of {@link CrossProcessTest}: opens the file provider on the directory given as the first
 * argument and writes into it while the test's own provider has it open.
 *
 * <p>Arguments: directory, project id, number of entries, signal directory. Once its provider is open it creates
 * {@code ready} in the signal directory and waits for {@code go}, so that the parent knows both are running before
 * either writes. Then it writes {@code child:0} to {@code child:N-1} in PROJECT scope, sets {@code shared} once per
 * entry, writes {@code from-child} in GLOBAL scope, deletes {@code child:0}, and exits 0; any failure exits
 * non-zero with the stack trace on standard error.
 */
public final class ChildWriter {

    private ChildWriter() {
    }

    /** Runs the child; see the class comment for the arguments. */
    public static void main(String[] args) {
        Path directory = Path.of(args[0]);
        String project = args[1];
        int count = Integer.parseInt(args[2]);
        Path signals = Path.of(args[3]);
        ProviderContext context = ProviderContext.builder()
                .projectId(project)
                .sessionId("child-session")
                .clock(Clock.systemUTC())
                .baseDirectory(directory)
                .forgeHome(directory)
                .registry(ProviderRegistry.of())
                .config(ProviderConfig.of(Map.of("base_path", ".", "global_path", ".")))
                .build();
        try (MemoryProvider provider = new FileMemoryProviderFactory().open(context)) {
            ChildJvm.signal(signals.resolve("ready"));
            if (!ChildJvm.awaitFile(signals.resolve("go"), Duration.ofMinutes(5))) {
                throw new IllegalStateException("the parent never said go");
            }
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
