package dev.forge.memory.sqlite;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ChildJvm;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * A second project's process for {@link SharedGlobalAcrossProcessesTest}: its own project id and directory, the
 * parent's forge home. Arguments: forge home, project directory, number of writes, signal directory. Once open it
 * creates {@code ready} and waits for {@code go}; then it sets GLOBAL {@code counter} and GLOBAL {@code child:i} once per
 * write, and PROJECT {@code mine:i}, reading GLOBAL between writes; it exits 0, or non-zero with the stack trace.
 */
public final class SqliteGlobalChildWriter {

    private SqliteGlobalChildWriter() {
    }

    /** Runs the child; see the class comment for the arguments. */
    public static void main(String[] args) {
        int count = Integer.parseInt(args[2]);
        Path signals = Path.of(args[3]);
        ProviderContext context = ProviderContext.builder().projectId("project-b").sessionId("session-b")
                .forgeHome(Path.of(args[0])).baseDirectory(Path.of(args[1]))
                .config(ProviderConfig.of(Map.of("busy_timeout", "60s"), "test", "memory.config")).build();
        try (MemoryProvider provider = new SqliteMemoryProviderFactory().open(context)) {
            ChildJvm.signal(signals.resolve("ready"));
            if (!ChildJvm.awaitFile(signals.resolve("go"), Duration.ofMinutes(5))) {
                throw new IllegalStateException("the parent never said go");
            }
            for (int i = 0; i < count; i++) {
                provider.set("counter", "child write " + i, Scope.GLOBAL);
                provider.set("child:" + i, "a global fact from project-b", Scope.GLOBAL);
                provider.set("mine:" + i, "project-b's own", Scope.PROJECT);
                provider.query(Query.of("parent:*", Scope.GLOBAL));
            }
        } catch (RuntimeException e) {
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }
}
