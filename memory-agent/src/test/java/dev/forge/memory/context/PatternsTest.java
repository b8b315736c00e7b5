package dev.forge.memory.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.testing.Stores;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The decision log, learning capture and session context patterns, in the shapes of the original design. */
class PatternsTest {

    private final MemoryProvider provider = Stores.inMemory(new Stores.Ticking());

    @AfterEach
    void close() {
        provider.close();
    }

    @Test
    void a_decision_is_readable_markdown_in_project_scope_with_its_parts_in_metadata() {
        Clock clock = Clock.fixed(Stores.START, ZoneOffset.UTC);
        DecisionLog log = DecisionLog.of(provider, clock);

        DecisionLog.Decision first = log.record("Use SQLite", "Embedded, no server.", List.of("PostgreSQL", "H2"));
        DecisionLog.Decision second = log.record("Use WAL mode", "Readers never block.", List.of());

        String key = "decision:" + Stores.START.toEpochMilli();
        assertThat(first.key()).isEqualTo(key);
        assertThat(second.key()).as("same millisecond: a suffix, not an overwrite").isEqualTo(key + "-2");
        MemoryEntry stored = provider.get(key, Scope.PROJECT).orElseThrow();
        assertThat(stored.value()).isEqualTo("""
                ## Decision

                Use SQLite

                ## Rationale

                Embedded, no server.

                ## Alternatives considered

                - PostgreSQL
                - H2
                """);
        assertThat(stored.tags()).containsExactly("decision", "architecture");
        assertThat(stored.metadata()).isEqualTo(Map.of("decision", "Use SQLite", "rationale", "Embedded, no server.",
                "alternatives", List.of("PostgreSQL", "H2")));
        assertThat(provider.get(key + "-2", Scope.PROJECT).orElseThrow().value()).endsWith("## Alternatives considered\n\n- none\n");
        assertThat(DecisionLog.read(stored)).contains(first);
        assertThat(first.alternatives()).containsExactly("PostgreSQL", "H2");
        assertThat(log.recent(10)).extracting(DecisionLog.Decision::key).containsExactly(key + "-2", key);
        assertThat(ContextLoader.categoryOf(stored)).isEqualTo("decision");
        assertThatThrownBy(() -> log.record(" ", "why", List.of())).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("decision");
    }

    @Test
    void a_learning_is_global_keyed_by_its_topic_and_tagged_with_it() {
        LearningCapture.Learning learning = LearningCapture.capture(provider, "async file io",
                "Use aiofiles; open() blocks.", "review of PR 12");

        MemoryEntry stored = provider.get("learning:async-file-io", Scope.GLOBAL).orElseThrow();
        assertThat(stored.value()).isEqualTo("Use aiofiles; open() blocks.");
        assertThat(stored.tags()).containsExactly("learning", "async file io");
        assertThat(stored.metadata()).isEqualTo(Map.of("context", "review of PR 12"));
        assertThat(learning).isEqualTo(new LearningCapture.Learning("learning:async-file-io", "async file io",
                "Use aiofiles; open() blocks.", "review of PR 12"));
        assertThat(LearningCapture.find(provider, "async file io")).contains(learning);
        assertThat(provider.get("learning:async-file-io", Scope.PROJECT)).isEmpty();
        assertThatThrownBy(() -> LearningCapture.capture(provider, "  ", "x", "")).isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void session_context_is_the_ten_newest_project_memories_and_the_five_newest_learnings() {
        for (int i = 0; i < 12; i++) {
            provider.set("p" + i, "project fact " + i, Scope.PROJECT);
        }
        for (int i = 0; i < 7; i++) {
            LearningCapture.capture(provider, "topic " + i, "insight " + i, "");
        }
        provider.set("other:global", "not a learning", Scope.GLOBAL);

        SessionContext context = SessionContext.load(provider);

        assertThat(context.recentProject()).extracting(MemoryEntry::key)
                .containsExactly("p11", "p10", "p9", "p8", "p7", "p6", "p5", "p4", "p3", "p2");
        assertThat(context.learnings()).extracting(MemoryEntry::key).containsExactly("learning:topic-6",
                "learning:topic-5", "learning:topic-4", "learning:topic-3", "learning:topic-2");
        ContextPage page = context.pages(2000, TokenEstimator.DEFAULT).first();
        assertThat(page.entries()).hasSize(15);
        assertThat(page.text()).startsWith("# Memory context\n\n## project\n\n- `p11` (project, 2026-01-01)\n  project fact 11\n")
                .contains("\n## learning\n\n- `learning:topic-6` (global, 2026-01-01)\n  insight 6\n");
    }
}
