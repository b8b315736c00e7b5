package dev.forge.memory.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs a class's {@code main} in a child JVM ({@link ChildJvm}) that file permissions apply to, for tests of files a
 * process may not read: {@code chmod 000} stops no process of root. As root the child is started by {@code setpriv}
 * without the capabilities {@code CAP_DAC_OVERRIDE} and {@code CAP_DAC_READ_SEARCH}, so that it is still root (it owns
 * and may {@code chmod} the files root made) but reads only what the permission bits allow; as another user it is
 * started as it is. Where root cannot drop them (no {@code setpriv}, or a container that forbids it) the test is
 * skipped with that reason.
 *
 * <p>By convention the child exits {@value #PERMISSIONS_NOT_ENFORCED} when it finds that a file it took the
 * permissions from can still be read, and the test is then skipped rather than passed.
 */
public final class UnprivilegedJvm {

    /** The exit code of a child that found permissions not enforced (it could read a file with mode 000). */
    public static final int PERMISSIONS_NOT_ENFORCED = 3;

    private static final List<String> DROP_READ_CAPABILITIES = List.of("setpriv",
            "--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-dac_override,-dac_read_search");

    private UnprivilegedJvm() {
    }

    /**
     * What a child printed and how it ended.
     *
     * @param exitCode its exit code
     * @param out      its standard output
     * @param err      its standard error
     */
    public record Result(int exitCode, String out, String err) {
    }

    /**
     * Runs {@code main(args)} of {@code main} in such a JVM and waits for it, for at most ten minutes; {@code work} is
     * a directory for its output. Skips the test (a JUnit assumption) where no such JVM can be started, or when it
     * exits {@value #PERMISSIONS_NOT_ENFORCED}.
     */
    public static Result run(Path work, Class<?> main, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        if (isRoot(work)) {
            Assumptions.assumeTrue(canDropReadCapabilities(), "the tests run as root, and setpriv cannot start a "
                    + "process without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH here, so permissions cannot stop a read");
            command.addAll(DROP_READ_CAPABILITIES);
        }
        command.addAll(ChildJvm.command(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m"), main, args));
        Path out = Files.createTempFile(work, "child-", ".out");
        Path err = Files.createTempFile(work, "child-", ".err");
        Process child = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!child.waitFor(10, TimeUnit.MINUTES)) {
            child.destroyForcibly();
            throw new AssertionError("the child JVM running " + main.getName() + " did not end within 10 minutes");
        }
        Result result = new Result(child.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
        Assumptions.assumeFalse(result.exitCode() == PERMISSIONS_NOT_ENFORCED, result.err().strip());
        return result;
    }

    /** Whether this process creates files as root: the owner of a new file is its file system user id. */
    private static boolean isRoot(Path work) throws IOException {
        Path probe = Files.createTempFile(work, "uid-", ".probe");
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(probe, "unix:uid"));
        } finally {
            Files.delete(probe);
        }
    }

    private static boolean canDropReadCapabilities() {
        List<String> probe = new ArrayList<>(DROP_READ_CAPABILITIES);
        probe.add("true");
        try {
            Process process = new ProcessBuilder(probe).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return process.waitFor(1, TimeUnit.MINUTES) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
