package dev.forge.memory.sqlite;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.conformance.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The other process of {@link ConcurrencyAcrossProcessesTest}: opens the sqlite provider on the directory given as the
 * first argument and writes into its database while the test's own provider writes too.
 *
 * <p>Arguments: directory, number of entries, signal directory. Once its provider is open it creates {@code ready} in
 * the signal directory and waits for {@code go}. Then it writes {@code child:0} to {@code child:N-1}, sets
 * {@code shared} once per entry, reads and searches between writes, writes {@code from-child} in GLOBAL scope, deletes
 * {@code child:0}, and exits 0; any failure (a "database is locked" among them) exits non-zero with the stack trace.
 */
public final class SqliteChildWriter {

    private SqliteChildWriter() {
    }

    /** Runs the child; see the class comment for the arguments. */
    public static void main(String[] args) {
        Path directory = Path.of(args[0]);
        int count = Integer.parseInt(args[1]);
        Path signals = Path.of(args[2]);
        try (MemoryProvider provider = new SqliteMemoryProviderFactory().open(
                Stores.context(directory, java.util.Map.of()).toBuilder().sessionId("child-session").build())) {
            ChildJvm.signal(signals.resolve("ready"));
            if (!ChildJvm.awaitFile(signals.resolve("go"), Duration.ofMinutes(5))) {
                throw new IllegalStateException("the parent never said go");
            }
            for (int i = 0; i < count; i++) {
                provider.set("child:" + i, "written by the child process, entry " + i, Scope.PROJECT);
                provider.set("shared", "child write " + i, Scope.PROJECT);
                provider.query(Query.of("parent:*", Scope.PROJECT));
                provider.search(SearchRequest.keyword("parent"));
            }
            provider.set("from-child", "a global fact from the child", Scope.GLOBAL);
            if (!provider.delete("child:0", Scope.PROJECT)) {
                throw new IllegalStateException("child:0 was not there to delete");
            }
        } catch (RuntimeException e) {
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }
}
