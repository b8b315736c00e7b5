package dev.forge.memory.file;

import static dev.forge.memory.file.Stores.entryFile;
import static dev.forge.memory.file.Stores.open;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A provider opened on a store reads no entry file at open; a call about one key reads that key's file (its name
 * comes from the key), and the first call that needs every entry (query, search, relations, doctor) reads them all.
 * The count of files read is the provider's own, not a stand-in's.
 */
class OpenOnDemandTest {

    private static final int KEYS = 30;

    @TempDir
    Path store;

    private void writeKeys() {
        try (FileMemoryProvider provider = open(store)) {
            for (int i = 0; i < KEYS; i++) {
                provider.set("key-" + i, "value " + i, Scope.PROJECT, List.of("t"), Map.of());
            }
        }
    }

    @Test
    void opening_reads_no_entry_file_and_a_get_reads_only_its_keys_file() {
        writeKeys();
        try (FileMemoryProvider provider = open(store)) {
            assertThat(provider.filesRead()).isZero();
            assertThat(provider.get("key-7", Scope.PROJECT)).map(MemoryEntry::value).contains("value 7");
            assertThat(provider.filesRead()).isEqualTo(1);
            assertThat(provider.get("key-7", Scope.PROJECT)).isPresent();
            assertThat(provider.get("absent", Scope.PROJECT)).isEmpty();
            assertThat(provider.get("absent", Scope.PROJECT)).isEmpty();
            assertThat(provider.filesRead()).isEqualTo(1);
        }
    }

    @Test
    void set_and_delete_of_one_key_read_only_that_keys_file() {
        writeKeys();
        try (FileMemoryProvider provider = open(store)) {
            assertThat(provider.set("key-5", "changed", Scope.PROJECT).version()).isEqualTo(2);
            assertThat(provider.delete("key-6", Scope.PROJECT)).isTrue();
            assertThat(provider.filesRead()).isEqualTo(2);
            assertThat(provider.get("key-5", Scope.PROJECT)).map(MemoryEntry::value).contains("changed");
            assertThat(provider.query(Query.of("*", Scope.PROJECT))).hasSize(KEYS - 1);
        }
    }

    @Test
    void a_get_succeeds_beside_a_damaged_file_of_another_key_which_keeps_its_typed_error() throws IOException {
        writeKeys();
        Path damaged = entryFile(store, Scope.PROJECT, "key-9");
        Files.writeString(damaged, "{\"key\": \"key-9\", \"value\": \"cut off");
        try (FileMemoryProvider provider = open(store)) {
            assertThat(provider.get("key-1", Scope.PROJECT)).map(MemoryEntry::value).contains("value 1");
            assertThatThrownBy(() -> provider.get("key-9", Scope.PROJECT)).isInstanceOf(CorruptEntryException.class)
                    .hasMessageContaining(damaged.getFileName().toString());
            assertThat(provider.query(Query.of("*", Scope.PROJECT))).extracting(MemoryEntry::key)
                    .hasSize(KEYS - 1).doesNotContain("key-9");
            assertThat(provider.doctor()).singleElement()
                    .satisfies(problem -> assertThat(problem.location()).isEqualTo(damaged.toString()));
        }
    }

    @Test
    void a_file_edited_by_hand_behind_the_providers_back_is_seen_by_the_next_query() throws IOException {
        writeKeys();
        try (FileMemoryProvider provider = open(store)) {
            assertThat(provider.get("key-1", Scope.PROJECT)).isPresent();
            Path file = entryFile(store, Scope.PROJECT, "key-2");
            String text = Files.readString(file, StandardCharsets.UTF_8);
            Files.writeString(file, text.replace("\"value 2\"", "\"edit! 2\""), StandardCharsets.UTF_8);
            assertThat(provider.query(Query.of("key-2", Scope.PROJECT))).extracting(MemoryEntry::value)
                    .containsExactly("edit! 2");
            assertThat(provider.search(SearchRequest.keyword("edit"))).hasSize(1);
        }
    }
}
