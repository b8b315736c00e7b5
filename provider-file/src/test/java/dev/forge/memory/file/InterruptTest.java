package dev.forge.memory.file;

import static dev.forge.memory.file.Stores.open;
import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thread interrupts: an interrupt closes a {@code FileChannel} in the middle of whatever it does, so a provider
 * that let one through could fail a write after its file was in place. Calls complete instead, and the interrupt
 * flag is kept for the caller.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class InterruptTest {

    @TempDir
    Path store;

    @AfterEach
    void clearTheFlag() {
        Thread.interrupted();
    }

    @Test
    void a_thread_interrupted_before_it_calls_completes_every_call_and_keeps_its_interrupt() {
        try (FileMemoryProvider provider = open(store); FileMemoryProvider other = open(store)) {
            other.set("from-other", "v", Scope.PROJECT);

            Thread.currentThread().interrupt();
            assertThat(provider.set("k", "one", Scope.PROJECT).version()).isEqualTo(1);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
            assertThat(provider.set("k", "two", Scope.PROJECT).version()).isEqualTo(2);
            assertThat(provider.get("from-other", Scope.PROJECT)).isPresent();
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).extracting(MemoryEntry::value).containsExactly("one", "two");
            provider.requireTransactions().inTransaction(tx -> tx.set("t", "in a transaction", Scope.PROJECT));
            assertThat(provider.delete("k", Scope.PROJECT)).isTrue();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        }
    }

    @Test
    void a_writer_interrupted_again_and_again_fails_no_write_and_leaves_no_reader_stale() throws Exception {
        int writes = 600;
        try (FileMemoryProvider writer = open(store); FileMemoryProvider reader = open(store)) {
            assertThat(reader.query(Query.of("*"))).isEmpty();
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            Map<String, String> stored = new ConcurrentHashMap<>();
            AtomicInteger interruptsKept = new AtomicInteger();
            AtomicBoolean done = new AtomicBoolean();
            Thread writing = new Thread(() -> {
                for (int i = 0; i < writes; i++) {
                    String key = "k" + i % 150;
                    String value = "value " + i;
                    try {
                        writer.set(key, value, Scope.PROJECT);
                        stored.put(key, value);
                    } catch (RuntimeException e) {
                        failures.add(e);
                    }
                    if (Thread.interrupted()) {
                        interruptsKept.incrementAndGet();
                    }
                }
                done.set(true);
            }, "interrupted-writer");
            Thread interrupter = new Thread(() -> {
                while (!done.get()) {
                    writing.interrupt();
                    LockSupport.parkNanos(30_000);
                }
            }, "interrupter");
            writing.start();
            interrupter.start();
            writing.join();
            interrupter.join();

            try (FileMemoryProvider fresh = open(store)) {
                for (Map.Entry<String, String> key : stored.entrySet()) {
                    MemoryEntry onDisk = fresh.get(key.getKey(), Scope.PROJECT).orElseThrow();
                    assertThat(reader.get(key.getKey(), Scope.PROJECT)).as("the reader's view of %s", key.getKey()).contains(onDisk);
                    assertThat(onDisk.value()).as("what is on disk for %s", key.getKey()).isEqualTo(key.getValue());
                }
                assertThat(reader.query(Query.of("*"))).containsExactlyInAnyOrderElementsOf(fresh.query(Query.of("*")));
            }
            assertThat(failures).isEmpty();
            assertThat(interruptsKept.get()).isPositive();
        }
    }
}
