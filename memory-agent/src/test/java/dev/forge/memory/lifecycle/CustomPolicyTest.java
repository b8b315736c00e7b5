package dev.forge.memory.lifecycle;

import dev.forge.memory.support.LayeredKey;
import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.inmemory.InMemoryMemoryProvider;
import dev.forge.memory.inmemory.InMemoryStore;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The "writing your own policy" example of docs/plugin-memory.md, as written there. */
class CustomPolicyTest {

    /** Keeps the last 20 "## Run" sections of command_history, archiving the rest. */
    static final class CommandHistoryPolicy implements PrunePolicy {
        public String fileType() { return "command_history"; }

        public PruneOutcome prune(LayeredKey key, String body, LocalDate today) {
            List<Integer> starts = new ArrayList<>();
            Matcher m = Pattern.compile("(?m)^## Run").matcher(body);
            while (m.find()) starts.add(m.start());
            if (starts.size() <= 20) return PruneOutcome.unchanged(body);
            int cut = starts.get(starts.size() - 20);
            int first = starts.get(0);
            return new PruneOutcome(body.substring(0, first) + body.substring(cut),
                    List.of(new PruneAction(key, PruneAction.Kind.ARCHIVED, (starts.size() - 20) + " runs moved to command_history_archive")),
                    Optional.of(new PruneOutcome.Archive("command_history_archive", body.substring(first, cut))));
        }
    }

    @TempDir
    Path dir;

    private static String runs(int from, int to) {
        StringBuilder b = new StringBuilder();
        for (int n = from; n <= to; n++) {
            b.append("## Run ").append(n).append("\n/analyze ok\n\n");
        }
        return b.toString();
    }

    @Test
    void the_documented_custom_policy_runs_next_to_the_built_ins() {
        Clock clock = Clock.fixed(LocalDate.of(2026, 2, 10).atStartOfDay().toInstant(ZoneOffset.UTC), ZoneOffset.UTC);
        try (MemoryProvider provider = new InMemoryMemoryProvider(new InMemoryStore(),
                ProviderContext.builder().projectId("p").sessionId("s").clock(clock).baseDirectory(dir).build())) {
            PluginMemory memory = PluginMemory.builder(provider).clock(clock).addPrunePolicy(new CommandHistoryPolicy()).build();
            LayeredKey history = LayeredKey.command("my-api", "command_history");
            memory.create(history, "# Commands\n\n" + runs(1, 22));

            PruneReport report = memory.prune(PruneRequest.project("my-api"));

            assertThat(report.actions()).containsExactly(new PruneAction(history, PruneAction.Kind.ARCHIVED, "2 runs moved to command_history_archive"));
            assertThat(provider.get(history.key(), Scope.PROJECT).orElseThrow().value())
                    .isEqualTo("<!-- Last Updated: 2026-02-10 -->\n\n# Commands\n\n" + runs(3, 22));
            assertThat(provider.get("commands/my-api/command_history_archive", Scope.PROJECT).orElseThrow().value())
                    .isEqualTo("<!-- Last Updated: 2026-02-10 -->\n\n" + runs(1, 2));
            assertThat(memory.prune(PruneRequest.all()).actions()).isEmpty();
        }
    }
}
