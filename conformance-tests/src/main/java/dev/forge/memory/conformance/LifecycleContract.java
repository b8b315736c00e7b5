package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Scope;
import dev.forge.memory.support.LayeredKey;
import dev.forge.memory.lifecycle.MemoryDocument;
import dev.forge.memory.lifecycle.PluginMemory;
import dev.forge.memory.lifecycle.PruneAction;
import dev.forge.memory.lifecycle.PruneReport;
import dev.forge.memory.lifecycle.PruneRequest;
import dev.forge.memory.lifecycle.Staleness;
import dev.forge.memory.lifecycle.StalenessReport;
import java.time.Duration;
import java.time.LocalDate;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Layered plugin memory ({@link PluginMemory}) on the provider under test, through its public API only: the
 * "Last Updated" line round-trips, review history pruning loses nothing, and staleness follows the stamp and the
 * clock. Few writes per test, since it also runs on Neo4j-backed configurations.
 */
public abstract class LifecycleContract extends ContractSupport {

    private static final String OVERVIEW = "# Project Overview - My API\n\n## Framework\n- FastAPI 0.104";
    private static final LayeredKey KEY = LayeredKey.skill("python-code-review", "my-api", "project_overview");

    private PluginMemory memory() {
        return PluginMemory.builder(provider).clock(clock).build();
    }

    private static String reviews(int from, int to) {
        StringBuilder text = new StringBuilder();
        for (int n = from; n <= to; n++) {
            text.append("## Review #").append(n).append("\n- Finding ").append(n).append(" in `app/views.py:").append(n).append("`\n\n");
        }
        return text.toString();
    }

    @Test
    void create_read_and_append_keep_the_last_updated_line_in_the_stored_value() {
        PluginMemory memory = memory();
        memory.create(KEY, OVERVIEW);

        MemoryDocument created = memory.read(KEY).orElseThrow();
        assertThat(created.value()).isEqualTo("<!-- Last Updated: 2026-01-01 -->\n\n" + OVERVIEW);
        assertThat(created.body()).isEqualTo(OVERVIEW);
        assertThat(created.lastUpdated()).contains(LocalDate.of(2026, 1, 1));

        clock.advance(Duration.ofDays(2));
        memory.append(KEY, "- Pydantic 2.5\n");

        String expected = "<!-- Last Updated: 2026-01-03 -->\n\n" + OVERVIEW + "\n- Pydantic 2.5\n";
        assertThat(provider.get(KEY.key(), Scope.PROJECT).orElseThrow().value()).isEqualTo(expected);
        assertThat(memory.getSkillMemory("python-code-review", "my-api")).extracting(MemoryDocument::value).containsExactly(expected);
    }

    @Test
    void review_history_pruning_keeps_ten_and_moves_the_rest_to_the_archive_without_losing_any() {
        PluginMemory memory = memory();
        LayeredKey history = LayeredKey.skill("python-code-review", "my-api", "review_history");
        memory.create(history, "# Review History\n\n" + reviews(1, 12));

        PruneReport report = memory.prune(PruneRequest.skill("python-code-review", "my-api"));

        assertThat(report.actions()).extracting(PruneAction::kind).containsExactly(PruneAction.Kind.ARCHIVED, PruneAction.Kind.ARCHIVED);
        String main = provider.get(history.key(), Scope.PROJECT).orElseThrow().value();
        String archive = provider.get(history.sibling("review_history_archive").key(), Scope.PROJECT).orElseThrow().value();
        assertThat(main).isEqualTo("<!-- Last Updated: 2026-01-01 -->\n\n# Review History\n\n" + reviews(3, 12));
        assertThat(archive).isEqualTo("<!-- Last Updated: 2026-01-01 -->\n\n" + reviews(1, 2));
    }

    @Test
    void staleness_follows_the_stamp_and_the_clock_and_other_keys_are_ignored() {
        PluginMemory memory = memory();
        memory.create(KEY, OVERVIEW);
        LayeredKey unstamped = LayeredKey.sharedProject("my-api", "technology_stack");
        put(unstamped.key(), "# Stack\n- Python 3.12\n");
        put("notes/not-layered", "ignored by the report");

        clock.advance(Duration.ofDays(45));
        MemoryDocument aging = memory.read(KEY).orElseThrow();
        assertThat(aging.staleness()).isEqualTo(Staleness.AGING);
        assertThat(aging.daysSinceUpdate()).isEqualTo(OptionalLong.of(45));
        StalenessReport report = memory.getStalenessReport();
        assertThat(report.fresh()).isEmpty();
        assertThat(report.aging()).extracting(e -> e.key().key()).containsExactly(KEY.key());
        assertThat(report.stale()).extracting(e -> e.key().key()).containsExactly(unstamped.key());

        clock.advance(Duration.ofDays(46));
        assertThat(memory.read(KEY).orElseThrow().staleness()).as("91 days").isEqualTo(Staleness.STALE);
    }
}
