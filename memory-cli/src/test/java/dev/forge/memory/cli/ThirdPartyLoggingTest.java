package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;

/**
 * Third-party libraries log nothing on stderr unless {@code --verbose} is given: a real library ERROR with a stack
 * trace, sqlite-jdbc's "Failed to delete old native lib" (a non-empty directory named like an old native library in
 * the directory it extracts its library to, given with {@code -Dorg.sqlite.tmpdir}), stays out of a normal run, whose
 * stderr holds only the tool's own one-line errors. The tool runs in a child JVM on the test class path, since a
 * logger is configured once per JVM and sqlite-jdbc loads its native library once per JVM.
 */
class ThirdPartyLoggingTest {

    @TempDir
    Path root;

    private Path project;
    private Path temporary;

    record Run(int exitCode, String out, String err) {
    }

    @BeforeEach
    void staleNativeLibraryDirectory() throws IOException {
        project = Files.createDirectories(root.resolve("project"));
        temporary = Files.createDirectories(root.resolve("tmp"));
        // sqlite-jdbc deletes entries named like this in its extraction directory when it loads; a non-empty directory
        // cannot be deleted, and it logs an ERROR with a stack trace.
        Path stale = temporary.resolve("sqlite-" + SQLiteJDBCLoader.getVersion() + "-00000000-0000-0000-0000-000000000000-libsqlitejdbc.so");
        Files.writeString(Files.createDirectories(stale).resolve("left-behind"), "x");
    }

    private Run run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + temporary, "-Dorg.sqlite.tmpdir=" + temporary, "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "--project", project.toString(), "--memory-provider", "sqlite"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(project.toFile());
        Map<String, String> env = builder.environment();
        List.of("FORGE_MEMORY_PROVIDER", "FORGE_SESSION_ID", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS")
                .forEach(env::remove);
        env.put("FORGE_HOME", Files.createDirectories(root.resolve("forge-home")).toString());
        Path out = root.resolve("stdout");
        Path err = root.resolve("stderr");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        process.getOutputStream().close();
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("the tool finished").isTrue();
        return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Test
    void a_library_error_stays_off_stderr_by_default_and_shows_with_verbose() throws Exception {
        Run quiet = run("set", "k", "v");

        assertThat(quiet.exitCode()).as(quiet.toString()).isZero();
        assertThat(quiet.out()).isEqualTo("Stored project:k (version 1).\n");
        assertThat(quiet.err()).as("stderr of a run that succeeded").isEmpty();

        Run verbose = run("--verbose", "get", "k");

        assertThat(verbose.exitCode()).as(verbose.toString()).isZero();
        assertThat(verbose.out()).isEqualTo("v\n");
        assertThat(verbose.err()).as("the library's error, shown with --verbose").contains("Failed to delete old native lib");
    }

    @Test
    void a_failing_command_prints_its_one_line_and_no_library_log() throws Exception {
        Run missing = run("get", "nope");

        assertThat(missing.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(missing.out()).isEmpty();
        assertThat(missing.err()).isEqualTo("forge-memory: No entry 'nope' in scope project.\n");
    }
}
