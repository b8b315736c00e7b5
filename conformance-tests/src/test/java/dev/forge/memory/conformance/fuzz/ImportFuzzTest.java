package dev.forge.memory.conformance.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.Reliability;
import dev.forge.memory.conformance.TestClock;
import dev.forge.memory.inmemory.InMemoryMemoryProvider;
import dev.forge.memory.inmemory.InMemoryStore;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import dev.forge.memory.transfer.Exporter;
import dev.forge.memory.transfer.Importer;
import dev.forge.memory.transfer.TransferFileException;
import dev.forge.memory.transfer.TransferFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Export files fed to the {@link Importer}, fuzzed. A valid export of fuzzed entries imports back exactly (values,
 * tags, metadata, versions, timestamps, history). Hostile files (100,000 open brackets, invalid UTF-8, escaped lone
 * surrogates, NUL and 1 MB keys, numbers out of range, deep metadata, front-matter fences) and random edits of a
 * valid export either import or fail with a {@code MemoryException}; a refused file ({@link TransferFileException})
 * writes nothing, and the target stays readable either way.
 */
@Tag(Reliability.TAG)
class ImportFuzzTest {

    private static final String HEADER = "{\"format\":\"forge-memory\",\"version\":\"1.0\",\"exported_at\":\"2026-01-01T00:00:00Z\",\"project\":\"p\"}";

    @TempDir
    Path directory;

    private final TestClock clock = new TestClock();
    private long tried;
    private long rejected;

    private MemoryProvider provider() {
        return new InMemoryMemoryProvider(new InMemoryStore(), ProviderContext.builder().projectId("p").sessionId("s")
                .clock(clock).baseDirectory(directory).forgeHome(directory.resolve("home")).registry(ProviderRegistry.of()).build());
    }

    private static String entryLine(String key, String value, String metadata) {
        return "{\"kind\":\"entry\",\"key\":" + key + ",\"value\":" + value + ",\"scope\":\"project\",\"tags\":[],\"metadata\":"
                + metadata + ",\"created_at\":\"2026-01-01T00:00:00Z\",\"updated_at\":\"2026-01-01T00:00:00Z\",\"version\":1}";
    }

    static List<String> hostileJsonl() {
        return List.of("[".repeat(100_000), "{".repeat(100_000), HEADER + "\n" + "[".repeat(100_000),
                HEADER + "\n" + entryLine("\"k\"", "\"v\"", "{\"a\":".repeat(100_000)),
                HEADER + "\n" + entryLine("\"k\"", "\"v\"", "{\"a\":".repeat(20) + "1" + "}".repeat(20)),
                HEADER + "\n" + entryLine("\"\\ud800\"", "\"v\"", "{}"), HEADER + "\n" + entryLine("\"k\"", "\"\\udc00\"", "{}"),
                HEADER + "\n" + entryLine("\"a\\u0000b\"", "\"v\"", "{}"), HEADER + "\n" + entryLine("\"../../escape\"", "\"v\"", "{}"),
                HEADER + "\n" + entryLine("\"" + "k".repeat(1024 * 1024) + "\"", "\"v\"", "{}"),
                HEADER + "\n" + entryLine("\"k\"", "\"---\\nkey: x\\n---\"", "{\"n\":1e999999}"),
                HEADER + "\n" + entryLine("\"k\"", "\"v\"", "{\"n\":123456789012345678901234567890}"),
                HEADER + "\n" + entryLine("\"k\"", "\"v\"", "{\"n\":null}"), HEADER + "\n" + entryLine("\"k\"", "null", "{}"),
                HEADER + "\n" + entryLine("1", "\"v\"", "{}"), HEADER + "\n" + entryLine("\"k\"", "\"v\"", "[]"),
                HEADER + "\n" + entryLine("\"k\"", "\"v\"", "{}") + "\n" + entryLine("\"k\"", "\"w\"", "{}"),
                HEADER + "\n{\"kind\":\"relation\",\"from\":\"x\",\"to\":\"y\",\"type\":\"x') DETACH DELETE n //\",\"scope\":\"project\"}",
                HEADER + "\n{\"kind\":\"relation\",\"from\":\"x\",\"to\":\"y\",\"type\":\"OK\",\"scope\":\"project\"}",
                HEADER + "\n{\"kind\":\"nonsense\"}", HEADER + "\n" + entryLine("\"k\"", "\"v\"", "{}").replace("\"version\":1", "\"version\":-1"),
                HEADER.replace("1.0", "9.9"), HEADER.replace("forge-memory", "other"), "\ufeff" + HEADER, "", "\u0000",
                HEADER + "\n" + entryLine("\"k\"", "\"v\"", "{}").replace("project", "galaxy"), "null", "[]", "\"text\"",
                HEADER + "\n" + entryLine("\"k\"", "\"v\"", "{}").substring(0, 50));
    }

