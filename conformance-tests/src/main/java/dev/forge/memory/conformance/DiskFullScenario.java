package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.forge.memory.Capability;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StorageException;
import dev.forge.memory.inmemory.InMemoryMemoryProvider;
import dev.forge.memory.inmemory.InMemoryStore;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import dev.forge.memory.transfer.ExportResult;
import dev.forge.memory.transfer.Exporter;
import dev.forge.memory.transfer.Importer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * The disk-full test of a file-backed provider on a {@link SmallDisk}: entries are stored, the disk is filled, then
 * sets, overwrites and deletes are tried until they are refused. Every refusal must be a {@link StorageException}
 * whose message says the disk is full; every entry must read as before the refused write; after the space comes
 * back the same provider accepts writes.
 *
 * <p>Then the disk is filled again and a provider is opened afresh on the store, as a new process would open it (one
 * that finds no lock, journal or shared-memory file of an earlier one): on the full disk it must get, query, search
 * and export every entry (the export to a file on another disk, read back through an import), {@code doctor()} must
 * be clean, and its writes must be refused as above, or succeed, and change nothing else; once space is back it must
 * accept writes without being reopened. No refused write may show anywhere, history and export included. At the end
 * the store reopens with nothing lost, {@code doctor()} clean and a new write accepted.
 *
 * <p>Figures: {@code faults <provider> disk-full writes refused} and {@code faults <provider> entries read on a full
 * disk by a fresh open}.
 */
public final class DiskFullScenario {

    private static final int ENTRIES = 8;

    private DiskFullScenario() {
    }

    /**
     * Runs the scenario on a tmpfs of {@code kib} KiB mounted under {@code scratch}; skips the test (a JUnit
     * assumption) where this machine cannot mount one. The export of the fresh open goes to {@code scratch}.
     *
     * @param provider the provider's name, for the figure
     * @param open     opens the provider on a store directory (the same directory again means the same store)
     * @return the number of writes refused
     */
    public static int run(Path scratch, int kib, String provider, Function<Path, MemoryProvider> open) {
        java.util.Optional<SmallDisk> mounted = SmallDisk.mount(scratch.resolve("disk"), kib);
        Assumptions.assumeTrue(mounted.isPresent(), "needs root and mount -t tmpfs (Linux) for a real full disk");
        try (SmallDisk disk = mounted.get()) {
            return run(disk, scratch, provider, open);
        }
    }

    private static int run(SmallDisk disk, Path outside, String providerName, Function<Path, MemoryProvider> open) {
        Writes writes = new Writes();
        int attempts = Reliability.count("diskfull.attempts", 40, 2000);
        int wanted = Reliability.count("diskfull.refusals", 9, 300);
        MemoryProvider provider = open.apply(disk.root());
        try {
            for (int i = 0; i < ENTRIES; i++) {
                writes.accepted(provider.set("k" + i, writes.value("stored before the disk filled", 200), Scope.PROJECT));
            }
            disk.fill();
            for (int i = 0; i < attempts && writes.refusals() < wanted; i++) {
                String kind = List.of("set", "overwrite", "delete").get(i % 3);
                writes.attempt(provider, kind, kind.equals("set") ? "new" + i : "k" + (i / 3) % ENTRIES);
                disk.fill();
                assertEntries(provider, writes.expected);
            }
            assertThat(writes.refused.get("set")).as("refused sets, of %s", writes.refused).isPositive();
            assertThat(writes.refused.get("overwrite")).as("refused overwrites, of %s", writes.refused).isPositive();

            disk.free();
            writes.accepted(provider.set("after", writes.value("written once space was back", 0), Scope.PROJECT));
            writes.accepted(provider.set("k0", writes.value("overwritten once space was back", 0), Scope.PROJECT));
            assertEntries(provider, writes.expected);
            provider.close();
            provider = null;
            assertThat(tempFiles(disk.root())).as("temporary files left after a clean close").isEmpty();

            disk.fill();
            int read = freshOpenOnFullDisk(open.apply(disk.root()), disk, outside, writes);

            try (MemoryProvider reopened = open.apply(disk.root())) {
                assertEntries(reopened, writes.expected);
                assertThat(reopened.doctor()).as("doctor after the disk was full").isEmpty();
                reopened.set("reopened", "written after reopening", Scope.PROJECT);
                assertThat(reopened.get("reopened", Scope.PROJECT)).map(MemoryEntry::value).contains("written after reopening");
            }
            Reliability.report("faults", providerName, "disk-full writes refused", writes.refusals());
            Reliability.report("faults", providerName, "entries read on a full disk by a fresh open", read);
            return writes.refusals();
        } finally {
            if (provider != null) {
                provider.close();
            }
        }
    }

    /**
     * What a new process finds on a full disk: every entry readable by get, query, search and export, a clean doctor,
     * and writes refused or made whole; then, once the space is back, its writes are accepted. Closes {@code fresh};
     * returns the number of entries read back while the disk was full.
     */
    private static int freshOpenOnFullDisk(MemoryProvider fresh, SmallDisk disk, Path outside, Writes writes) {
        try (fresh) {
            assertReadable(fresh, writes, outside.resolve("export-on-a-full-disk.json"));
            assertThat(fresh.doctor()).as("doctor on a full disk").isEmpty();
            int before = writes.refusals();
            writes.attempt(fresh, "set", "new-after-fresh-open");
            disk.fill();
            writes.attempt(fresh, "overwrite", "k1");
            disk.fill();
            writes.attempt(fresh, "delete", "k2");
            disk.fill();
            assertThat(writes.refusals()).as("writes refused by a provider opened on a full disk").isGreaterThan(before);
            assertReadable(fresh, writes, outside.resolve("export-after-refused-writes.json"));
            int read = writes.expected.size();
            disk.free();
            writes.accepted(fresh.set("k3", writes.value("overwritten by the fresh open once space was back", 0), Scope.PROJECT));
            writes.accepted(fresh.set("fresh", writes.value("written by the fresh open once space was back", 0), Scope.PROJECT));
            assertEntries(fresh, writes.expected);
            return read;
        }
    }

