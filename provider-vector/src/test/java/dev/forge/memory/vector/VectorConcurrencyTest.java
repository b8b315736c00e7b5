package dev.forge.memory.vector;

import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/** Writers and searchers of all three modes at once, on two providers of one index, with the HNSW path forced. */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class VectorConcurrencyTest {

    @TempDir
    Path base;

    @Test
    void writers_and_searchers_at_once_lose_nothing_and_see_only_whole_entries() throws Exception {
        int writers = 4;
        int perWriter = 15;
        try (MemoryProvider first = VectorStores.open(base, "p", Map.of("exact_limit", 0));
             MemoryProvider second = VectorStores.open(base, "p", Map.of("exact_limit", 0))) {
            ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
            AtomicBoolean writing = new AtomicBoolean(true);
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(writers + 3);
            try {
                List<Future<?>> writes = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    MemoryProvider provider = w % 2 == 0 ? first : second;
                    int writer = w;
                    writes.add(pool.submit((Callable<Void>) () -> {
                        start.await();
                        for (int i = 0; i < perWriter; i++) {
                            provider.set("w" + writer + ":" + i, "harbour crane report " + writer + " " + i, Scope.PROJECT,
                                    List.of("w" + writer), Map.of("i", i));
                            provider.set("hot", "harbour crane hot entry by " + writer, Scope.PROJECT);
                        }
                        return null;
                    }));
                }
                List<Future<?>> reads = new ArrayList<>();
                for (SearchMode mode : SearchMode.values()) {
                    MemoryProvider provider = mode == SearchMode.SEMANTIC ? second : first;
                    reads.add(pool.submit((Callable<Void>) () -> {
                        start.await();
                        while (writing.get()) {
                            List<Hit> hits = provider.search(SearchRequest.builder("harbour crane report").mode(mode).limit(20).build());
                            for (Hit hit : hits) {
                                MemoryEntry entry = hit.entry();
                                if (!entry.value().startsWith("harbour crane")) {
                                    problems.add(mode + " saw " + entry);
                                }
                            }
                            List<MemoryEntry> tagged = provider.query(Query.builder().tag("w1").build());
                            for (int i = 0; i < tagged.size(); i++) {
                                if (!tagged.get(i).tags().equals(List.of("w1"))) {
                                    problems.add("query saw " + tagged.get(i));
                                }
                            }
                        }
                        return null;
                    }));
                }
                start.countDown();
                for (Future<?> write : writes) {
                    write.get(10, TimeUnit.MINUTES);
                }
                writing.set(false);
                for (Future<?> read : reads) {
                    read.get(10, TimeUnit.MINUTES);
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(problems).isEmpty();
            assertThat(first.query(Query.of("w*", Scope.PROJECT))).hasSize(writers * perWriter);
            assertThat(second.get("hot", Scope.PROJECT).orElseThrow().version()).isEqualTo(writers * perWriter);
            for (int w = 0; w < writers; w++) {
                assertThat(first.search(SearchRequest.builder("harbour crane report").mode(SearchMode.SEMANTIC)
                        .tag("w" + w).limit(50).build())).as("writer %d", w).hasSize(perWriter);
                assertThat(second.search(SearchRequest.builder("harbour crane report " + w + " 7").mode(SearchMode.HYBRID)
                        .tag("w" + w).limit(1).build())).extracting(h -> h.entry().key()).containsExactly("w" + w + ":7");
            }
        }
    }
}
