package dev.forge.memory.file;

import static dev.forge.memory.file.Stores.open;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ChildJvm;
import dev.forge.memory.support.files.AtomicFiles;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The store lock belongs to the lock file on disk, not to the path a provider was opened with. */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class StoreLockTest {

    @TempDir
    Path base;

    @TempDir
    Path signals;

    @Test
    void one_lock_file_reached_by_two_paths_is_one_lock_in_this_jvm() throws Exception {
        Path first = Files.createDirectory(base.resolve("first"));
        Path second = Files.createDirectory(base.resolve("second"));
        try (FileMemoryProvider a = open(first)) {
            // As a bind mount would: the second directory's .lock is the first one's file.
            Files.createLink(second.resolve(".lock"), first.resolve(".lock"));
            try (FileMemoryProvider b = open(second)) {
                List<Throwable> failures = new CopyOnWriteArrayList<>();
                CountDownLatch start = new CountDownLatch(1);
                List<Thread> writers = List.of(a, b).stream().map(provider -> new Thread(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < 150; i++) {
                            provider.set("k" + i, "v", Scope.PROJECT);
                            provider.get("k" + i, Scope.PROJECT);
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                })).toList();
                writers.forEach(Thread::start);
                start.countDown();
                for (Thread writer : writers) {
                    writer.join();
                }
                assertThat(failures).isEmpty();
            }
        }
    }

    @Test
    void a_lock_held_by_other_code_in_this_jvm_fails_with_a_memory_exception() throws Exception {
        try (FileMemoryProvider provider = open(base)) {
            provider.set("k", "v", Scope.PROJECT);
            try (FileChannel channel = FileChannel.open(base.resolve(".lock"), StandardOpenOption.WRITE);
                 FileLock lock = channel.lock()) {
                assertThatThrownBy(() -> provider.set("k", "w", Scope.PROJECT))
                        .isInstanceOf(BackendUnavailableException.class)
                        .hasMessageContaining("other code in this JVM")
                        .hasMessageContaining("nothing was changed");
            }
        }
    }

    @Test
    void a_store_deleted_and_created_again_while_open_is_locked_through_its_new_lock_file() throws Exception {
        Path directory = base.resolve("memory");
        try (FileMemoryProvider provider = open(directory)) {
            provider.set("before", "in the old directory", Scope.PROJECT);
            AtomicFiles.deleteTree(directory);
            Files.createDirectory(directory);

            ProcessBuilder builder = new ProcessBuilder(ChildJvm.command(LockHolder.class, directory.toString(),
                    signals.toString()));
            builder.redirectErrorStream(true);
            builder.redirectOutput(signals.resolve("holder.log").toFile());
            Process holder = builder.start();
            try {
                assertThat(ChildJvm.awaitFile(signals.resolve("locked"), Duration.ofMinutes(5)))
                        .as("the other process locked the new .lock").isTrue();

                FutureTask<MemoryEntry> write = new FutureTask<>(() -> provider.set("after", "in the new directory", Scope.PROJECT));
                new Thread(write, "writer").start();
                assertThatThrownBy(() -> write.get(700, TimeUnit.MILLISECONDS))
                        .as("the write waits for the other process").isInstanceOf(TimeoutException.class);

                ChildJvm.signal(signals.resolve("release"));
                assertThat(write.get(10, TimeUnit.MINUTES).version()).isEqualTo(1);
                assertThat(holder.waitFor(5, TimeUnit.MINUTES)).isTrue();
                assertThat(holder.exitValue()).isZero();
            } finally {
                holder.destroyForcibly();
            }
            assertThat(provider.get("before", Scope.PROJECT)).isEmpty();
        }
        try (FileMemoryProvider reopened = open(directory)) {
            assertThat(reopened.get("after", Scope.PROJECT)).isPresent();
        }
    }
}
