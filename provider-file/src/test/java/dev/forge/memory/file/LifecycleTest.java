package dev.forge.memory.file;

import static dev.forge.memory.file.Stores.open;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Scope;
import dev.forge.memory.Transactions;
import dev.forge.memory.VersionHistory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening and closing. */
class LifecycleTest {

    @TempDir
    Path store;

    /**
     * Live threads, other than this one, running code of forge-memory: threads of the JVM, of JUnit or of other
     * libraries come and go on their own and say nothing about this provider.
     */
    private static Set<Thread> threadsRunningForgeMemory() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey() != Thread.currentThread() && e.getKey().isAlive())
                .filter(e -> Arrays.stream(e.getValue()).anyMatch(frame -> frame.getClassName().startsWith("dev.forge.memory.")))
                .map(Map.Entry::getKey)
                .collect(Collectors.toSet());
    }

    @Test
    void facets_taken_before_close_fail_with_backend_unavailable_after_it() {
        FileMemoryProvider provider = open(store);
        provider.set("k", "v", Scope.PROJECT);
        MemoryGraph graph = provider.requireGraph();
        VersionHistory history = provider.requireHistory();
        Transactions transactions = provider.requireTransactions();
        MemoryTransaction open = transactions.begin();
        provider.close();

        EntryRef k = EntryRef.of("k", Scope.PROJECT);
        assertThatThrownBy(() -> graph.relations(k, Direction.BOTH)).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> graph.relate(k, k, "SELF")).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> history.versions("k", Scope.PROJECT)).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(transactions::begin).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> open.set("x", "y", Scope.PROJECT)).isInstanceOf(BackendUnavailableException.class);
        assertThat(open.isActive()).isFalse();
        assertThat(provider.capabilities()).contains(dev.forge.memory.Capability.GRAPH);
        assertThatThrownBy(provider::endSession).isInstanceOf(BackendUnavailableException.class);
        assertThat(provider.name()).isEqualTo("file");
        provider.close();
    }

    @Test
    void open_and_close_leave_no_thread_running() throws InterruptedException {
        Set<Thread> before = threadsRunningForgeMemory();
        try (FileMemoryProvider provider = open(store)) {
            provider.set("k", "v", Scope.PROJECT);
            provider.get("k", Scope.PROJECT);
            provider.requireGraph().relate(EntryRef.of("k", Scope.PROJECT), EntryRef.of("k", Scope.PROJECT), "SELF");
            provider.requireTransactions().inTransaction(tx -> tx.set("t", "v", Scope.PROJECT));
        }
        // A thread that is just finishing gets a moment; one that keeps running does not pass.
        Set<Thread> started = new HashSet<>();
        for (long deadline = System.nanoTime() + 2_000_000_000L; System.nanoTime() < deadline; Thread.sleep(20)) {
            started = threadsRunningForgeMemory();
            started.removeAll(before);
            if (started.isEmpty()) {
                break;
            }
        }
        assertThat(started).isEmpty();
    }

    @Test
    void closing_one_of_two_instances_on_a_directory_leaves_the_other_working() {
        FileMemoryProvider first = open(store);
        try (FileMemoryProvider second = open(store)) {
            first.set("a", "1", Scope.PROJECT);
            first.close();
            second.set("b", "2", Scope.PROJECT);
            assertThat(second.get("a", Scope.PROJECT)).isPresent();
            try (FileMemoryProvider third = open(store)) {
                assertThat(third.get("b", Scope.PROJECT)).isPresent();
            }
            second.set("c", "3", Scope.PROJECT);
        }
    }

    @Test
    void an_unusable_base_path_fails_to_open_with_backend_unavailable() throws Exception {
        Path file = Files.writeString(store.resolve("a-file"), "not a directory");
        assertThatThrownBy(() -> open(store, java.util.Map.of("base_path", file.resolve("below").toString())))
                .isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("base_path");
    }
}
