package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.StorageException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * back the same provider accepts writes, and the store reopens with nothing lost and {@code doctor()} clean.
 *
 * <p>The number of refused writes is recorded as the figure {@code faults <provider> disk-full writes refused}.
 */
public final class DiskFullScenario {

    private static final int ENTRIES = 8;

    private DiskFullScenario() {
    }

    /**
     * Runs the scenario on a tmpfs of {@code kib} KiB mounted under {@code scratch}; skips the test (a JUnit
     * assumption) where this machine cannot mount one.
     *
     * @param provider the provider's name, for the figure
     * @param open     opens the provider on a store directory (the same directory again means the same store)
     * @return the number of writes refused
     */
    public static int run(Path scratch, int kib, String provider, Function<Path, MemoryProvider> open) {
        java.util.Optional<SmallDisk> mounted = SmallDisk.mount(scratch.resolve("disk"), kib);
        Assumptions.assumeTrue(mounted.isPresent(), "needs root and mount -t tmpfs (Linux) for a real full disk");
        try (SmallDisk disk = mounted.get()) {
            return run(disk, provider, open);
        }
    }

    private static int run(SmallDisk disk, String providerName, Function<Path, MemoryProvider> open) {
        Map<String, String> expected = new TreeMap<>();
        int attempts = Reliability.count("diskfull.attempts", 40, 2000);
        int wanted = Reliability.count("diskfull.refusals", 9, 300);
        Map<String, Integer> refused = new LinkedHashMap<>(Map.of("set", 0, "overwrite", 0, "delete", 0));
        MemoryProvider provider = open.apply(disk.root());
        try {
            for (int i = 0; i < ENTRIES; i++) {
                String value = "stored before the disk filled " + i + " " + "x".repeat(200);
                provider.set("k" + i, value, Scope.PROJECT);
                expected.put("k" + i, value);
            }
            disk.fill();
            int refusals = 0;
            for (int i = 0; i < attempts && refusals < wanted; i++) {
                String kind = List.of("set", "overwrite", "delete").get(i % 3);
                String key = kind.equals("set") ? "new" + i : "k" + (i / 3) % ENTRIES;
                String value = kind + " on a full disk " + i + " " + "y".repeat(3000);
                try {
                    if (kind.equals("delete")) {
                        if (provider.delete(key, Scope.PROJECT)) {
                            expected.remove(key);
                        }
                    } else {
                        provider.set(key, value, Scope.PROJECT);
                        expected.put(key, value);
                    }
                    disk.fill();
                } catch (MemoryException e) {
                    refusals++;
                    refused.merge(kind, 1, Integer::sum);
                    assertThat(e).as("a %s refused on a full disk", kind).isInstanceOf(StorageException.class);
                    assertThat(e.getMessage().toLowerCase(Locale.ROOT)).as("the message of %s", e)
                            .containsAnyOf("no space left", "disk is full", "disk holding");
                    assertThat(e.getMessage().toLowerCase(Locale.ROOT)).as("the message of %s says what to do", e)
                            .containsAnyOf("free", "space");
                }
                assertEntries(provider, expected);
            }
            assertThat(refused.get("set")).as("refused sets, of %s", refused).isPositive();
            assertThat(refused.get("overwrite")).as("refused overwrites, of %s", refused).isPositive();

            disk.free();
            provider.set("after", "written once space was back", Scope.PROJECT);
            expected.put("after", "written once space was back");
            provider.set("k0", "overwritten once space was back", Scope.PROJECT);
            expected.put("k0", "overwritten once space was back");
            assertEntries(provider, expected);
            provider.close();
            provider = null;
            assertThat(tempFiles(disk.root())).as("temporary files left after a clean close").isEmpty();

            try (MemoryProvider reopened = open.apply(disk.root())) {
                assertEntries(reopened, expected);
                assertThat(reopened.doctor()).as("doctor after the disk was full").isEmpty();
                reopened.set("reopened", "written after reopening", Scope.PROJECT);
                assertThat(reopened.get("reopened", Scope.PROJECT)).map(MemoryEntry::value).contains("written after reopening");
            }
            Reliability.report("faults", providerName, "disk-full writes refused", refusals);
            return refusals;
        } finally {
            if (provider != null) {
                provider.close();
            }
        }
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
}
