package dev.forge.memory.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.conformance.UnprivilegedJvm;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A relations file the process may not read does not stop the store from opening (it once failed every call with
 * "Cannot read the memory directory"): entries read as ever, graph calls fail naming the file, {@code doctor()} lists
 * it, and relations are back once its permissions are. Runs in a child JVM that permissions apply to.
 */
class UnreadableRelationsFileTest {

    @TempDir
    Path work;

    @Test
    void a_relations_file_without_read_permission_is_reported_and_the_entries_stay_readable() throws Exception {
        Path store = Files.createDirectory(work.resolve("store"));
        try (FileMemoryProvider provider = Stores.open(store)) {
            provider.set("a", "first", Scope.PROJECT);
            provider.set("b", "second", Scope.PROJECT);
            provider.requireGraph().relate(EntryRef.of("a", Scope.PROJECT), EntryRef.of("b", Scope.PROJECT), "USES");
        }
        UnprivilegedJvm.Result result = UnprivilegedJvm.run(work, Child.class, store.toString());
        assertThat(result.exitCode()).as("the child JVM failed:\n" + result.err()).isZero();
    }

    /** The child: takes the read permission from the relations file, opens the store and uses it. */
    public static final class Child {
        private Child() {
        }

        /** Argument: the store directory. Exits 0 if every check passed. */
        public static void main(String[] args) {
            int code = 0;
            try {
                check(Path.of(args[0]));
            } catch (PermissionsNotEnforced e) {
                System.err.println("a file with mode 000 can still be read by this process");
                code = UnprivilegedJvm.PERMISSIONS_NOT_ENFORCED;
            } catch (Throwable e) {
                e.printStackTrace();
                code = 1;
            }
            System.exit(code);
        }

        private static void check(Path store) throws Exception {
            Path relations = store.resolve("relations.json");
            Files.setPosixFilePermissions(relations, PosixFilePermissions.fromString("---------"));
            try (InputStream in = Files.newInputStream(relations)) {
                throw new PermissionsNotEnforced();
            } catch (AccessDeniedException expected) {
                // as it should be
            }
            EntryRef a = EntryRef.of("a", Scope.PROJECT);
            try (FileMemoryProvider provider = Stores.open(store)) {
                assertThat(provider.get("a", Scope.PROJECT)).map(MemoryEntry::value).contains("first");
                assertThat(provider.query(Query.of("*", Scope.PROJECT))).extracting(MemoryEntry::key)
                        .containsExactlyInAnyOrder("a", "b");
                assertThatThrownBy(() -> provider.requireGraph().relations(a, Direction.OUTGOING))
                        .isInstanceOf(CorruptEntryException.class).hasMessageContaining(relations.toString());
                assertThat(provider.doctor()).extracting(StoreProblem::location).containsExactly(relations.toString());
            }
            Files.setPosixFilePermissions(relations, PosixFilePermissions.fromString("rw-------"));
            try (FileMemoryProvider provider = Stores.open(store)) {
                assertThat(provider.requireGraph().relations(a, Direction.OUTGOING)).hasSize(1);
                assertThat(provider.doctor()).isEmpty();
            }
        }
    }

    private static final class PermissionsNotEnforced extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }
}
