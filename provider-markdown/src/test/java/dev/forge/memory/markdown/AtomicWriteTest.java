package dev.forge.memory.markdown;

import static dev.forge.memory.markdown.Stores.open;
import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Readers of the directory, people and other providers, never see half a memory file. */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class AtomicWriteTest {

    // Not the common pool: with 2 cores it has one thread, and tasks that wait for each other would never meet.
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private static final int VERSIONS = 25;
    private static final int VALUE_SIZE = 200 * 1024;
    private static final Pattern VERSION = Pattern.compile("(?m)^version: (\\d+)$");

    @TempDir
    Path base;

    /** The value of version {@code n}: large, and different in every part, so that a cut shows. */
    private static String value(int n) {
        StringBuilder value = new StringBuilder(VALUE_SIZE + 64).append("BEGIN ").append(n).append('\n');
        String line = "version " + n + " of a large memory, line ";
        for (int i = 0; value.length() < VALUE_SIZE; i++) {
            value.append(line).append(i).append('\n');
        }
        return value.append("END ").append(n).toString();
    }

    /** What a person's editor would check: a whole memory file holding the whole value of its version. */
    private static void checkWhole(Path file, String text) {
        assertThat(text).as("%s starts with its front-matter", file).startsWith("---\n");
        String body = Stores.bodyText(text);
        Matcher version = VERSION.matcher(Stores.frontMatterText(text));
        assertThat(version.find()).as("%s has a version", file).isTrue();
        int n = Integer.parseInt(version.group(1));
        assertThat(body).as("%s holds the whole value of version %s", file, n).isEqualTo(value(n) + "\n");
    }

    @Test
    void a_reader_listing_the_directory_never_sees_a_partial_file() throws Exception {
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger filesChecked = new AtomicInteger();
        Path directory = Stores.projectDirectory(base);
        CountDownLatch readerRunning = new CountDownLatch(1);

        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
            readerRunning.countDown();
            while (writing.get()) {
                if (!Files.isDirectory(directory)) {
                    continue;
                }
                try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "mem_*.md")) {
                    for (Path file : files) {
                        String text;
                        try {
                            text = Files.readString(file, StandardCharsets.UTF_8);
                        } catch (NoSuchFileException e) {
                            continue;
                        }
                        checkWhole(file, text);
                        filesChecked.incrementAndGet();
                    }
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            }
        }, threads);

        try (MarkdownMemoryProvider provider = open(base)) {
            readerRunning.await();
            for (int n = 1; n <= VERSIONS; n++) {
                assertThat(provider.set("large", value(n), Scope.PROJECT).version()).isEqualTo(n);
            }
        } finally {
            writing.set(false);
        }
        reader.get(10, TimeUnit.MINUTES);
        assertThat(filesChecked.get()).as("the reader read files while they were written").isPositive();

        List<Path> files = Stores.memoryFiles(directory);
        assertThat(files).hasSize(VERSIONS);
        for (Path file : files) {
            checkWhole(file, Stores.read(file));
        }
        assertThat(Stores.namesIn(directory)).noneMatch(name -> name.startsWith(".tmp-"))
                .containsExactlyInAnyOrderElementsOf(concat(files.stream().map(f -> f.getFileName().toString()).toList(),
                        ".generation", ".lock"));
    }

    @Test
    void another_provider_reading_while_one_writes_sees_only_whole_values() throws Exception {
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger reads = new AtomicInteger();
        try (MarkdownMemoryProvider writer = open(base, new MarkdownConfig(null, null, null, false));
                MarkdownMemoryProvider watcher = open(base, new MarkdownConfig(null, null, null, false))) {
            writer.set("large", value(1), Scope.PROJECT);
            CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
                long lastVersion = 0;
                while (writing.get()) {
                    MemoryEntry entry = watcher.get("large", Scope.PROJECT).orElseThrow();
                    assertThat(entry.value()).isEqualTo(value((int) entry.version()));
                    assertThat(entry.version()).as("versions never go back").isGreaterThanOrEqualTo(lastVersion);
                    lastVersion = entry.version();
                    reads.incrementAndGet();
                }
            }, threads);
            try {
                for (int n = 2; n <= VERSIONS; n++) {
                    writer.set("large", value(n), Scope.PROJECT);
                }
            } finally {
                writing.set(false);
            }
            reader.get(10, TimeUnit.MINUTES);
            assertThat(reads.get()).isPositive();
            assertThat(watcher.get("large", Scope.PROJECT).orElseThrow().version()).isEqualTo(VERSIONS);
            assertThat(watcher.doctor()).isEmpty();
        }
    }

    @Test
    void relate_rewrites_the_head_whole() throws Exception {
        try (MarkdownMemoryProvider provider = open(base, new MarkdownConfig(null, null, null, false))) {
            provider.set("large", value(1), Scope.PROJECT);
            for (int i = 0; i < 10; i++) {
                provider.set("target" + i, "t", Scope.PROJECT);
                provider.requireGraph().relate(EntryRef.of("large", Scope.PROJECT),
                        EntryRef.of("target" + i, Scope.PROJECT), "relates_to");
            }
            Path head = Stores.fileOf(provider.projectDirectory(), "large", 1);
            checkWhole(head, Stores.read(head));
            assertThat(Stores.namesIn(provider.projectDirectory())).noneMatch(name -> name.startsWith(".tmp-"));
        }
    }

    private static List<String> concat(List<String> names, String... more) {
        List<String> all = new ArrayList<>(names);
        all.addAll(List.of(more));
        return all;
    }
}