    private static void assertReadable(MemoryProvider provider, Writes writes, Path exportFile) {
        for (Map.Entry<String, String> entry : writes.expected.entrySet()) {
            assertThat(provider.get(entry.getKey(), Scope.PROJECT)).as("get of %s on a full disk", entry.getKey())
                    .map(MemoryEntry::value).contains(entry.getValue());
        }
        assertEntries(provider, writes.expected);
        if (provider.capabilities().contains(Capability.KEYWORD_SEARCH)) {
            for (Map.Entry<String, String> entry : writes.expected.entrySet()) {
                String marker = Writes.marker(entry.getValue());
                List<Hit> hits = provider.search(SearchRequest.builder(marker).scopes(Scope.PROJECT).build());
                assertThat(hits).as("a search for %s, the word of %s, on a full disk", marker, entry.getKey())
                        .extracting(hit -> hit.entry().key()).containsExactly(entry.getKey());
            }
        }
        ExportResult exported = Exporter.builder().build().exportFile(provider, exportFile);
        assertThat(exported.entries().get(Scope.PROJECT)).as("entries exported from a full disk")
                .isEqualTo((long) writes.expected.size());
        String text;
        try {
            text = Files.readString(exportFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // a word is found whole: zql must not be found in zqlr (every value has a space each side of its word)
        assertThat(writes.refusedMarkers).as("refused writes found in the export (history included)")
                .noneMatch(marker -> text.contains(" " + marker + " "));
        try (MemoryProvider copy = inMemory(exportFile.getParent())) {
            Importer.builder().build().importFile(exportFile, copy);
            assertEntries(copy, writes.expected);
        }
    }

    private static MemoryProvider inMemory(Path directory) {
        return new InMemoryMemoryProvider(new InMemoryStore(), ProviderContext.builder().projectId("copy").sessionId("copy")
                .baseDirectory(directory).forgeHome(directory.resolve("forge-home")).registry(ProviderRegistry.of()).build());
    }

    private static void assertEntries(MemoryProvider provider, Map<String, String> expected) {
        Map<String, String> actual = new TreeMap<>();
        for (MemoryEntry entry : provider.query(Query.of("*"))) {
            if (entry.scope() == Scope.PROJECT) {
                actual.put(entry.key(), entry.value());
            }
        }
        if (!actual.equals(expected)) {
            fail("the entries differ from those written: expected keys %s, found %s; differing: %s", expected.keySet(),
                    actual.keySet(), expected.keySet().stream().filter(k -> !expected.get(k).equals(actual.get(k))).toList());
        }
    }

    private static List<Path> tempFiles(Path root) {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.getFileName().toString().startsWith(".tmp-")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The writes of one run: what the store must hold, how many writes of each kind were refused, and the word of each
     * refused write. Every value carries a word of its own ({@code zq...}), found by a keyword search for it alone.
     */
    private static final class Writes {

        final Map<String, String> expected = new TreeMap<>();
        final Map<String, Integer> refused = new LinkedHashMap<>(Map.of("set", 0, "overwrite", 0, "delete", 0));
        final List<String> refusedMarkers = new ArrayList<>();
        private int values;

        /** A new value: {@code text}, its own word and {@code padding} characters. */
        String value(String text, int padding) {
            String letters = Integer.toString(values++, 26).chars()
                    .mapToObj(c -> String.valueOf((char) ('a' + Character.digit(c, 26)))).reduce("", String::concat);
            return text + " zq" + letters + " " + "p".repeat(padding);
        }

        /** The word of its own a value carries. */
        static String marker(String value) {
            return Stream.of(value.split(" ")).filter(word -> word.startsWith("zq")).findFirst().orElseThrow();
        }

        void accepted(MemoryEntry entry) {
            expected.put(entry.key(), entry.value());
        }

        int refusals() {
            return refused.values().stream().mapToInt(Integer::intValue).sum();
        }

        /**
         * Tries one write of {@code kind} (set, overwrite or delete) on a full disk: it succeeds and is expected from
         * then on, or is refused with a {@link StorageException} that says the disk is full and what to do.
         */
        void attempt(MemoryProvider provider, String kind, String key) {
            String value = value(kind + " on a full disk", 3000);
            try {
                if (kind.equals("delete")) {
                    if (provider.delete(key, Scope.PROJECT)) {
                        expected.remove(key);
                    }
                } else {
                    accepted(provider.set(key, value, Scope.PROJECT));
                }
            } catch (MemoryException e) {
                refused.merge(kind, 1, Integer::sum);
                refusedMarkers.add(marker(value));
                assertThat(e).as("a %s refused on a full disk", kind).isInstanceOf(StorageException.class);
                assertThat(e.getMessage().toLowerCase(Locale.ROOT)).as("the message of %s", e)
                        .containsAnyOf("no space left", "disk is full", "disk holding");
                assertThat(e.getMessage().toLowerCase(Locale.ROOT)).as("the message of %s says what to do", e)
                        .containsAnyOf("free", "space");
            }
        }
    }
}