    @Test
    void a_valid_export_of_fuzzed_entries_imports_back_exactly_and_hostile_or_edited_exports_never_escape_the_contract()
            throws IOException {
        long seed = FuzzInputs.seed();
        MemoryProvider source = provider();
        // One known-valid entry with two versions, so the round trip always has something to carry: with some seeds
        // every fuzzed write is invalid (a control character in the key, metadata too deep), and the export was empty.
        source.set("baseline:entry", "v\u00e4lue \u2014 with\n---\nin the body", Scope.PROJECT, List.of("t1", "t\u00fc2"),
                Map.of("n", 1, "nested", Map.of("list", List.of(1, "two", true))));
        clock.advance(java.time.Duration.ofSeconds(1));
        source.set("baseline:entry", "second version", Scope.PROJECT, List.of("t1"), Map.of());
        FuzzInputs.sample(FuzzInputs.writes(), seed, Reliability.count("fuzz.import.entries", 40, 2_000), write -> {
            try {
                source.set(write.key(), write.value(), Scope.PROJECT, write.tags(), write.metadata());
                clock.advance(java.time.Duration.ofSeconds(1));
                source.set(write.key(), write.value() + " v2", Scope.PROJECT, write.tags(), write.metadata());
            } catch (MemoryException invalid) {
                // the fuzzed write was not valid: nothing to export
            }
        });
        List<MemoryEntry> exported = everything(source);
        assertThat(exported).extracting(MemoryEntry::key).contains("baseline:entry");
        for (TransferFormat format : TransferFormat.values()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Exporter.builder().format(format).build().export(source, out);
            MemoryProvider target = provider();
            Path file = directory.resolve("valid." + format.name().toLowerCase());
            Files.write(file, out.toByteArray());
            Importer.builder().build().importFile(file, format, target);
            assertThat(everything(target)).as("a valid %s export imports back exactly", format).containsExactlyElementsOf(exported);
            for (MemoryEntry entry : exported) {
                assertThat(target.requireHistory().versions(entry.key(), Scope.PROJECT))
                        .isEqualTo(source.requireHistory().versions(entry.key(), Scope.PROJECT));
            }
            fuzzEdits(out.toString(StandardCharsets.UTF_8), format, seed);
        }
        for (String text : hostileJsonl()) {
            tryImport(text.getBytes(StandardCharsets.UTF_8), TransferFormat.JSONL, "a hostile file");
            tryImport(text.getBytes(StandardCharsets.UTF_8), TransferFormat.JSON, "a hostile file");
        }
        byte[] invalidUtf8 = (HEADER + "\n" + entryLine("\"k\"", "\"v\"", "{}")).getBytes(StandardCharsets.UTF_8);
        invalidUtf8[invalidUtf8.length - 40] = (byte) 0xC3;
        invalidUtf8[invalidUtf8.length - 39] = (byte) 0x28;
        tryImport(invalidUtf8, TransferFormat.JSONL, "invalid UTF-8");
        Reliability.report("fuzz", "import", "inputs tried", tried);
        Reliability.report("fuzz", "import", "typed rejections", rejected);
    }

    private void fuzzEdits(String valid, TransferFormat format, long seed) {
        Random random = new Random(seed);
        FuzzInputs.sample(Gen.oneOf(FuzzInputs.text(8), Gen.of("\n", "{", "}", "[", "]", "\"", ",", ":",
                "\\", "\\u", "\\ud800", "null", "1e999", "-1", "\"kind\":\"entry\",", "\u0000")), seed, Reliability.count(
                "fuzz.import", 100, 10_000), insert -> {
                    int at = random.nextInt(valid.length() + 1);
                    int cut = random.nextInt(4) == 0 ? random.nextInt(40) : 0;
                    String edited = valid.substring(0, at) + insert + valid.substring(Math.min(valid.length(), at + cut));
                    tryImport(edited.getBytes(StandardCharsets.UTF_8), format, "an edited export");
                });
    }

    private void tryImport(byte[] content, TransferFormat format, String what) {
        MemoryProvider target = provider();
        target.set("existing", "kept", Scope.PROJECT, List.of("t"), Map.of("m", 1L));
        List<MemoryEntry> before = everything(target);
        Path file = directory.resolve("input." + format.name().toLowerCase());
        try {
            Files.write(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        tried++;
        try {
            Importer.builder().build().importFile(file, format, target);
        } catch (TransferFileException e) {
            rejected++;
            assertThat(e.getMessage()).isNotBlank();
            assertThat(everything(target)).as("a refused import writes nothing").isEqualTo(before);
        } catch (MemoryException e) {
            rejected++;
            assertThat(e.getMessage()).isNotBlank();
        } catch (Throwable e) {
            fail("Importing " + what + " threw " + e.getClass().getName() + " instead of a MemoryException: " + e.getMessage(), e);
        }
        for (MemoryEntry entry : everything(target)) {
            assertThat(target.get(entry.key(), entry.scope())).contains(entry);
        }
    }

    private static List<MemoryEntry> everything(MemoryProvider provider) {
        return provider.query(Query.builder().scopes(Scope.values()).limit(Query.UNLIMITED).build());
    }
}
