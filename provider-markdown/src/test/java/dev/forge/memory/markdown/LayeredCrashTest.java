package dev.forge.memory.markdown;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process writing layered keys is killed (SIGKILL on POSIX) at a random moment: every write it acknowledged is
 * there when the store is opened again, in order, the document of each key holds its current value, nothing is
 * damaged, and the next writes keep the whole history.
 */
class LayeredCrashTest {

    /** The keys the child writes, in turn. */
    static final List<String> KEYS = List.of("skills/python-code-review/my-api/review_history",
            "projects/my-api/project_profile", "commands/my-api/command_history", "agents/hephaestus/forge_insights");

    @TempDir
    Path base;

    /** The value of write {@code i}. */
    static String value(long i) {
        return "<!-- Last Updated: 2026-02-10 -->\n\n## Write " + i + "\n";
    }

    private Path document(String key) {
        return base.resolve("memory").resolve(key + ".md");
    }

    /** The writes the child acknowledged: the complete lines of {@code acks}. */
    private static List<Long> acknowledged(Path signals) throws IOException {
        String text = Files.readString(signals.resolve("acks"), StandardCharsets.UTF_8);
        List<Long> acks = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length - 1; i++) { // the last is empty or a line cut short by the kill
            acks.add(Long.parseLong(lines[i]));
        }
        return acks;
    }

    private static List<String> history(MarkdownMemoryProvider provider, String key) {
        return provider.requireHistory().versions(key, Scope.PROJECT).stream().map(MemoryEntry::value).toList();
    }

    @Test
    void a_process_killed_while_writing_layered_keys_loses_no_acknowledged_write() throws Exception {
        Map<String, List<String>> before = new HashMap<>();
        KEYS.forEach(key -> before.put(key, List.of()));
        for (int round = 0; round < 2; round++) {
            Path signals = Files.createDirectories(base.resolve("signals-" + round));
            long first = round * 1_000_000L;
            ProcessBuilder builder = new ProcessBuilder(ChildJvm.command(List.of("-XX:TieredStopAtLevel=1"),
                    ChildLayeredWriter.class, base.toString(), signals.toString(), Long.toString(first)));
            builder.redirectErrorStream(true);
            builder.redirectOutput(signals.resolve("child.log").toFile());
            Process child = builder.start();
            try {
                assertThat(ChildJvm.awaitFile(signals.resolve("ready"), Duration.ofSeconds(60)))
                        .as("the child wrote once; its output:%n%s", Stores.read(signals.resolve("child.log")))
                        .isTrue();
                Thread.sleep(ThreadLocalRandom.current().nextInt(50, 400));
            } finally {
                child.destroyForcibly();
                assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
            }

            List<Long> acks = acknowledged(signals);
            assertThat(acks).as("acknowledged writes").isNotEmpty();
            long inFlight = acks.get(acks.size() - 1) + 1;
            try (MarkdownMemoryProvider fresh = Stores.open(base, LayeredLayoutTest.layered("memory"))) {
                assertThat(fresh.doctor()).as("problems after the kill").isEmpty();
                for (int k = 0; k < KEYS.size(); k++) {
                    String key = KEYS.get(k);
                    List<String> expected = new ArrayList<>(before.get(key));
                    for (long i : acks) {
                        if (i % KEYS.size() == k) {
                            expected.add(value(i));
                        }
                    }
                    List<String> history = history(fresh, key);
                    // The write in flight may be there too (done, or its document written before the kill).
                    if (inFlight % KEYS.size() == k && history.size() == expected.size() + 1) {
                        expected.add(value(inFlight));
                    }
                    assertThat(history).as("history of %s", key).isEqualTo(expected);
                    MemoryEntry current = fresh.get(key, Scope.PROJECT).orElseThrow();
                    assertThat(current.value()).isEqualTo(expected.get(expected.size() - 1));
                    assertThat(current.version()).isEqualTo(expected.size());
                    assertThat(Files.readString(document(key), StandardCharsets.UTF_8)).isEqualTo(current.value());
                }

                // The next writes build on all of it, and tidy what the kill left.
                for (String key : KEYS) {
                    List<String> kept = new ArrayList<>(history(fresh, key));
                    fresh.set(key, "after round " + round, Scope.PROJECT);
                    kept.add("after round " + round);
                    assertThat(history(fresh, key)).isEqualTo(kept);
                    before.put(key, List.copyOf(kept));
                }
                assertThat(Stores.namesIn(fresh.versionDirectory())).noneMatch(name -> name.startsWith(".tmp-"));
                assertThat(fresh.doctor()).isEmpty();
            }
        }
    }
}
