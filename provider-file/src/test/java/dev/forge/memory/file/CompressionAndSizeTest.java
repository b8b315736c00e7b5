package dev.forge.memory.file;

import static dev.forge.memory.file.Stores.filesUnder;
import static dev.forge.memory.file.Stores.open;
import static dev.forge.memory.file.Stores.scopeDirectory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.ValueTooLargeException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code compression} and {@code max_file_size}. */
class CompressionAndSizeTest {

    @TempDir
    Path store;

    @Test
    void gzip_compression_writes_real_gzip_files_holding_the_json_entry() throws IOException {
        String value = "a value that repeats, ".repeat(200);
        try (FileMemoryProvider provider = open(store, Map.of("compression", "gzip"))) {
            provider.set("k", value, Scope.PROJECT);
            provider.set("k", value + "!", Scope.PROJECT);
        }
        Path file = scopeDirectory(store, Scope.PROJECT).resolve("k.json.gz");
        byte[] bytes = Files.readAllBytes(file);
        assertThat(bytes[0] & 0xff).isEqualTo(0x1f);
        assertThat(bytes[1] & 0xff).isEqualTo(0x8b);
        assertThat((long) bytes.length).isLessThan(value.length() / 4);
        JsonNode json;
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
            json = new ObjectMapper().readTree(in);
        }
        assertThat(json.get("key").asText()).isEqualTo("k");
        assertThat(json.get("value").asText()).isEqualTo(value + "!");
        assertThat(filesUnder(scopeDirectory(store, Scope.PROJECT))).containsExactly(".history/k/1.json.gz", "k.json.gz");
    }

    @Test
    void switching_compression_keeps_old_files_readable_and_rewrites_replace_them() {
        try (FileMemoryProvider plain = open(store)) {
            plain.set("old", "written plain", Scope.PROJECT);
            plain.set("kept", "stays plain", Scope.PROJECT);
        }
        try (FileMemoryProvider zipped = open(store, Map.of("compression", "GZIP"))) {
            assertThat(zipped.get("old", Scope.PROJECT).orElseThrow().value()).isEqualTo("written plain");
            MemoryEntry rewritten = zipped.set("old", "written compressed", Scope.PROJECT);
            assertThat(rewritten.version()).isEqualTo(2);
            assertThat(zipped.requireHistory().versions("old", Scope.PROJECT)).extracting(MemoryEntry::value)
                    .containsExactly("written plain", "written compressed");
        }
        // The replaced version is kept as it was on disk (a hard link, not a re-encoded copy).
        assertThat(filesUnder(scopeDirectory(store, Scope.PROJECT))).containsExactly(".history/old/1.json", "kept.json", "old.json.gz");
        try (FileMemoryProvider plainAgain = open(store)) {
            assertThat(plainAgain.get("old", Scope.PROJECT).orElseThrow().value()).isEqualTo("written compressed");
            assertThat(plainAgain.get("kept", Scope.PROJECT).orElseThrow().value()).isEqualTo("stays plain");
        }
    }

    @Test
    void limits_cap_values_at_max_file_size_when_it_is_below_the_default() {
        try (FileMemoryProvider small = open(store, Map.of("max_file_size", "2KB"))) {
            assertThat(small.limits().maxValueBytes()).isEqualTo(2048);
        }
        try (FileMemoryProvider large = open(store, Map.of("max_file_size", "64MB"))) {
            assertThat(large.limits()).isEqualTo(Limits.DEFAULT);
        }
        try (FileMemoryProvider byDefault = open(store)) {
            assertThat(byDefault.config().maxFileSize().bytes()).isEqualTo(8L * 1024 * 1024);
            assertThat(byDefault.limits()).isEqualTo(Limits.DEFAULT);
        }
    }

    @Test
    void an_entry_file_over_max_file_size_is_refused_with_size_limit_and_config_key() {
        try (FileMemoryProvider provider = open(store, Map.of("max_file_size", 1024))) {
            provider.set("k", "small", Scope.PROJECT);
            String value = "x".repeat(1000); // within the value limit, but the JSON around it pushes the file over
            assertThat((long) value.length()).isLessThanOrEqualTo(provider.limits().maxValueBytes());

            assertThatThrownBy(() -> provider.set("k", value, Scope.PROJECT))
                    .isInstanceOf(ValueTooLargeException.class)
                    .hasMessageContaining("'k'")
                    .hasMessageContaining("1024 bytes")
                    .hasMessageContaining("max_file_size")
                    .hasMessageMatching("(?s).*would be 1[01]\\d\\d bytes.*");
            assertThatThrownBy(() -> provider.set("new", value, Scope.PROJECT)).isInstanceOf(ValueTooLargeException.class);

            assertThat(provider.get("k", Scope.PROJECT).orElseThrow().value()).isEqualTo("small");
            assertThat(provider.get("new", Scope.PROJECT)).isEmpty();
        }
        assertThat(filesUnder(scopeDirectory(store, Scope.PROJECT))).containsExactly("k.json");
    }

    @Test
    void max_file_size_counts_the_compressed_size() {
        String compressible = "y".repeat(1000);
        try (FileMemoryProvider plain = open(store, Map.of("max_file_size", 1024))) {
            assertThatThrownBy(() -> plain.set("k", compressible, Scope.PROJECT)).isInstanceOf(ValueTooLargeException.class);
        }
        try (FileMemoryProvider zipped = open(store, Map.of("max_file_size", 1024, "compression", "gzip"))) {
            assertThat(zipped.set("k", compressible, Scope.PROJECT).value()).isEqualTo(compressible);
        }
    }
}
