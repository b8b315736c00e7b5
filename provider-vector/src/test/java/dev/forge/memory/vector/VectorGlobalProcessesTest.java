package dev.forge.memory.vector;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two projects in two processes, and a third in this one, writing the shared GLOBAL index at once, each keeping its
 * provider open throughout: nobody is locked out, nothing acknowledged is lost, every overwrite of one key gets a
 * version of its own.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class VectorGlobalProcessesTest {

    private static final int COUNT = 12;

    @TempDir
    Path base;

    @Test
    void projects_in_several_processes_write_global_at_once_and_lose_nothing() throws Exception {
        Path forgeHome = base.resolve("forge-home");
        Path signals = Files.createDirectories(base.resolve("signals"));
        List<String> projects = List.of("alpha", "beta");
        List<Process> children = new ArrayList<>();
        try {
            for (String project : projects) {
                ProcessBuilder builder = new ProcessBuilder(ChildJvm.command(List.of("-Xmx256m"), VectorGlobalWriter.class,
                        Files.createDirectories(base.resolve(project)).toString(), forgeHome.toString(), project,
                        Integer.toString(COUNT), signals.toString()));
                builder.redirectErrorStream(true);
                builder.redirectOutput(base.resolve(project + ".out").toFile());
                children.add(builder.start());
            }
            for (String project : projects) {
                assertThat(ChildJvm.awaitFile(signals.resolve("ready-" + project), Duration.ofMinutes(3)))
                        .as("%s opened the provider; its output: %s", project, output(project)).isTrue();
            }
            try (MemoryProvider gamma = new VectorMemoryProviderFactory().open(VectorStores.context(
                    Files.createDirectories(base.resolve("gamma")), "gamma", VectorStores.hashing(384, Map.of()))
                    .toBuilder().forgeHome(forgeHome).build())) {
                ChildJvm.signal(signals.resolve("go"));
                List<Long> gammaVersions = new ArrayList<>();
                for (int i = 0; i < COUNT; i++) {
                    gamma.set("own:gamma:" + i, "written by gamma as number " + i, Scope.GLOBAL);
                    gammaVersions.add(gamma.set("shared", "gamma " + i, Scope.GLOBAL).version());
                }
                for (String project : projects) {
                    assertThat(ChildJvm.awaitFile(signals.resolve("done-" + project), Duration.ofMinutes(5)))
                            .as("%s wrote; its output: %s", project, output(project)).isTrue();
                }
                // both other processes still hold their providers open: their writes are visible here
                List<Long> versions = new ArrayList<>(gammaVersions);
                for (String project : projects) {
                    Files.readAllLines(signals.resolve("versions-" + project), StandardCharsets.UTF_8)
                            .forEach(line -> versions.add(Long.parseLong(line)));
                }
                versions.sort(null);
                assertThat(versions).containsExactlyElementsOf(LongStream.rangeClosed(1, 3L * COUNT).boxed().toList());
                checkEverything(gamma);
                ChildJvm.signal(signals.resolve("close"));
                for (int c = 0; c < children.size(); c++) {
                    assertThat(children.get(c).waitFor(3, TimeUnit.MINUTES)).isTrue();
                    assertThat(children.get(c).exitValue()).as("output: %s", output(projects.get(c))).isZero();
                }
            }
        } finally {
            children.forEach(Process::destroyForcibly);
        }
        try (MemoryProvider fresh = new VectorMemoryProviderFactory().open(VectorStores.context(
                Files.createDirectories(base.resolve("delta")), "delta", VectorStores.hashing(384, Map.of()))
                .toBuilder().forgeHome(forgeHome).build())) {
            checkEverything(fresh);
            assertThat(fresh.doctor()).isEmpty();
        }
    }

    private static void checkEverything(MemoryProvider reader) {
        for (String project : List.of("alpha", "beta", "gamma")) {
            for (int i = 0; i < COUNT; i++) {
                MemoryEntry own = reader.get("own:" + project + ":" + i, Scope.GLOBAL).orElseThrow();
                assertThat(own.value()).isEqualTo("written by " + project + " as number " + i);
                assertThat(own.version()).isEqualTo(1);
            }
        }
        assertThat(reader.get("shared", Scope.GLOBAL).orElseThrow().version()).isEqualTo(3L * COUNT);
        assertThat(reader.query(Query.of("own:*", Scope.GLOBAL))).hasSize(3 * COUNT);
    }

    private String output(String project) {
        try {
            Path file = base.resolve(project + ".out");
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            return e.toString();
        }
    }
}
