package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.conformance.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Child JVMs that write beside a test: started with their output in {@code child.log} of a signal directory, they
 * create {@code ready} there once their provider is open and start writing when the test creates {@code go}.
 */
final class ChildWriters {

    private ChildWriters() {
    }

    /** Starts {@code main} with {@code args}, waits until it is ready and tells it to go. */
    static Process startAndGo(Path signals, Class<?> main, String... args) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(ChildJvm.command(main, args));
        builder.redirectErrorStream(true);
        builder.redirectOutput(signals.resolve("child.log").toFile());
        Process child = builder.start();
        try {
            assertThat(ChildJvm.awaitFile(signals.resolve("ready"), Duration.ofMinutes(5)))
                    .as("the child opened the database; its output:%n%s", log(signals)).isTrue();
        } catch (AssertionError | RuntimeException e) {
            child.destroyForcibly();
            throw e;
        }
        ChildJvm.signal(signals.resolve("go"));
        return child;
    }

    /** Waits for {@code child} to end and checks that it succeeded, showing its output otherwise. */
    static void awaitSuccess(Process child, Path signals) throws IOException, InterruptedException {
        assertThat(child.waitFor(5, TimeUnit.MINUTES)).as("the child finished; its output:%n%s", log(signals)).isTrue();
        assertThat(child.exitValue()).as("the child succeeded; its output:%n%s", log(signals)).isZero();
    }

    /** What the child printed. */
    static String log(Path signals) throws IOException {
        return Files.readString(signals.resolve("child.log"), StandardCharsets.UTF_8);
    }
}
