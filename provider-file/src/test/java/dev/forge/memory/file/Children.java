package dev.forge.memory.file;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Starting other JVMs for cross-process tests, and the signal files they and the test wait for. */
final class Children {

    private Children() {
    }

    /** A command running {@code main} of a test class in a new JVM with this JVM's class path. */
    static List<String> java(Class<?> main, String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:-UsePerfData", "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return command;
    }

    /**
     * Waits until {@code file} exists, for at most {@code timeout}.
     *
     * @return whether it appeared
     */
    static boolean awaitFile(Path file, Duration timeout) {
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

    /** Creates a signal file; the other side waits for it with {@link #awaitFile}. */
    static void signal(Path file) {
        try {
            Files.createFile(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
