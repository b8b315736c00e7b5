package dev.forge.memory.markdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.support.ByteSize;
import dev.forge.memory.support.files.AtomicFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Writes never build on a stale view of the files, and multi-file changes never show an older state. */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class WriteSafetyTest {

    @TempDir
    Path base;

    @Test
    void a_reader_during_a_purge_never_sees_an_older_version_come_back() throws Exception {
        try (MarkdownMemoryProvider writer = Stores.open(base); MarkdownMemoryProvider reader = Stores.open(base)) {
            for (int round = 0; round < 5; round++) {
                String key = "secret-" + round;
                for (int i = 1; i <= 60; i++) {
                    writer.set(key, "value " + i, Scope.PROJECT);
                }
                AtomicBoolean done = new AtomicBoolean();
                List<String> seen = new CopyOnWriteArrayList<>();
                Thread watcher = new Thread(() -> {
                    while (!done.get()) {
                        reader.get(key, Scope.PROJECT).ifPresent(e -> seen.add(e.value() + "@v" + e.version()));
                    }
                });
                watcher.start();
                assertThat(writer.requireHistory().purge(key, Scope.PROJECT)).isTrue();
                done.set(true);
                watcher.join();
                // The reader may see the key as it was, or nothing once it is purged; never an older version.
                assertThat(seen).as("values a reader saw while the key was purged").allMatch("value 60@v60"::equals);
                assertThat(reader.get(key, Scope.PROJECT)).isEmpty();
            }
        }
    }

    @Test
    void relate_after_an_edit_in_place_keeps_the_edit() throws Exception {
        try (MarkdownMemoryProvider provider = Stores.open(base)) {
            provider.set("a", "original body", Scope.PROJECT);
            provider.set("b", "other", Scope.PROJECT);
            Path file = Stores.memoryFiles(provider.projectDirectory()).stream()
                    .filter(f -> read(f).contains("key: a\n")).findFirst().orElseThrow();
            Files.writeString(file, read(file).replace("original body", "edited by a person"), StandardCharsets.UTF_8);
            provider.requireGraph().relate(new EntryRef("a", Scope.PROJECT), new EntryRef("b", Scope.PROJECT), "LINKS");
            assertThat(read(file)).contains("edited by a person").contains("relationship: LINKS");
            assertThat(provider.get("a", Scope.PROJECT).orElseThrow().value()).isEqualTo("edited by a person");
            assertThat(provider.requireGraph().relations(new EntryRef("a", Scope.PROJECT), Direction.OUTGOING)).hasSize(1);
        }
    }

    @Test
    void set_after_an_edit_in_place_builds_on_the_edited_version() throws Exception {
        try (MarkdownMemoryProvider provider = Stores.open(base)) {
            provider.set("k", "v1", Scope.PROJECT);
            Path file = Stores.memoryFiles(provider.projectDirectory()).get(0);
            Files.writeString(file, read(file).replace("---\nv1", "person_note: keep me\n---\nv1"), StandardCharsets.UTF_8);
            MemoryEntry second = provider.set("k", "v2", Scope.PROJECT);
            assertThat(second.version()).isEqualTo(2);
            Path newer = Stores.memoryFiles(provider.projectDirectory()).stream().filter(f -> !f.equals(file))
                    .findFirst().orElseThrow();
            assertThat(read(newer)).as("the unknown field the person added is carried to the next version")
                    .contains("person_note: keep me");
        }
    }

    @Test
    void a_memory_directory_deleted_while_open_is_created_again_by_the_next_write() throws Exception {
        try (MarkdownMemoryProvider provider = Stores.open(base)) {
            provider.set("k", "before", Scope.PROJECT);
            AtomicFiles.deleteTree(provider.projectDirectory());
            MemoryEntry after = provider.set("k", "after", Scope.PROJECT);
            assertThat(after.version()).as("the old versions are gone with the directory").isEqualTo(1);
            assertThat(Files.exists(provider.projectDirectory().resolve(".lock"))).isTrue();
        }
        try (MarkdownMemoryProvider reopened = Stores.open(base)) {
            assertThat(reopened.get("k", Scope.PROJECT).map(MemoryEntry::value)).isEqualTo(Optional.of("after"));
        }
    }

    @Test
    void opening_an_existing_store_creates_and_locks_nothing() throws Exception {
        Path directory;
        try (MarkdownMemoryProvider provider = Stores.open(base)) {
            provider.set("k", "v", Scope.PROJECT);
            directory = provider.projectDirectory();
        }
        Files.delete(directory.resolve(".lock"));
        try (MarkdownMemoryProvider reader = Stores.open(base)) {
            assertThat(reader.get("k", Scope.PROJECT)).isPresent();
            assertThat(Files.exists(directory.resolve(".lock"))).isFalse();
        }
    }

    @Test
    void max_file_size_is_bounded_on_both_sides() {
        for (long bytes : new long[] {1024, 257L * 1024 * 1024, 4L * 1024 * 1024 * 1024}) {
            assertThatThrownBy(() -> new MarkdownConfig(null, null, ByteSize.ofBytes(bytes), null)).as("%s bytes", bytes)
                    .isInstanceOf(ConfigurationException.class).hasMessageContaining("max_file_size");
        }
        assertThat(new MarkdownConfig(null, null, ByteSize.parse("256MB"), null).maxFileSize().bytes())
                .isEqualTo(256L * 1024 * 1024);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
