package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.client.McpSyncClient;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;
import java.util.jar.Manifest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code target/forge-memory.jar} in a child JVM: merged service files, logging on stderr only, exit codes.
 * Maven runs this class in the package phase, right after shade (see the module's POM), and tells it so with the
 * system property {@value #JAR_PROPERTY}, the jar's path: there, a missing jar fails every test. Run any other way
 * (an IDE, {@code -Dtest=...} in the test phase), it uses {@code target/forge-memory.jar} if there is one, else skips.
 */
class ShadedJarTest {

    /** Set by the POM's shaded-jar execution to the jar shade just wrote. */
    static final String JAR_PROPERTY = "forge-memory.jar";

    private static final boolean IN_SHADED_JAR_EXECUTION = System.getProperty(JAR_PROPERTY) != null;

    private static final Path JAR = (IN_SHADED_JAR_EXECUTION ? Path.of(System.getProperty(JAR_PROPERTY))
            : Path.of(System.getProperty("basedir", ".")).resolve("target/forge-memory.jar")).toAbsolutePath();

    /** Variables that make a JVM print "Picked up ..." on stderr, which the tests compare exactly. */
    private static final List<String> JVM_OPTION_VARIABLES = List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS");

    @TempDir
    Path root;

    Path project;
    Path forgeHome;

    record Run(int exitCode, String out, String err) {
        JsonNode json() throws IOException {
            return Json.MAPPER.readTree(out);
        }
    }

    @BeforeEach
    void setUp() throws IOException {
        if (IN_SHADED_JAR_EXECUTION) {
            assertThat(JAR).as("the jar shade should have written just before this execution").isRegularFile();
        } else {
            assumeThat(JAR).as("the shaded jar is built by 'mvn package'").isRegularFile();
        }
        project = Files.createDirectories(root.resolve("project"));
        forgeHome = Files.createDirectories(root.resolve("forge-home"));
    }

    private Run run(String stdin, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", JAR.toString()));
        command.addAll(List.of(args));
        return run(command, stdin);
    }

    private Run run(List<String> command, String stdin) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(project.toFile());
        Map<String, String> env = builder.environment();
        env.remove("FORGE_MEMORY_PROVIDER");
        env.remove("FORGE_SESSION_ID");
        JVM_OPTION_VARIABLES.forEach(env::remove);
        env.put("FORGE_HOME", forgeHome.toString());
        env.put("DJL_CACHE_DIR", root.resolve("djl-cache").toString()); // where the tokenizer's native library goes
        env.put("JAVA_HOME", System.getProperty("java.home")); // bin/forge-memory runs this JVM too
        env.remove("FORGE_MEMORY_CDS");
        env.remove("FORGE_MEMORY_JAVA_OPTS");
        Path out = root.resolve("stdout");
        Path err = root.resolve("stderr");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try (OutputStream in = process.getOutputStream()) {
            in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("the jar finished").isTrue();
        return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Test
    void the_jar_bundles_every_provider_through_merged_service_files() throws Exception {
        Run run = run("", "providers", "--json");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.err()).isEmpty();
        List<String> names = new ArrayList<>();
        run.json().path("providers").forEach(p -> {
            names.add(p.path("name").asText());
            assertThat(p.path("module").asText()).isEqualTo(JAR.toString());
        });
        assertThat(names).containsExactly("file", "hybrid", "in-memory", "markdown", "postgres", "relational", "sqlite", "vector");
    }

    @Test
    void stdout_holds_only_the_json_and_values_round_trip_as_utf8() throws Exception {
        Run set = run("grüße ✓\n", "set", "note", "-", "--json");
        assertThat(set.exitCode()).as(set.toString()).isZero();
        assertThat(set.err()).isEmpty();
        assertThat(set.json().path("version").asInt()).isEqualTo(1);
        Run get = run("", "get", "note");
        assertThat(get.out()).isEqualTo("grüße ✓\n");
        assertThat(project.resolve(".forge/memory")).isDirectory();
    }

    @Test
    void the_sqlite_provider_loads_its_native_library_from_the_jar() throws Exception {
        Run set = run("", "--memory-provider", "sqlite", "set", "db", "embedded sqlite works");
        assertThat(set.exitCode()).as(set.toString()).isZero();
        Run search = run("", "--memory-provider", "sqlite", "search", "embedded", "--json");
        assertThat(search.exitCode()).as(search.toString()).isZero();
        assertThat(search.json().path("hits").get(0).path("entry").path("key").asText()).isEqualTo("db");
        assertThat(project.resolve(".forge/memory.db")).isRegularFile();
        Run doctor = run("", "--memory-provider", "sqlite", "doctor");
        assertThat(doctor.out()).isEqualTo("No problems found by the sqlite provider.\n");
    }

    @Test
    void the_vector_provider_runs_the_local_default_model_from_the_jar() throws Exception {
        Run first = run("", "--memory-provider", "vector", "set", "move", "Jonas moved to Lisbon last spring.");
        assertThat(first.exitCode()).as(first.toString()).isZero();
        assertThat(first.err()).isEmpty();
        assertThat(run("", "--memory-provider", "vector", "set", "pet", "The cat is called Miso.").exitCode()).isZero();
        Run search = run("", "--memory-provider", "vector", "search", "Which city did he relocate to?", "--mode",
                "semantic", "--json");
        assertThat(search.exitCode()).as(search.toString()).isZero();
        assertThat(search.json().path("hits").get(0).path("entry").path("key").asText()).isEqualTo("move");
        assertThat(project.resolve(".forge/vectors")).isDirectory();
        Run reindex = run("", "--memory-provider", "vector", "reindex", "--json");
        assertThat(reindex.exitCode()).as(reindex.toString()).isZero();
        assertThat(reindex.json().path("fingerprint").asText()).as("a new index: the default model").startsWith("e5-small:");
    }

    @Test
    void the_jar_ships_no_debug_symbols_but_the_native_libraries_of_every_platform() throws IOException {
        List<String> names = new ArrayList<>();
        try (JarFile jar = new JarFile(JAR.toFile())) {
            jar.stream().map(ZipEntry::getName).forEach(names::add);
        }
        // Windows .pdb and macOS .dSYM files are for debuggers; no loader ever reads them (62 MB of a 160 MB jar).
        assertThat(names).noneMatch(name -> name.endsWith(".pdb") || name.contains(".dSYM/"));
        // Each OS loads its own library at run time, so every platform's must stay.
        assertThat(names).contains(
                "ai/onnxruntime/native/linux-x64/libonnxruntime.so",
                "ai/onnxruntime/native/linux-x64/libonnxruntime4j_jni.so",
                "ai/onnxruntime/native/linux-aarch64/libonnxruntime.so",
                "ai/onnxruntime/native/linux-aarch64/libonnxruntime4j_jni.so",
                "ai/onnxruntime/native/osx-x64/libonnxruntime.dylib",
                "ai/onnxruntime/native/osx-x64/libonnxruntime4j_jni.dylib",
                "ai/onnxruntime/native/osx-aarch64/libonnxruntime.dylib",
                "ai/onnxruntime/native/osx-aarch64/libonnxruntime4j_jni.dylib",
                "ai/onnxruntime/native/win-x64/onnxruntime.dll",
                "ai/onnxruntime/native/win-x64/onnxruntime4j_jni.dll");
        assertThat(names).anyMatch(name -> name.startsWith("native/lib/linux-x86_64/") && name.endsWith(".so"));
        assertThat(names).anyMatch(name -> name.startsWith("native/lib/osx-aarch64/") && name.endsWith(".dylib"));
        assertThat(names).anyMatch(name -> name.startsWith("native/lib/win-x86_64/") && name.endsWith(".dll"));
    }

    @Test
    void the_launcher_keeps_a_class_data_sharing_archive_in_forge_home_and_runs_without_one_where_it_cannot()
            throws Exception {
        Path launcher = JAR.getParent().resolve("../../bin/forge-memory").normalize();
        // bin/forge-memory runs target/forge-memory.jar of its repository, and builds it first if any source is newer:
        // only right after shade wrote that jar is it the jar under test, with nothing to build.
        assumeThat(IN_SHADED_JAR_EXECUTION).as("run by the POM's shaded-jar execution").isTrue();
        assumeThat(launcher).isExecutable();
        assumeThat(JAR.getFileName().toString()).isEqualTo("forge-memory.jar");
        Run set = run(List.of(launcher.toString(), "set", "note", "kept"), "");
        assertThat(set.exitCode()).as(set.toString()).isZero();
        assertThat(set.err()).isEmpty();
        Path cds = forgeHome.resolve("cds");
        List<Path> archives;
        try (var files = Files.list(cds)) {
            archives = files.toList();
        }
        assertThat(archives).singleElement().satisfies(archive -> {
            assertThat(archive.getFileName().toString()).matches("forge-memory-[0-9]+-[0-9]+\\.jsa");
            assertThat(Files.size(archive)).isPositive();
        });
        Run get = run(List.of(launcher.toString(), "get", "note"), "");
        assertThat(get).isEqualTo(new Run(0, "kept\n", ""));
        try (var files = Files.list(cds)) {
            assertThat(files.toList()).as("the archive is reused, not written again").isEqualTo(archives);
        }
        // A forge home where no archive can be written: the call runs without one, and says nothing about it.
        Files.delete(archives.get(0));
        Files.delete(cds);
        Files.writeString(cds, "a file where the archive directory would be");
        assertThat(run(List.of(launcher.toString(), "get", "note"), "")).isEqualTo(new Run(0, "kept\n", ""));
    }

    @Test
    void the_jar_serves_mcp_over_stdio() throws Exception {
        List<String> stderr = McpServers.stderr();
        try (McpSyncClient client = McpServers.connect(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-jar", JAR.toString(), "--project", project.toString(), "--memory-provider", "sqlite", "mcp"),
                forgeHome, stderr)) {
            assertThat(client.listTools().tools()).hasSize(9);
            McpServers.ok(client, "set", Map.of("key", "from-the-jar", "value", "served by the shaded jar"));
            assertThat(McpServers.ok(client, "search", Map.of("text", "shaded")).path("hits").get(0).path("entry")
                    .path("key").asText()).isEqualTo("from-the-jar");
        }
        assertThat(project.resolve(".forge/memory.db")).isRegularFile();
    }

    @Test
    void exit_codes_and_messages_reach_the_shell() throws Exception {
        Run missing = run("", "get", "nope");
        assertThat(missing.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(missing.err()).isEqualTo("forge-memory: No entry 'nope' in scope project.\n");
        assertThat(run("", "clear", "--scope", "project").exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run("", "--memory-provider", "nope", "get", "k").exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run("", "search", "x", "--mode", "semantic").exitCode()).isEqualTo(ExitCodes.UNSUPPORTED);
        assertThat(run("", "purge", "--all").exitCode()).isEqualTo(ExitCodes.USAGE);
        Run clean = run("", "doctor");
        assertThat(clean.exitCode()).as(clean.toString()).isZero();
        assertThat(clean.out()).isEqualTo("No problems found by the markdown provider.\n");
        Run empty = run("", "--memory-provider", "", "config");
        assertThat(empty.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(empty.err()).startsWith("forge-memory: --memory-provider is empty").endsWith("\n");
        assertThat(empty.err().lines().count()).as(empty.err()).isEqualTo(1);
    }

    @Test
    void doctor_lists_a_damaged_memory_file_and_exits_6() throws Exception {
        assertThat(run("", "set", "k", "v").exitCode()).isZero();
        Path broken = Files.writeString(project.resolve(".forge/memory/mem_0b9d6c1e-3f4a-4c2b-9d1e-5a6b7c8d9e0f.md"),
                "---\nkey: [unclosed\n---\nbody\n");
        Run doctor = run("", "doctor");
        assertThat(doctor.exitCode()).as(doctor.toString()).isEqualTo(ExitCodes.PROBLEMS_FOUND);
        // The child resolves the store from its working directory, which the OS reports with symbolic links resolved.
        assertThat(doctor.out()).startsWith(broken.toRealPath() + ": ");
        assertThat(doctor.out().lines().count()).isEqualTo(1);
    }

    @Test
    void the_child_jvm_runs_without_jvm_option_variables() throws Exception {
        // Were they passed on, a "Picked up JAVA_TOOL_OPTIONS" line would break the exact stderr assertions.
        Run run = run("", "get", "nope");
        assertThat(run.err()).doesNotContain("Picked up");
    }

    @Test
    void logging_is_quiet_by_default_and_verbose_on_request_always_on_stderr() throws Exception {
        // A plugin jar with no provider in it: loading it is logged at DEBUG, which only --verbose shows.
        Files.createDirectories(project.resolve(".forge/plugins"));
        try (OutputStream file = Files.newOutputStream(project.resolve(".forge/plugins/empty.jar"));
                JarOutputStream jar = new JarOutputStream(file, new Manifest())) {
            jar.flush();
        }
        Run quiet = run("", "query", "--json");
        assertThat(quiet.err()).isEmpty();
        Run verbose = run("", "--verbose", "query", "--json");
        assertThat(verbose.exitCode()).as(verbose.toString()).isZero();
        assertThat(verbose.err()).contains("DEBUG").contains("Loading memory provider plugins").contains("empty.jar");
        assertThat(verbose.json().path("entries").isArray()).as(verbose.out()).isTrue();
        assertThat(verbose.json().path("entries")).isEmpty();
    }
}
