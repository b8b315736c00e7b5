package dev.forge.memory.benchmarks.cli;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.benchmarks.Measure;
import dev.forge.memory.benchmarks.markdown.BenchStores;
import dev.forge.memory.config.Memories;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The start of the {@code forge-memory} command as a person or a script pays it on every call: {@code bin/forge-memory
 * get KEY} (the launcher of the repository the benchmarks run in, on the jar {@code bin/bench} just built) on a store
 * of {@code entries} memories of {@code backend}, against {@code java -version} of the same JVM. Each invocation is one
 * process from start to exit; the launcher's first call in a fresh {@code $FORGE_HOME} (a warmup iteration) creates
 * its class data sharing archive, as a user's first call does.
 *
 * <p>The stores are filled in this JVM, untimed: markdown with {@code fsync: false}, sqlite with {@code synchronous:
 * normal} (the files are the same), the hybrid's vector index by a reindex with the default model; then the project's
 * {@code .forge/config.yaml} is what a user writes for that backend, every setting at its default.
 */
@Fork(1)
@Warmup(iterations = 2)
@Measurement(iterations = 10)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@org.openjdk.jmh.annotations.State(org.openjdk.jmh.annotations.Scope.Benchmark)
public class CliStartBench {

    /** The system property naming the repository whose {@code bin/forge-memory} is run; default the working directory. */
    public static final String ROOT_PROPERTY = "forge.bench.root";

    /** The backend of the store: {@code markdown}, {@code sqlite}, or {@code hybrid} (sqlite + vector, minilm). */
    @Param({"markdown", "sqlite", "hybrid"})
    public String backend;

    /** Memories in the store. */
    @Param("5000")
    public int entries;

    Path directory;
    Path project;
    Path home;
    Path launcher;
    String probe;

    /** Fills the store and writes the project's config. */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        Path root = Path.of(System.getProperty(ROOT_PROPERTY, System.getProperty("user.dir")));
        launcher = root.resolve("bin/forge-memory").toAbsolutePath();
        if (!Files.isExecutable(launcher)) {
            throw new IllegalStateException("No launcher at " + launcher + ": run the benchmarks from the repository "
                    + "root (bin/bench does), or set -D" + ROOT_PROPERTY + "=<repository>.");
        }
        directory = BenchStores.newDirectory("cli-start-" + backend);
        project = Files.createDirectories(directory.resolve("project"));
        home = Files.createDirectories(directory.resolve("home"));
        Path config = Files.createDirectories(project.resolve(".forge")).resolve("config.yaml");
        switch (backend) {
            case "markdown" -> {
                fill(config, "memory:\n  provider: markdown\n  config: { fsync: false }\n");
                Files.delete(config); // the built-in default: markdown under .forge/memory
            }
            case "sqlite" -> {
                fill(config, "memory:\n  provider: sqlite\n  config: { synchronous: normal }\n");
                Files.writeString(config, "memory:\n  provider: sqlite\n");
            }
            case "hybrid" -> {
                fill(config, "memory:\n  provider: sqlite\n  config: { synchronous: normal }\n");
                Files.writeString(config, """
                        memory:
                          provider: hybrid
                          config:
                            storage: { provider: sqlite, path: .forge/memory.db }
                            search:  { provider: vector, path: .forge/vectors, embedding: { model: minilm } }
                        """);
                try (MemoryProvider provider = memories().open()) {
                    long indexed = provider.requireReindexing().reindex().entries();
                    if (indexed < entries) {
                        throw new IllegalStateException("The reindex indexed " + indexed + " entries of " + entries);
                    }
                }
            }
            default -> throw new IllegalArgumentException("Unknown backend " + backend);
        }
        probe = BenchStores.key(entries / 2);
    }

    private Memories.Builder memories() {
        return Memories.builder().projectDirectory(project).environment(Map.of(Memories.HOME_VARIABLE, home.toString()))
                .plugins(false);
    }

    private void fill(Path config, String yaml) throws IOException {
        Files.writeString(config, yaml);
        try (MemoryProvider provider = memories().open()) {
            for (int i = 0; i < entries; i++) {
                provider.set(BenchStores.key(i), BenchStores.value(i), Scope.PROJECT, List.of(BenchStores.TAG), Map.of());
            }
        }
    }

    /** Removes the store (and the launcher's archive in its {@code $FORGE_HOME}). */
    @TearDown(Level.Trial)
    public void tearDown() {
        BenchStores.deleteTree(directory);
    }

    /** {@code bin/forge-memory get KEY} in the project: a JVM start, the provider's open, one get, the exit. */
    @Benchmark
    @Measure(value = "forge-memory get KEY (bin/forge-memory, a new JVM) on a store of `entries` vs java -version "
            + "(at most 3x the time)", target = 1 / 3.0)
    public String get_ours() {
        String out = run(List.of(launcher.toString(), "get", probe));
        if (!out.equals(BenchStores.value(entries / 2) + "\n")) {
            throw new IllegalStateException("forge-memory get " + probe + " printed " + out);
        }
        return out;
    }

    /** {@code java -version} of the same JVM: the floor any Java command pays. */
    @Benchmark
    public String get_baseline() {
        return run(List.of(java().toString(), "-version"));
    }

    private static Path java() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /** Runs {@code command} in the project to its exit; its stdout, or a failure with its stderr. */
    private String run(List<String> command) {
        Path out = directory.resolve("stdout");
        Path err = directory.resolve("stderr");
        ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command)).directory(project.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        Map<String, String> environment = builder.environment();
        for (String variable : List.of("FORGE_MEMORY_PROVIDER", "FORGE_SESSION_ID", "FORGE_MEMORY_JAVA_OPTS",
                "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS")) {
            environment.remove(variable);
        }
        environment.put(Memories.HOME_VARIABLE, home.toString());
        // Both sides on this JVM: the launcher takes $JAVA_HOME's java.
        environment.put("JAVA_HOME", System.getProperty("java.home"));
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            int exit = process.waitFor();
            if (exit != 0) {
                throw new IllegalStateException(command + " exited with " + exit + ": "
                        + Files.readString(err, StandardCharsets.UTF_8));
            }
            return Files.readString(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running " + command, e);
        }
    }
}
