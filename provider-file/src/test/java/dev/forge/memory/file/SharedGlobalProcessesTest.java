package dev.forge.memory.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ChildJvm;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two projects' processes ({@link GlobalWriterChild}) writing the shared GLOBAL store at once, each through its own
 * project store, while a third project's provider in this JVM reads: no write is lost, a key both overwrite keeps one
 * gapless version sequence, and neither is locked out for the life of the other.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SharedGlobalProcessesTest {

    private static final int ROUNDS = 60;
    private static final List<String> PROJECTS = List.of("alpha", "beta");

    @TempDir
    Path work;

    @TempDir
    Path signals;

    private Path forgeHome() {
        return work.resolve("forge-home");
    }

    private String log(String project) throws IOException {
        return Files.readString(signals.resolve(project + ".log"), StandardCharsets.UTF_8);
    }

    @Test
    void two_projects_processes_writing_global_at_once_lose_nothing() throws Exception {
        List<Process> children = new ArrayList<>();
        try (FileMemoryProvider reader = Stores.openShared(Files.createDirectories(work.resolve("gamma")), "gamma", forgeHome(),
                Map.of())) {
            try {
                for (String project : PROJECTS) {
                    ProcessBuilder builder = new ProcessBuilder(ChildJvm.command(GlobalWriterChild.class,
                            Files.createDirectories(work.resolve(project)).toString(), project, forgeHome().toString(),
                            Integer.toString(ROUNDS), signals.toString()));
                    builder.redirectErrorStream(true);
                    builder.redirectOutput(signals.resolve(project + ".log").toFile());
                    children.add(builder.start());
                }
                for (String project : PROJECTS) {
                    assertThat(ChildJvm.awaitFile(signals.resolve("ready-" + project), Duration.ofMinutes(5)))
                            .as("%s opened its stores; its output:%n%s", project, log(project)).isTrue();
                }
                ChildJvm.signal(signals.resolve("go"));
                while (children.stream().anyMatch(Process::isAlive)) {
                    // Reads in between never see a version sequence with a gap (a write may land between the two reads).
                    reader.get("g:shared", Scope.GLOBAL).ifPresent(shared -> {
                        List<MemoryEntry> versions = reader.requireHistory().versions("g:shared", Scope.GLOBAL);
                        assertThat(versions).extracting(MemoryEntry::version)
                                .containsExactlyElementsOf(LongStream.rangeClosed(1, versions.size()).boxed().toList());
                        assertThat((long) versions.size()).isGreaterThanOrEqualTo(shared.version());
                    });
                    Thread.sleep(5);
                }
                for (int i = 0; i < children.size(); i++) {
                    Process child = children.get(i);
                    assertThat(child.waitFor(5, TimeUnit.MINUTES)).isTrue();
                    assertThat(child.exitValue()).as("%s succeeded; its output:%n%s", PROJECTS.get(i), log(PROJECTS.get(i))).isZero();
                }
            } finally {
                children.forEach(Process::destroyForcibly);
            }
            for (String project : PROJECTS) {
                assertThat(reader.query(Query.of("g:" + project + ":*", Scope.GLOBAL))).hasSize(ROUNDS);
                assertThat(reader.query(Query.of("g:tx:" + project + ":*", Scope.GLOBAL))).hasSize(ROUNDS / 5);
            }
            long writes = (long) ROUNDS * PROJECTS.size();
            assertThat(reader.get("g:shared", Scope.GLOBAL).orElseThrow().version()).isEqualTo(writes);
            assertThat(reader.requireHistory().versions("g:shared", Scope.GLOBAL)).extracting(MemoryEntry::version)
                    .containsExactlyElementsOf(LongStream.rangeClosed(1, writes).boxed().toList());
            assertThat(reader.query(Query.of("p:*", Scope.PROJECT))).as("each project's PROJECT keys stay its own").isEmpty();
        }
        for (String project : PROJECTS) {
            try (FileMemoryProvider own = Stores.openShared(work.resolve(project), project, forgeHome(), Map.of())) {
                assertThat(own.query(Query.of("p:*", Scope.PROJECT))).hasSize(ROUNDS / 5);
                assertThat(own.doctor()).isEmpty();
            }
        }
    }
}
