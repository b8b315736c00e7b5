package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs {@code forge-memory} in-process on a temporary project, with its own environment map and
 * {@code FORGE_HOME}: never the real user home or environment.
 */
final class CliHarness {

    final Path root;
    final Path project;
    final Path forgeHome;
    final Path userHome;
    final Map<String, String> env = new HashMap<>();

    CliHarness(Path root) {
        this.root = root;
        try {
            project = Files.createDirectories(root.resolve("my-project"));
            forgeHome = Files.createDirectories(root.resolve("forge-home"));
            userHome = Files.createDirectories(root.resolve("user-home"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        env.put("FORGE_HOME", forgeHome.toString());
    }

    /** What one call printed and returned. */
    record Result(int exitCode, String out, String err) {
        JsonNode json() {
            try {
                return Json.MAPPER.readTree(out);
            } catch (IOException e) {
                throw new AssertionError("stdout is not one JSON document: " + out + "\nstderr: " + err, e);
            }
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    /** Runs with {@code --project <project>} in front of {@code args}. */
    Result run(String... args) {
        return runWithStdin("", args);
    }

    Result runWithStdin(String stdin, String... args) {
        return runWithStdin(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), args);
    }

    /** Runs with {@code --project <project>} in front of {@code args}, reading {@code stdin} (not closed). */
    Result runWithStdin(InputStream stdin, String... args) {
        List<String> all = new ArrayList<>(List.of("--project", project.toString()));
        all.addAll(List.of(args));
        return runRaw(stdin, all.toArray(String[]::new));
    }

    /** Runs exactly {@code args}. */
    Result runRaw(String stdin, String... args) {
        return runRaw(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), args);
    }

    private Result runRaw(InputStream stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = ForgeMemoryCommand.commandLine(env, stdin, userHome, args) // as Main builds it
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    /** {@link #run Runs} {@code args} and asserts exit code 0; a failure shows the whole result. */
    Result ok(String... args) {
        Result result = run(args);
        assertThat(result.exitCode()).as(result.toString()).isZero();
        return result;
    }

    /**
     * {@link #run Runs} {@code args} and asserts a failure as users see it: exit code {@code exitCode}, nothing on
     * stdout, and one line on stderr starting {@code forge-memory: }, without a stack trace.
     */
    Result fails(int exitCode, String... args) {
        Result result = run(args);
        assertThat(result.exitCode()).as(result.toString()).isEqualTo(exitCode);
        assertThat(result.out()).as("stdout").isEmpty();
        assertThat(result.err()).startsWith("forge-memory: ").doesNotContain("\tat ");
        assertThat(result.err().lines().count()).as(result.err()).isEqualTo(1);
        return result;
    }

    /** Writes a file, creating its directory. */
    Path write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Path projectConfig(String yaml) {
        return write(project.resolve(".forge/config.yaml"), yaml);
    }

    Path userConfig(String yaml) {
        return write(forgeHome.resolve("config.yaml"), yaml);
    }
}
