package dev.forge.memory.support.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ParallelReadsTest {

    private static List<Integer> numbers(int count) {
        return IntStream.range(0, count).boxed().toList();
    }

    @Test
    void results_come_in_the_order_of_the_items_each_read_once() {
        List<Integer> items = numbers(5_000);
        Set<Integer> seen = ConcurrentHashMap.newKeySet();
        List<String> results = ParallelReads.map(items, i -> {
            assertThat(seen.add(i)).as("read once: %s", i).isTrue();
            return "file-" + i;
        });
        assertThat(results).containsExactlyElementsOf(items.stream().map(i -> "file-" + i).toList());
    }

    @Test
    void many_items_are_read_on_more_than_one_thread_where_there_are_cores_and_no_thread_is_left_running() {
        int expected = Math.min(Math.min(Runtime.getRuntime().availableProcessors(), ParallelReads.MAX_THREADS), 4);
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        CountDownLatch another = new CountDownLatch(1);
        ParallelReads.map(numbers(ParallelReads.FILES_PER_THREAD * 4), i -> {
            threads.add(Thread.currentThread());
            if (i != 0) {
                another.countDown();
            } else if (expected > 1) {
                // Whichever thread takes the first file holds it until another thread has read one: proof they run
                // side by side. Items are handed out in order, so no other file was read before this one, and on a
                // busy machine the helpers may read every file before the caller takes any.
                await(another);
            }
            return i;
        });
        assertThat(threads).hasSizeBetween(Math.min(expected, 2), expected);
        assertThat(threads).allSatisfy(thread -> assertThat(thread == caller || !thread.isAlive())
                .as("%s ended", thread).isTrue());
    }

    private final Thread caller = Thread.currentThread();

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(5, TimeUnit.MINUTES)).as("another thread read a file").isTrue();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void few_items_are_read_on_the_calling_thread() {
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        ParallelReads.map(numbers(ParallelReads.FILES_PER_THREAD), i -> threads.add(Thread.currentThread()));
        assertThat(threads).containsExactly(Thread.currentThread());
        assertThat(ParallelReads.map(List.of(), i -> i)).isEmpty();
    }

    @Test
    void an_exception_of_a_read_reaches_the_caller_after_every_thread_stopped() {
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        assertThatThrownBy(() -> ParallelReads.map(numbers(2_000), i -> {
            threads.add(Thread.currentThread());
            if (i == 1_000) {
                throw new IllegalStateException("read " + i + " failed");
            }
            return i;
        })).isInstanceOf(IllegalStateException.class).hasMessage("read 1000 failed");
        assertThat(threads).allSatisfy(thread -> assertThat(thread == Thread.currentThread() || !thread.isAlive())
                .as("%s ended", thread).isTrue());
    }

    @Test
    void an_interrupt_of_the_caller_is_kept_and_every_item_still_read() {
        Thread.currentThread().interrupt();
        try {
            assertThat(ParallelReads.map(numbers(1_000), i -> i * 2)).hasSize(1_000).endsWith(1_998);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }
}
