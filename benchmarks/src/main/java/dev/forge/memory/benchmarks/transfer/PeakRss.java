package dev.forge.memory.benchmarks.transfer;

import dev.forge.memory.benchmarks.Extras;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The peak resident set size of this JVM ({@code VmHWM} of {@code /proc/self/status}), reset after a benchmark's
 * untimed setup (by writing {@code 5} to {@code /proc/self/clear_refs}, Linux 4.0 and later), so that a peak is what
 * the timed work itself reached on top of what the JVM already held.
 *
 * <p>JMH runs {@code x_ours} and {@code x_baseline} in separate forked JVMs, so neither knows the other's peak: each
 * side leaves its peak in a file beside the extras file ({@code <extras>.<measure>-<params>.<side>}), and whichever
 * side finishes second records the pair through {@link Extras#record} and removes both files.
 */
final class PeakRss {

    private static final Logger LOG = LoggerFactory.getLogger(PeakRss.class);
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final Path CLEAR_REFS = Path.of("/proc/self/clear_refs");

    private PeakRss() {
    }

    /** Collects garbage, then lowers the recorded peak to the current RSS; false where the kernel does not allow it. */
    static boolean reset() {
        System.gc();
        try {
            Files.writeString(CLEAR_REFS, "5");
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            LOG.warn("Cannot reset the peak RSS ({}): the peak includes the setup", e.toString());
            return false;
        }
    }

    /** The peak RSS in MB since the start or the last {@link #reset()}; empty off Linux. */
    static Optional<Double> peakMb() {
        try {
            for (String line : Files.readAllLines(STATUS, StandardCharsets.US_ASCII)) {
                if (line.startsWith("VmHWM:")) {
                    String kb = line.substring("VmHWM:".length()).replace("kB", "").trim();
                    return Optional.of(Long.parseLong(kb) / 1024.0);
                }
            }
        } catch (IOException e) {
            LOG.warn("Cannot read {}: {}", STATUS, e.toString());
        }
        return Optional.empty();
    }

    /**
     * Leaves this side's peak for its pair and records the pair once both are there: ratio baseline / ours (lower
     * memory is better).
     *
     * @param name      the measure, e.g. {@code transfer.export.peak_rss}
     * @param benchmark the JMH benchmark name, ending in {@code _ours} or {@code _baseline}
     * @param peakMb    this side's peak
     * @param params    what the measure ran on
     */
    static void share(String name, String benchmark, double peakMb, Map<String, ?> params) {
        String file = System.getProperty(Extras.FILE_PROPERTY);
        if (file == null || file.isBlank()) {
            LOG.info("{} of {}: {} MB (not recorded: -D{} is not set)", name, benchmark, String.format("%.1f", peakMb),
                    Extras.FILE_PROPERTY);
            return;
        }
        boolean ours = benchmark.endsWith("_ours");
        // Sorted: Map.of's order differs from one JVM to the next, and the two sides must name the same files.
        String stem = file + "." + name + "-" + new TreeMap<>(params).toString().replaceAll("[^A-Za-z0-9_=-]", "_");
        Path mine = Path.of(stem + (ours ? ".ours" : ".baseline"));
        Path other = Path.of(stem + (ours ? ".baseline" : ".ours"));
        try {
            if (!Files.exists(other)) {
                Files.writeString(mine, Double.toString(peakMb));
                return;
            }
            double theirs = Double.parseDouble(Files.readString(other).trim());
            double oursMb = ours ? peakMb : theirs;
            double baselineMb = ours ? theirs : peakMb;
            Extras.record(name, oursMb, baselineMb, "MB", baselineMb / oursMb, 0, params);
            Files.deleteIfExists(other);
            Files.deleteIfExists(mine);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot pair the peak RSS of " + benchmark + " through " + stem, e);
        }
    }
}
