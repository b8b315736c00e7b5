package dev.forge.memory.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The two sizes of the reliability tests (crash kills, processes, fuzzing, faults) and where they write their figures.
 *
 * <p>The short form runs in every {@code ./mvnw verify}. The soak form runs with {@code -Dforge.soak=true}, as
 * {@code bin/soak} does: the same tests with larger counts, such as 1,000 kills per provider. Tests of both forms carry
 * the JUnit tag {@value #TAG}, so that a soak run can select them alone.
 *
 * <p>Every figure a test reports (kills survived, inputs fuzzed, processes, faults) is appended, one tab-separated
 * line {@code area provider measure value}, to {@code target/reliability/figures.tsv} of the module under test,
 * and read back by {@code bin/soak} and {@code docs/RELIABILITY.md}.
 */
public final class Reliability {

    /** The JUnit tag of every reliability test. */
    public static final String TAG = "reliability";

    /** The system property that switches the soak form on. */
    public static final String SOAK_PROPERTY = "forge.soak";

    private Reliability() {
    }

    /** Whether this run is the soak form ({@code -Dforge.soak=true}). */
    public static boolean soak() {
        return Boolean.getBoolean(SOAK_PROPERTY);
    }

    /**
     * {@code shortForm} in an ordinary build, {@code soakForm} in a soak run; a system property
     * {@code forge.reliability.<name>} overrides both, for a one-off run of another size.
     */
    public static int count(String name, int shortForm, int soakForm) {
        String override = System.getProperty("forge.reliability." + name);
        if (override != null) {
            try {
                return Integer.parseInt(override.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("forge.reliability." + name + " must be a whole number, not '"
                        + override + "'", e);
            }
        }
        return soak() ? soakForm : shortForm;
    }

    /** The file the figures go to: {@code target/reliability/figures.tsv} under the working directory. */
    public static Path figuresFile() {
        return Path.of("target", "reliability", "figures.tsv").toAbsolutePath();
    }

    /**
     * Records one figure, such as {@code report("crash", "sqlite", "kills survived", 12)}: a line in
     * {@link #figuresFile()} (safe when several test JVMs of one module write at once) and one on standard output.
     */
    public static void report(String area, String provider, String measure, long value) {
        String line = String.join("\t", clean(area), clean(provider), clean(measure), Long.toString(value)) + "\n";
        System.out.print("[reliability] " + line);
        Path file = figuresFile();
        try {
            Files.createDirectories(file.getParent());
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND); FileLock ignored = channel.lock()) {
                channel.write(StandardCharsets.UTF_8.encode(line));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not record a reliability figure in " + file, e);
        }
    }

    private static String clean(String text) {
        return text.replaceAll("[\\t\\r\\n]", " ");
    }
}
