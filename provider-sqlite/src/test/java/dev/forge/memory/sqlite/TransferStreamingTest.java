package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ChildJvm;
import dev.forge.memory.transfer.ExportResult;
import dev.forge.memory.transfer.Exporter;
import dev.forge.memory.transfer.ImportResult;
import dev.forge.memory.transfer.Importer;
import dev.forge.memory.transfer.TransferFormat;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Export and import stream: a JVM whose heap is far smaller than the data imports a JSON Lines file into sqlite and
 * exports the store again. If either held the store's records in memory it would run out of heap. The count and heap
 * can be raised for the large run: {@code -Dforge.transfer.entries=1000000 -Dforge.transfer.heap=256m
 * -Dforge.transfer.value=256 -Dforge.transfer.minutes=60} (value length in characters, time allowed).
 */
class TransferStreamingTest {

    private static final int ENTRIES = Integer.getInteger("forge.transfer.entries", 12_000);
    private static final String HEAP = System.getProperty("forge.transfer.heap", "32m");
    /** 4 KiB a value by default: 12,000 entries are about 50 MB of values, in a 32 MB heap. */
    private static final int VALUE_CHARS = Integer.getInteger("forge.transfer.value", 4096);

    @Test
    void a_store_larger_than_the_heap_imports_and_exports_in_a_small_jvm(@TempDir Path directory) throws Exception {
        Path input = directory.resolve("input.jsonl");
        try (BufferedWriter out = Files.newBufferedWriter(input, StandardCharsets.UTF_8)) {
            out.write("{\"format\":\"forge-memory\",\"version\":\"1.0\",\"project\":\"big\"}\n");
            String filler = "x".repeat(Math.max(0, VALUE_CHARS - 16));
            for (int i = 0; i < ENTRIES; i++) {
                out.write("{\"kind\":\"entry\",\"key\":\"k" + i + "\",\"value\":\"" + String.format("%015d ", i) + filler
                        + "\",\"scope\":\"project\",\"created_at\":\"2026-01-01T00:00:00.000Z\","
                        + "\"updated_at\":\"2026-01-02T00:00:00.000Z\",\"version\":3}\n");
            }
        }
        Path output = directory.resolve("output.jsonl");
        Path store = Files.createDirectories(directory.resolve("store"));

        Process child = new ProcessBuilder(ChildJvm.command(List.of("-Xmx" + HEAP), Child.class,
                store.toString(), input.toString(), output.toString()))
                .redirectErrorStream(true).redirectOutput(directory.resolve("child.log").toFile()).start();
        boolean finished = child.waitFor(Integer.getInteger("forge.transfer.minutes", 10), TimeUnit.MINUTES);
        String log = Files.readString(directory.resolve("child.log"));
        if (!finished) {
            child.destroyForcibly();
        }
        assertThat(finished).as("the child finished: %s", log).isTrue();
        assertThat(child.exitValue()).as("child output: %s", log).isZero();
        System.out.println("child: " + log.strip());
        assertThat(log).contains("imported " + ENTRIES + " exported " + ENTRIES);

        long lines = 0;
        try (BufferedReader in = Files.newBufferedReader(output, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (lines > 0) {
                    assertThat(line).contains("\"version\":3").contains("\"updated_at\":\"2026-01-02T00:00:00.000Z\"");
                }
                lines++;
            }
        }
        assertThat(lines).isEqualTo(ENTRIES + 1L);
    }

    /** The small JVM: imports the file into a sqlite store, exports the store, prints both counts. */
    public static final class Child {
        private Child() {
        }

        /** Arguments: store directory, input file, output file. */
        public static void main(String[] args) throws IOException {
            long started = System.nanoTime();
            try (MemoryProvider provider = new SqliteMemoryProviderFactory().open(
                    Stores.context(Path.of(args[0]), Map.of("synchronous", "normal")))) {
                ImportResult imported = Importer.builder().build().importFile(Path.of(args[1]), provider);
                long importedAt = System.nanoTime();
                ExportResult exported;
                try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(Path.of(args[2])))) {
                    exported = Exporter.builder().format(TransferFormat.JSONL).build().export(provider, out);
                }
                long done = System.nanoTime();
                Runtime runtime = Runtime.getRuntime();
                System.out.printf("imported %d exported %d; import %.1f s, export %.1f s, max heap %d MB, used %d MB%n",
                        imported.created(), exported.entries().get(Scope.PROJECT), (importedAt - started) / 1e9,
                        (done - importedAt) / 1e9, runtime.maxMemory() >> 20, (runtime.totalMemory() - runtime.freeMemory()) >> 20);
            }
        }
    }
}
