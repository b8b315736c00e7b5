package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Capability;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many threads at once, on one provider and on two providers of one store: nothing is lost, per-key versions
 * only go up and count every write, readers never see a broken state. Bounded in size and time.
 */
// Sized for correctness, not speed: a hang fails the test, a slow machine does not (100 s timed out under load).
@Timeout(value = 15, unit = TimeUnit.MINUTES)
public abstract class ConcurrencyContract extends ContractSupport {

    private static final int THREADS = 8;

    /** Runs the tasks on their own threads, all released at once, and returns their results. */
    private static <T> List<T> runTogether(List<Callable<T>> tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (Callable<T> task : tasks) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return task.call();
                }));
            }
            start.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get(10, TimeUnit.MINUTES));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void threads_writing_distinct_keys_lose_nothing() throws Exception {
        int perThread = 40;
        List<Callable<Void>> tasks = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            tasks.add(() -> {
                for (int i = 0; i < perThread; i++) {
                    provider.set("t" + thread + ":k" + i, "value " + thread + "/" + i, Scope.PROJECT);
                }
                return null;
            });
        }
        runTogether(tasks);
        List<MemoryEntry> all = provider.query(Query.of("*", Scope.PROJECT));
        assertThat(all).hasSize(THREADS * perThread);
        for (MemoryEntry entry : all) {
            String[] parts = entry.key().substring(1).split(":k");
            assertThat(entry.value()).isEqualTo("value " + parts[0] + "/" + parts[1]);
            assertThat(entry.version()).isEqualTo(1);
        }
    }

    @Test
    void threads_overwriting_one_key_end_at_a_version_that_counts_every_write() throws Exception {
        int perThread = 25;
        List<Callable<List<Long>>> tasks = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            tasks.add(() -> {
                List<Long> versions = new ArrayList<>();
                for (int i = 0; i < perThread; i++) {
                    versions.add(provider.set("hot", "writer " + thread + " #" + i, Scope.PROJECT).version());
                }
                return versions;
            });
        }
        List<Long> seen = new ArrayList<>();
        runTogether(tasks).forEach(seen::addAll);
        assertThat(provider.get("hot", Scope.PROJECT).orElseThrow().version()).isEqualTo(THREADS * perThread);
        // Every write got its own version number: no two writers were handed the same one.
        assertThat(seen).doesNotHaveDuplicates().hasSize(THREADS * perThread);
        if (has(Capability.HISTORY)) {
            assertThat(provider.history().orElseThrow().versions("hot", Scope.PROJECT))
                    .extracting(MemoryEntry::version).containsExactlyElementsOf(
                            java.util.stream.LongStream.rangeClosed(1, THREADS * perThread).boxed().toList());
        }
    }

    @Test
    void each_writer_sees_its_own_versions_rise() throws Exception {
        List<Callable<List<Long>>> tasks = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            tasks.add(() -> {
                List<Long> versions = new ArrayList<>();
                for (int i = 0; i < 30; i++) {
                    versions.add(provider.set("rising", "x", Scope.PROJECT).version());
                }
                return versions;
            });
        }
        for (List<Long> versions : runTogether(tasks)) {
            assertThat(versions).isSortedAccordingTo(Long::compare).doesNotHaveDuplicates();
        }
    }

    @Test
    void a_reader_never_sees_the_version_of_a_key_go_down() throws Exception {
        AtomicBoolean writing = new AtomicBoolean(true);
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        List<Callable<Void>> tasks = new ArrayList<>();
        tasks.add(() -> {
            try {
                for (int i = 0; i < 150; i++) {
                    provider.set("watched", "v" + i, Scope.PROJECT);
                }
            } finally {
                writing.set(false);
            }
            return null;
        });
        tasks.add(() -> {
            long last = 0;
            while (writing.get()) {
                Optional<MemoryEntry> read = provider.get("watched", Scope.PROJECT);
                if (read.isPresent()) {
                    long version = read.get().version();
                    if (version < last) {
                        problems.add("version went from " + last + " to " + version);
                    }
                    if (!read.get().value().equals("v" + (version - 1))) {
                        problems.add("version " + version + " carries value " + read.get().value());
                    }
                    last = version;
                }
            }
            return null;
        });
        runTogether(tasks);
        assertThat(problems).isEmpty();
        assertThat(provider.get("watched", Scope.PROJECT).orElseThrow().version()).isEqualTo(150);
    }

    @Test
    void queries_and_searches_during_writes_never_fail_and_see_whole_entries() throws Exception {
        int readers = 3;
        // Asked here, not in the readers: a wrong claim skips the test, which only the test's own thread can do.
        boolean searches = has(Capability.KEYWORD_SEARCH);
        // The writer waits (boundedly) for every reader twice: before its first write, so that no reader is still
        // starting up when the writes end, and half-way, so that every reader reads while writes are going on.
        CountDownLatch everyReaderRead = new CountDownLatch(readers);
        CountDownLatch everyReaderReadDuringWrites = new CountDownLatch(readers);
        AtomicBoolean writesStarted = new AtomicBoolean();
        AtomicBoolean writing = new AtomicBoolean(true);
        List<Callable<Integer>> tasks = new ArrayList<>();
        tasks.add(() -> {
            try {
                everyReaderRead.await(5, TimeUnit.MINUTES);
                writesStarted.set(true);
                for (int i = 0; i < 120; i++) {
                    provider.set("doc:" + i, "alpha beta " + i, Scope.PROJECT, List.of("t" + (i % 3)), java.util.Map.of("i", i));
                    if (i % 10 == 9) {
                        provider.delete("doc:" + (i - 5), Scope.PROJECT);
                    }
                    if (i == 60) {
                        everyReaderReadDuringWrites.await(5, TimeUnit.MINUTES);
                    }
                }
            } finally {
                writing.set(false);
            }
            return 0;
        });
        for (int r = 0; r < readers; r++) {
            tasks.add(() -> {
                int readsDuringWrites = 0;
                boolean first = true;
                while (writing.get()) {
                    // counted only if the writes had started before this read and had not ended after it
                    boolean startedDuringWrites = writesStarted.get();
                    for (MemoryEntry entry : provider.query(Query.of("doc:*", Scope.PROJECT))) {
                        assertThat(entry.value()).isEqualTo("alpha beta " + entry.key().substring(4));
                        assertThat(entry.metadata().get("i")).isEqualTo(Long.parseLong(entry.key().substring(4)));
                    }
                    if (searches) {
                        for (Hit hit : provider.search(SearchRequest.builder("alpha").scopes(Scope.PROJECT).limit(50).build())) {
                            assertThat(hit.entry().value()).isEqualTo("alpha beta " + hit.entry().key().substring(4));
                        }
                    }
                    if (first) {
                        first = false;
                        everyReaderRead.countDown();
                    }
                    if (startedDuringWrites && writing.get()) {
                        readsDuringWrites++;
                        if (readsDuringWrites == 1) {
                            everyReaderReadDuringWrites.countDown();
                        }
                    }
                }
                return readsDuringWrites;
            });
        }
        List<Integer> results = runTogether(tasks);
        assertThat(results.subList(1, results.size())).as("reads done by each reader while writes were going on")
                .allSatisfy(reads -> assertThat(reads).isPositive());
        assertThat(provider.query(Query.of("doc:*", Scope.PROJECT))).hasSize(120 - 12);
    }

    @Test
    void two_providers_on_one_store_writing_at_once_lose_nothing() throws Exception {
        MemoryProvider second = open(PROJECT, "session-2");
        List<Callable<Void>> tasks = new ArrayList<>();
        for (MemoryProvider p : List.of(provider, second)) {
            for (int t = 0; t < 2; t++) {
                String prefix = (p == provider ? "first" : "second") + t;
                tasks.add(() -> {
                    for (int i = 0; i < 40; i++) {
                        p.set(prefix + ":" + i, "v", Scope.PROJECT);
                        p.set("shared-counter", prefix + i, Scope.PROJECT);
                    }
                    return null;
                });
            }
        }
        runTogether(tasks);
        assertThat(provider.query(Query.of("*", Scope.PROJECT))).hasSize(4 * 40 + 1);
        assertThat(second.query(Query.of("*", Scope.PROJECT))).hasSize(4 * 40 + 1);
        assertThat(provider.get("shared-counter", Scope.PROJECT).orElseThrow().version()).isEqualTo(4 * 40);
        assertThat(second.get("shared-counter", Scope.PROJECT)).isEqualTo(provider.get("shared-counter", Scope.PROJECT));
    }

    @Test
    void concurrent_set_and_delete_of_one_key_leave_a_consistent_state() throws Exception {
        List<Callable<Void>> tasks = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            boolean deleter = t % 2 == 0;
            tasks.add(() -> {
                for (int i = 0; i < 40; i++) {
                    if (deleter) {
                        provider.delete("flicker", Scope.PROJECT);
                    } else {
                        provider.set("flicker", "x" + i, Scope.PROJECT);
                    }
                }
                return null;
            });
        }
        runTogether(tasks);
        Optional<MemoryEntry> end = provider.get("flicker", Scope.PROJECT);
        List<MemoryEntry> listed = provider.query(Query.of("flicker", Scope.PROJECT));
        assertThat(listed).isEqualTo(end.map(List::of).orElse(List.of()));
        // each of the 80 sets adds a version; with tombstones each effective delete takes a number too
        long highest = has(Capability.TOMBSTONES) ? 160L : 80L;
        end.ifPresent(e -> assertThat(e.version()).isBetween(1L, highest));
        // deleted at the end: 1, or with tombstones the number after the tombstone of the last version
        long lastBeforeDelete = !has(Capability.TOMBSTONES) ? 0 : provider.requireHistory()
                .versions("flicker", Scope.PROJECT).stream().mapToLong(MemoryEntry::version).max().orElseThrow();
        long expected = end.map(e -> e.version() + 1).orElse(versionAfterDelete(lastBeforeDelete));
        assertThat(provider.set("flicker", "after", Scope.PROJECT).version()).isEqualTo(expected);
    }
}
