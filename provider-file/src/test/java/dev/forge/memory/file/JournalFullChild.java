package dev.forge.memory.file;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.StorageException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The other process of {@link JournalFullTest}, started with a file size limit ({@code ulimit -f}) below the
 * journal's size, so that every append to the journal fails as on a full disk while small entry files still fit.
 * Tries a set, a delete and a transaction, each of which must fail with a {@link StorageException}; prints each
 * error and exits 0, or 1 if any call did anything else. Argument: the store directory.
 */
public final class JournalFullChild {

    private JournalFullChild() {
    }

    /** Runs the child; see the class comment. */
    public static void main(String[] args) {
        List<String> unexpected = new ArrayList<>();
        try (MemoryProvider provider = new FileMemoryProviderFactory().open(
                Stores.context(Path.of(args[0]), Stores.PROJECT, Stores.SESSION, Map.of()))) {
            expectFailure("set", () -> provider.set("a", "a from the child", Scope.PROJECT), unexpected);
            expectFailure("delete", () -> provider.delete("c", Scope.PROJECT), unexpected);
            expectFailure("commit", () -> provider.requireTransactions().inTransaction(tx -> {
                tx.set("a", "a from a transaction", Scope.PROJECT);
                tx.delete("c", Scope.PROJECT);
                tx.set("b", "b from a transaction", Scope.PROJECT);
                return null;
            }), unexpected);
        }
        System.out.println(unexpected.isEmpty() ? "every call failed as expected" : "unexpected: " + unexpected);
        System.exit(unexpected.isEmpty() ? 0 : 1);
    }

    private static void expectFailure(String what, Runnable call, List<String> unexpected) {
        try {
            call.run();
            unexpected.add(what + " succeeded");
        } catch (StorageException e) {
            System.out.println(what + " failed: " + e.getMessage());
        } catch (RuntimeException e) {
            unexpected.add(what + " threw " + e);
        }
    }
}
