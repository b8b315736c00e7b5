package dev.forge.memory.support.files;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Reads many small files on a few threads, as a file-based store does when it opens: reading and parsing thousands of
 * entry files is decoding and parsing work plus waits on the disk, both of which spread over cores. The threads are
 * started for one call and have ended when it returns, so no thread outlives the store's open.
 */
public final class ParallelReads {

    /** Files per extra thread: below this, starting a thread costs more than it saves. */
    static final int FILES_PER_THREAD = 64;

    /** At most this many threads, whatever the number of cores: beyond it the disk, not the CPU, is the limit. */
    static final int MAX_THREADS = 8;

    private ParallelReads() {
    }

    /**
     * {@code read} applied to every item, the results in the order of {@code items}; on the calling thread alone when
     * there are few items or one core. {@code read} must be safe to run on several threads at once, and report a
     * file's own failure in its result rather than throw.
     *
     * @throws RuntimeException the first exception {@code read} threw, after every thread has stopped
     */
    public static <T, R> List<R> map(List<T> items, Function<? super T, ? extends R> read) {
        int threads = Math.min(Math.min(Runtime.getRuntime().availableProcessors(), MAX_THREADS),
                items.size() / FILES_PER_THREAD);
        if (threads <= 1) {
            List<R> results = new ArrayList<>(items.size());
            for (T item : items) {
                results.add(read.apply(item));
            }
            return results;
        }
        Object[] results = new Object[items.size()];
        AtomicInteger next = new AtomicInteger();
        Throwable[] failures = new Throwable[threads];
        Thread[] helpers = new Thread[threads - 1];
        for (int t = 0; t < helpers.length; t++) {
            int slot = t + 1;
            helpers[t] = new Thread(() -> drain(items, read, results, next, failures, slot),
                    "forge-memory-read-" + slot);
            helpers[t].setDaemon(true);
            helpers[t].start();
        }
        drain(items, read, results, next, failures, 0);
        boolean interrupted = false;
        for (Thread helper : helpers) {
            // The helpers finish their files quickly; an interrupt of the caller is kept for it, not lost.
            while (true) {
                try {
                    helper.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        for (Throwable failure : failures) {
            if (failure instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (failure instanceof Error error) {
                throw error;
            }
        }
        @SuppressWarnings("unchecked")
        List<R> list = (List<R>) Arrays.asList(results);
        return list;
    }

    private static <T, R> void drain(List<T> items, Function<? super T, ? extends R> read, Object[] results,
            AtomicInteger next, Throwable[] failures, int slot) {
        try {
            for (int i; (i = next.getAndIncrement()) < items.size(); ) {
                results[i] = read.apply(items.get(i));
            }
        } catch (RuntimeException | Error e) {
            failures[slot] = e;
            next.set(items.size()); // the others stop at their next file
        }
    }
}
