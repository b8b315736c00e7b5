package dev.forge.memory.markdown;

import static dev.forge.memory.markdown.Stores.frontMatter;
import static dev.forge.memory.markdown.Stores.memoryFiles;
import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Several providers, in one JVM or two, appending versions to one key: no version lost, no fork. */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class TwoWritersTest {

    // Not the common pool: with 2 cores it has one thread, and tasks that wait for each other would never meet.
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private static final int WRITES = 50;
    private static final String KEY = "shared";

    @TempDir
    Path base;

    @TempDir
    Path signals;

    private MarkdownMemoryProvider open(String session) {
        return MarkdownMemoryProvider.open(Stores.context(base, session), new MarkdownConfig(null, null, null, false));
    }

    /** The history of the key is one line of {@code count} versions holding exactly {@code values}. */
    private void assertOneLineOfVersions(MarkdownMemoryProvider provider, Set<String> values) {
        int count = values.size();
        List<MemoryEntry> versions = provider.requireHistory().versions(KEY, Scope.PROJECT);
        assertThat(versions).extracting(MemoryEntry::version)
                .containsExactlyElementsOf(LongStream.rangeClosed(1, count).boxed().toList());
        assertThat(versions).extracting(MemoryEntry::value).containsExactlyInAnyOrderElementsOf(values);
        assertThat(provider.get(KEY, Scope.PROJECT).orElseThrow().version()).isEqualTo(count);
        assertThat(provider.doctor()).isEmpty();

        // On disk: one file per version, each superseding a different one, all but the first superseding something.
        List<Path> files = memoryFiles(provider.projectDirectory());
        assertThat(files).hasSize(count);
        List<Map<String, Object>> fields = files.stream().map(Stores::frontMatter).toList();
        List<Object> superseded = fields.stream().map(f -> f.get("supersedes")).filter(s -> s != null).toList();
        assertThat(superseded).hasSize(count - 1).doesNotHaveDuplicates();
        assertThat(fields).extracting(f -> ((Number) f.get("version")).longValue()).doesNotHaveDuplicates();
    }

    private static Set<String> values(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + i).collect(Collectors.toSet());
    }

    @Test
    void two_providers_appending_to_one_key_lose_no_version_and_fork_nothing() throws Exception {
        CyclicBarrier start = new CyclicBarrier(2);
        try (MarkdownMemoryProvider first = open("session-a"); MarkdownMemoryProvider second = open("session-b")) {
            CompletableFuture<Void> a = CompletableFuture.runAsync(() -> write(first, "a write ", start), threads);
            CompletableFuture<Void> b = CompletableFuture.runAsync(() -> write(second, "b write ", start), threads);
            CompletableFuture.allOf(a, b).get(10, TimeUnit.MINUTES);

            Set<String> expected = new HashSet<>(values("a write ", WRITES));
            expected.addAll(values("b write ", WRITES));
            assertOneLineOfVersions(first, expected);
            assertOneLineOfVersions(second, expected);
        }
        try (MarkdownMemoryProvider reopened = open("session-c")) {
            assertThat(reopened.requireHistory().versions(KEY, Scope.PROJECT)).hasSize(2 * WRITES);
        }
    }

    @Test
    void two_threads_sharing_one_provider_lose_no_version() throws Exception {
        CyclicBarrier start = new CyclicBarrier(2);
        try (MarkdownMemoryProvider provider = open("session-a")) {
            CompletableFuture<Void> a = CompletableFuture.runAsync(() -> write(provider, "a write ", start), threads);
            CompletableFuture<Void> b = CompletableFuture.runAsync(() -> write(provider, "b write ", start), threads);
            CompletableFuture.allOf(a, b).get(10, TimeUnit.MINUTES);

            Set<String> expected = new HashSet<>(values("a write ", WRITES));
            expected.addAll(values("b write ", WRITES));
            assertOneLineOfVersions(provider, expected);
        }
    }

    @Test
    void a_delete_racing_with_writes_leaves_one_line() throws Exception {
        CyclicBarrier start = new CyclicBarrier(2);
        try (MarkdownMemoryProvider first = open("session-a"); MarkdownMemoryProvider second = open("session-b")) {
            first.set(KEY, "before", Scope.PROJECT);
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> write(first, "a write ", start), threads);
            CompletableFuture<Integer> deleter = CompletableFuture.supplyAsync(() -> {
                await(start);
                int deleted = 0;
                for (int i = 0; i < WRITES; i++) {
                    deleted += second.delete(KEY, Scope.PROJECT) ? 1 : 0;
                }
                return deleted;
            }, threads);
            CompletableFuture.allOf(writer, deleter).get(10, TimeUnit.MINUTES);

            // Every write and every successful deletion took a version of its own, on one chain.
            long versions = 1 + WRITES + deleter.get();
            List<Path> files = memoryFiles(first.projectDirectory());
            assertThat(files).hasSize((int) versions);
            assertThat(files.stream().map(f -> ((Number) frontMatter(f).get("version")).longValue()).sorted().toList())
                    .containsExactlyElementsOf(LongStream.rangeClosed(1, versions).boxed().toList());
            assertThat(first.doctor()).isEmpty();
            assertThat(second.requireHistory().versions(KEY, Scope.PROJECT)).hasSize(1 + WRITES);
        }
    }

    @Test
    void two_providers_making_the_first_write_of_a_new_directory_at_once_both_succeed() throws Exception {
        for (int round = 0; round < 100; round++) {
            Path fresh = base.resolve("round-" + round);
            CyclicBarrier start = new CyclicBarrier(2);
            try (MarkdownMemoryProvider first = MarkdownMemoryProvider.open(Stores.context(fresh, "a"), MarkdownConfig.defaults());
                    MarkdownMemoryProvider second = MarkdownMemoryProvider.open(Stores.context(fresh, "b"),
                            MarkdownConfig.defaults())) {
                CompletableFuture<MemoryEntry> a = CompletableFuture.supplyAsync(() -> {
                    await(start);
                    return first.set(KEY, "from a", Scope.PROJECT);
                }, threads);
                CompletableFuture<MemoryEntry> b = CompletableFuture.supplyAsync(() -> {
                    await(start);
                    return second.set(KEY, "from b", Scope.PROJECT);
                }, threads);
                CompletableFuture.allOf(a, b).get(10, TimeUnit.MINUTES);
                assertThat(second.requireHistory().versions(KEY, Scope.PROJECT)).as("round %s", round)
                        .extracting(MemoryEntry::value).containsExactlyInAnyOrder("from a", "from b");
            }
        }
    }

    private static void write(MarkdownMemoryProvider provider, String prefix, CyclicBarrier start) {
        await(start);
        for (int i = 0; i < WRITES; i++) {
            provider.set(KEY, prefix + i, Scope.PROJECT);
        }
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(5, TimeUnit.MINUTES);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- a real second process

    private String log() throws IOException {
        Path log = signals.resolve("child.log");
        return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    }

    @Test
    void a_parent_and_a_child_process_appending_to_one_key_lose_no_version() throws Exception {
        // C1 only: a child this short-lived starts faster without the optimising compiler.
        ProcessBuilder builder = new ProcessBuilder(ChildJvm.command(List.of("-XX:TieredStopAtLevel=1"), ChildWriter.class,
                base.toString(), KEY, Integer.toString(WRITES), signals.toString()));
        builder.redirectErrorStream(true);
        builder.redirectOutput(signals.resolve("child.log").toFile());
        try (MarkdownMemoryProvider provider = open("parent-session")) {
            Process child = builder.start();
            int parentWrites = 0;
            try {
                assertThat(ChildJvm.awaitFile(signals.resolve("ready"), Duration.ofMinutes(5)))
                        .as("the child opened its provider; alive: %s, its output:%n%s", child.isAlive(), log()).isTrue();
                ChildJvm.signal(signals.resolve("go"));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (parentWrites < 400 && System.nanoTime() < deadline && (parentWrites < WRITES || child.isAlive())) {
                    provider.set(KEY, "parent write " + parentWrites, Scope.PROJECT);
                    parentWrites++;
                    // Let a waiting child in: an OS file lock is not fair, a release and a re-lock can starve it.
                    Thread.sleep(1);
                }
                assertThat(child.waitFor(5, TimeUnit.MINUTES)).as("the child finished; its output:%n%s", log()).isTrue();
                assertThat(child.exitValue()).as("the child succeeded; its output:%n%s", log()).isZero();
            } finally {
                child.destroyForcibly();
            }

            Set<String> expected = new HashSet<>(values("parent write ", parentWrites));
            expected.addAll(values("child write ", WRITES));
            assertOneLineOfVersions(provider, expected);
            // The writes really overlapped: the history alternates between the two processes more than once.
            String writers = provider.requireHistory().versions(KEY, Scope.PROJECT).stream()
                    .map(v -> v.value().startsWith("child") ? "C" : "P").collect(Collectors.joining());
            assertThat(writers.replaceAll("(.)\\1+", "$1")).as("who wrote each version: %s", writers)
                    .hasSizeGreaterThanOrEqualTo(3);
        }
        try (MarkdownMemoryProvider reopened = open("another-session")) {
            assertThat(reopened.doctor()).isEmpty();
            assertThat(reopened.requireHistory().versions(KEY, Scope.PROJECT)).extracting(MemoryEntry::value)
                    .filteredOn(v -> v.startsWith("child")).hasSize(WRITES);
        }
        assertThat(Stores.namesIn(Stores.projectDirectory(base)))
                .noneMatch(name -> name.startsWith(".tmp-"));
    }
}
