package dev.forge.memory.conformance.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.conformance.ContractSupport;
import dev.forge.memory.conformance.Reliability;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * For providers that keep one readable file per entry (JSON, markdown with front matter): the file of one entry is
 * edited on disk (random insertions and cuts, invalid UTF-8, encoded surrogates, NUL, {@code ---} fences, YAML alias
 * bombs and deep nesting, truncation), then the store is reopened and read. Every call returns or throws a
 * {@link MemoryException} subclass; every other entry still reads back exactly; doctor answers (it may list the
 * damaged file). After each sample the store's files are put back as they were, so that every sample damages the file
 * of the victim's current version. Tries: {@code Reliability.count("fuzz.disk", 50, 10000)}.
 */
@Tag(Reliability.TAG)
public abstract class OnDiskFuzzContract extends ContractSupport {

    private static final String MARKER = "victim-value-marker";

    /** The provider's name in the reliability figures. */
    protected abstract String providerName();

    @Test
    void damaged_entry_files_get_typed_errors_and_leave_every_other_entry_readable() throws IOException {
        long seed = FuzzInputs.seed();
        int tries = Reliability.count("fuzz.disk", 50, 10_000);
        List<MemoryEntry> goods = List.of(put("good-1", "first good value", List.of("g"), Map.of("n", 1L)),
                put("good-2", "second good value\n---\nnot: front matter\n---", List.of(), Map.of()));
        Map<Path, byte[]> before = contents();
        put("victim", MARKER, List.of("v"), Map.of("m", "x"));
        Map<Path, byte[]> after = contents();
        List<Path> files = after.entrySet().stream()
                .filter(e -> !Arrays.equals(e.getValue(), before.get(e.getKey())))
                .filter(e -> new String(e.getValue(), StandardCharsets.UTF_8).contains(MARKER))
                .map(Map.Entry::getKey).toList();
        assertThat(files).as("the victim's entry file").hasSize(1);
        Path file = files.get(0);
        byte[] original = after.get(file);
        Random random = new Random(seed);
        Gen<byte[]> inserts = Gen.oneOf(FuzzInputs.text(8).map(s -> s.getBytes(StandardCharsets.UTF_8)),
                Gen.of(bytes(0xC3, 0x28), bytes(0xFF), bytes(0xED, 0xA0, 0x80), bytes(0xF4, 0x90, 0x80, 0x80),
                        bytes(0), "\n---\n".getBytes(StandardCharsets.UTF_8), "---".getBytes(StandardCharsets.UTF_8),
                        "key: good-1\n".getBytes(StandardCharsets.UTF_8), "version: -1\n".getBytes(StandardCharsets.UTF_8),
                        "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                                .getBytes(StandardCharsets.UTF_8), "[".repeat(100_000).getBytes(StandardCharsets.UTF_8),
                        "{\"a\":".repeat(10_000).getBytes(StandardCharsets.UTF_8), "\"\\ud800\"".getBytes(StandardCharsets.UTF_8),
                        "1e999999".getBytes(StandardCharsets.UTF_8), "!!java.lang.Runtime {}".getBytes(StandardCharsets.UTF_8)));
        long[] counts = {0, 0};
        FuzzInputs.sample(inserts, seed, tries, insert -> {
            int at = random.nextInt(original.length + 1);
            int cut = random.nextInt(3) == 0 ? random.nextInt(Math.min(40, original.length - at) + 1) : 0;
            ByteArrayOutputStream edited = new ByteArrayOutputStream();
            edited.write(original, 0, at);
            edited.writeBytes(insert);
            edited.write(original, at + cut, original.length - at - cut);
            write(file, edited.toByteArray());
            reopen();
            String what = " after inserting " + insert.length + " bytes at " + at + " of " + file.getFileName()
                    + " (replay with -Dforge.fuzz.seed=" + seed + ")";
            typed(counts, "get" + what, () -> provider.get("victim", Scope.PROJECT));
            typed(counts, "query" + what, () -> provider.query(Query.builder().build()));
            typed(counts, "search" + what, () -> provider.search(SearchRequest.keyword("good value victim")));
            typed(counts, "doctor" + what, () -> provider.doctor());
            for (MemoryEntry good : goods) {
                assertThat(provider.get(good.key(), Scope.PROJECT)).as(good.key() + what).contains(good);
            }
            typed(counts, "set" + what, () -> provider.set("victim", "rewritten", Scope.PROJECT));
            for (MemoryEntry good : goods) {
                assertThat(provider.get(good.key(), Scope.PROJECT)).as(good.key() + what).contains(good);
            }
            typed(counts, "delete" + what, () -> provider.delete("victim", Scope.PROJECT));
            for (MemoryEntry good : goods) {
                assertThat(provider.get(good.key(), Scope.PROJECT)).as(good.key() + what).contains(good);
            }
            // Back to the store as it was, so that the next sample damages the victim's current file again.
            restore(after);
        });
        Reliability.report("fuzz", providerName() + " files on disk", "inputs tried", counts[0]);
        Reliability.report("fuzz", providerName() + " files on disk", "typed rejections", counts[1]);
    }

    private static void typed(long[] counts, String what, Callable<?> call) {
        counts[0]++;
        try {
            call.call();
        } catch (MemoryException e) {
            counts[1]++;
            assertThat(e.getMessage()).as(what).isNotBlank();
        } catch (Throwable e) {
            fail("The " + what + " threw " + e.getClass().getName() + " instead of a MemoryException: " + e.getMessage(), e);
        }
    }

    private static byte[] bytes(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }

    private static void write(Path file, byte[] content) {
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Puts every file under the store back as {@code contents} has it, removing files written since. */
    private void restore(Map<Path, byte[]> contents) {
        try {
            for (Path path : contents().keySet()) {
                if (!contents.containsKey(path)) {
                    Files.delete(path);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        contents.forEach(OnDiskFuzzContract::write);
    }

    private Map<Path, byte[]> contents() throws IOException {
        Map<Path, byte[]> contents = new HashMap<>();
        try (Stream<Path> files = Files.walk(storeDirectory)) {
            for (Path path : files.filter(Files::isRegularFile).toList()) {
                contents.put(path, Files.readAllBytes(path));
            }
        }
        return contents;
    }
}
