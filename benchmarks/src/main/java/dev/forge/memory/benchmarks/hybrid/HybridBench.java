package dev.forge.memory.benchmarks.hybrid;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.benchmarks.BenchFiles;
import dev.forge.memory.benchmarks.Measure;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A cache hit of the hybrid router (sqlite storage child, Caffeine cache warmed with every entry) beside a raw Caffeine
 * cache of the same size and expiry holding the same entries under the same kind of key (namespace and key).
 */
@Fork(1)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class HybridBench {

    private static final String PROJECT = "bench";

    /** The baseline's cache key: the scope's namespace and the key, as the router's cache keys its entries. */
    public record CacheKey(String namespace, String key) {
    }

    /** The router with its cache warmed, and the raw cache. */
    @State(org.openjdk.jmh.annotations.Scope.Benchmark)
    public static class Caches {

        /** Entries in the store and in both caches. */
        @Param("10000")
        public int entries;

        Path dir;
        MemoryProvider ours;
        Cache<CacheKey, MemoryEntry> baseline;
        String[] keys;
        int next;

        /** Fills the store through the router (which caches each write), reads every entry back, fills the raw cache. */
        @Setup(Level.Trial)
        public void open() {
            dir = BenchFiles.createTempDirectory("forge-bench-hybrid");
            Map<String, Object> config = Map.of(
                    "storage", Map.of("provider", "sqlite", "path", dir.resolve("memory.db").toString(), "synchronous", "normal"),
                    "cache", Map.of("ttl", "1h", "max_entries", entries));
            ProviderContext context = ProviderContext.builder().projectId(PROJECT).sessionId("bench-session")
                    .baseDirectory(dir).forgeHome(dir.resolve("forge-home")).registry(ProviderRegistry.load())
                    .config(ProviderConfig.of(config, "bench", "memory.config")).build();
            ours = context.open("hybrid", context.config());
            baseline = Caffeine.newBuilder().expireAfterWrite(Duration.ofHours(1)).maximumSize(entries).build();
            keys = new String[entries];
            for (int i = 0; i < entries; i++) {
                keys[i] = String.format("note/%06d", i);
            }
            for (int i = 0; i < entries; i++) {
                MemoryEntry entry = ours.set(keys[i], "value of entry " + i, Scope.PROJECT, List.of("bench"), Map.of("n", (long) i));
                baseline.put(new CacheKey("project\u0000" + PROJECT, keys[i]), entry);
            }
            for (String key : keys) {
                ours.get(key, Scope.PROJECT).orElseThrow();
            }
        }

        /** Closes the router and deletes its store. */
        @TearDown(Level.Trial)
        public void close() {
            ours.close();
            BenchFiles.deleteTree(dir);
        }

        int nextIndex() {
            next = (int) ((next + 7919L) % entries);
            return next;
        }
    }

    /** Ours: {@code get} of a PROJECT key whose entry is in the router's cache. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @Measure(value = "hybrid cache-hit get vs raw Caffeine getIfPresent (at most 3x the time)", target = 1.0 / 3)
    public Optional<MemoryEntry> cached_get_ours(Caches caches) {
        return caches.ours.get(caches.keys[caches.nextIndex()], Scope.PROJECT);
    }

    /** Baseline: {@code getIfPresent} on a Caffeine cache holding the same entries, keyed the same way. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public MemoryEntry cached_get_baseline(Caches caches) {
        int i = caches.nextIndex();
        return caches.baseline.getIfPresent(new CacheKey("project\u0000" + PROJECT, caches.keys[i]));
    }
}
