package dev.forge.memory.file;

import static dev.forge.memory.file.Stores.entryFile;
import static dev.forge.memory.file.Stores.open;
import static dev.forge.memory.file.Stores.scopeDirectory;
import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.Keys;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the provider does to the file system around it: never through a symbolic link, private permissions,
 * names that fit every common file system, history by hard link, and bounded memory when reading the journal.
 */
class FileSafetyTest {

    @TempDir
    Path store;

    @TempDir
    Path elsewhere;

    private Path linkHistoryOutside(String key) throws IOException {
        Files.writeString(elsewhere.resolve("precious.txt"), "not the store's");
        Path history = Files.createDirectories(scopeDirectory(store, Scope.PROJECT).resolve(".history"));
        return Files.createSymbolicLink(history.resolve(Keys.toFileName(key)), elsewhere);
    }

    private List<String> filesElsewhere() throws IOException {
        try (Stream<Path> files = Files.list(elsewhere)) {
            return files.map(f -> f.getFileName().toString()).toList();
        }
    }

    @Test
    void deleting_a_key_whose_history_is_a_symbolic_link_removes_the_link_not_what_it_points_to() throws IOException {
        try (FileMemoryProvider provider = open(store)) {
            provider.set("k", "v", Scope.PROJECT);
            Path link = linkHistoryOutside("k");

            assertThat(provider.delete("k", Scope.PROJECT)).isTrue();

            assertThat(filesElsewhere()).containsExactly("precious.txt");
            assertThat(Files.exists(link, LinkOption.NOFOLLOW_LINKS)).isFalse();
        }
    }

    @Test
    void an_overwrite_never_writes_through_a_history_directory_that_is_a_symbolic_link() throws IOException {
        try (FileMemoryProvider provider = open(store)) {
            provider.set("k", "one", Scope.PROJECT);
            Path link = linkHistoryOutside("k");

            assertThat(provider.set("k", "two", Scope.PROJECT).version()).isEqualTo(2);

            assertThat(filesElsewhere()).containsExactly("precious.txt");
            assertThat(Files.isDirectory(link, LinkOption.NOFOLLOW_LINKS)).isTrue();
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).extracting(MemoryEntry::value).containsExactly("one", "two");
        }
    }

    @Test
    @DisabledOnOs(OS.WINDOWS)
    void every_file_and_directory_the_store_creates_is_private_to_its_owner() throws IOException {
        try (FileMemoryProvider provider = open(store)) {
            provider.set("a", "one", Scope.PROJECT);
            provider.set("a", "two", Scope.PROJECT);
            provider.set("s", "v", Scope.SESSION);
            provider.set("g", "v", Scope.GLOBAL);
            provider.requireGraph().relate(EntryRef.of("a", Scope.PROJECT), EntryRef.of("g", Scope.GLOBAL), "USES");
            provider.requireTransactions().inTransaction(tx -> tx.set("t", "v", Scope.PROJECT));
        }
        try (Stream<Path> all = Files.walk(store)) {
            for (Path path : all.filter(p -> !p.equals(store)).toList()) {
                String expected = Files.isDirectory(path) ? "rwx------" : "rw-------";
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path))).as("%s", store.relativize(path))
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void file_names_fit_in_143_bytes_for_the_longest_keys_even_when_moved_aside() throws IOException {
        String longest = "K".repeat(512);
        try (FileMemoryProvider provider = open(store, Map.of("compression", "gzip"))) {
            provider.set(longest, "one", Scope.PROJECT);
            provider.set(longest, "two", Scope.PROJECT);
            Files.writeString(scopeDirectory(store, Scope.PROJECT).resolve(Keys.toFileName(longest) + ".json.gz"), "damaged");
            provider.set(longest, "three", Scope.PROJECT);
            assertThat(provider.get(longest, Scope.PROJECT).orElseThrow().value()).isEqualTo("three");
        }
        try (Stream<Path> all = Files.walk(store)) {
            List<String> names = all.map(p -> p.getFileName().toString()).toList();
            assertThat(names).anyMatch(n -> n.contains(".corrupt-"));
            assertThat(names).allSatisfy(n -> assertThat(n.getBytes(StandardCharsets.UTF_8).length).as(n).isLessThanOrEqualTo(143));
        }
    }

    @Test
    @DisabledOnOs(OS.WINDOWS)
    void an_overwrite_keeps_the_replaced_file_as_history_by_a_hard_link() throws IOException {
        try (FileMemoryProvider provider = open(store)) {
            provider.set("k", "one", Scope.PROJECT);
            Object replaced = Files.readAttributes(entryFile(store, Scope.PROJECT, "k"), BasicFileAttributes.class).fileKey();
            provider.set("k", "two", Scope.PROJECT);
            Path history = scopeDirectory(store, Scope.PROJECT).resolve(".history/k/1.json");
            assertThat(Files.readAttributes(history, BasicFileAttributes.class).fileKey()).isEqualTo(replaced);
        }
    }

    @Test
    void catching_up_with_a_huge_journal_does_not_allocate_its_size() throws IOException {
        try (FileMemoryProvider writer = open(store); FileMemoryProvider reader = open(store)) {
            writer.set("a", "v", Scope.PROJECT);
            assertThat(reader.get("a", Scope.PROJECT)).isPresent();
            // Damage: 64 MiB of zeros after what the reader has read (a hole, so it costs no disk).
            try (RandomAccessFile journal = new RandomAccessFile(store.resolve("journal").toFile(), "rw")) {
                journal.setLength(journal.length() + 64L * 1024 * 1024);
            }
            com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());

            assertThat(reader.get("a", Scope.PROJECT)).isPresent();

            long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
            assertThat(allocated).isLessThan(16L * 1024 * 1024);
            writer.set("b", "v", Scope.PROJECT);
            assertThat(reader.get("b", Scope.PROJECT)).isPresent();
        }
    }
}
