package dev.forge.memory.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a class's {@code main} in a second JVM on this JVM's class path, the test class path, for tests of a
 * provider across processes: two processes with one store open at once. Third-party provider authors can use it for
 * their own such tests.
 *
 * <p>The two sides keep in step with signal files: one {@link #signal creates} a file, the other {@link #awaitFile
 * waits} for it, for example "ready" once the child has its provider open and "go" once the parent wants it to write.
 */
public final class ChildJvm {

    private ChildJvm() {
    }

    /**
     * The command, for a {@link ProcessBuilder}, that runs {@code main(args)} of the class {@code main} in a new JVM:
     * this JVM's {@code java} executable with this JVM's class path. The list can be changed.
     */
    public static List<String> command(Class<?> main, String... args) {
        return command(List.of(), main, args);
    }

    /** {@link #command(Class, String...)} with {@code jvmOptions}, such as {@code -Xmx64m}, for the new JVM. */
    public static List<String> command(List<String> jvmOptions, Class<?> main, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-XX:-UsePerfData");
        // Child JVMs live seconds (a crash writer killed after a few hundred ms, a worker of a few hundred writes):
        // the quick compiler and one GC thread spend the 2 cores of a build machine on the test, not on warming up.
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-XX:+UseSerialGC");
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return command;
    }

    /**
     * Waits until {@code file} exists, for at most {@code timeout}, and says whether it appeared; an interrupt ends
     * the wait with {@code false} and the thread's interrupt flag set.
     */
    public static boolean awaitFile(Path file, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Files.exists(file)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /**
     * Creates the signal file {@code file}, which the other side waits for with {@link #awaitFile}; an
     * {@link UncheckedIOException} if it cannot, also if it exists already.
     */
    public static void signal(Path file) {
        try {
            Files.createFile(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
