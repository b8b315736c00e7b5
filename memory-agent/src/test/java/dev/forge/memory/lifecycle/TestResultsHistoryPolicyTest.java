package dev.forge.memory.lifecycle;

import dev.forge.memory.support.LayeredKey;
import static dev.forge.memory.lifecycle.PolicyFixtures.TODAY;
import static dev.forge.memory.lifecycle.PolicyFixtures.sessions;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** test_results_history: the newest 15 sessions stay, older ones become bullets of a Historical Summary. */
class TestResultsHistoryPolicyTest {

    private final LayeredKey key = LayeredKey.skill("generate-python-unit-tests", "my-api", "test_results_history");
    private final TestResultsHistoryPolicy policy = new TestResultsHistoryPolicy();

    @Test
    void fifteen_sessions_are_left_alone() {
        String body = "# Test Results\n\n" + sessions(1, 15);
        assertThat(policy.prune(key, body, TODAY)).isEqualTo(PruneOutcome.unchanged(body));
    }

    @Test
    void older_sessions_fold_into_a_summary_at_the_bottom() {
        String body = "# Test Results\n\n" + sessions(1, 17);
        PruneOutcome outcome = policy.prune(key, body, TODAY);
        assertThat(outcome.text()).isEqualTo("# Test Results\n\n" + sessions(3, 17)
                + "## Historical Summary\n\n- Session 1: 41 passed, 1 failed\n- Session 2: 42 passed, 2 failed\n");
        assertThat(outcome.actions()).extracting(PruneAction::kind).containsExactly(PruneAction.Kind.SUMMARIZED, PruneAction.Kind.SUMMARIZED);
        assertThat(outcome.actions().get(0).reason())
                .isEqualTo("\"## Session 1\" folded into the Historical Summary (keeping the 15 newest sessions)");
        assertThat(policy.prune(key, outcome.text(), TODAY).changed()).as("pruning twice is pruning once").isFalse();
    }

    @Test
    void an_existing_summary_keeps_its_bullets_and_gets_the_new_ones_after_appends_past_it() {
        String pruned = policy.prune(key, sessions(1, 16), TODAY).text();
        String appended = pruned + "## Test Session 17\nNo results recorded\n";
        PruneOutcome outcome = policy.prune(key, appended, TODAY);
        assertThat(outcome.text()).isEqualTo(sessions(3, 16) + "## Test Session 17\nNo results recorded\n\n"
                + "## Historical Summary\n\n- Session 1: 41 passed, 1 failed\n- Session 2: 42 passed, 2 failed\n");
    }

    @Test
    void a_session_without_a_results_line_is_summarised_by_its_first_line() {
        String body = "## Test Session 0\n\n* Flaky network, rerun tomorrow\n\n" + sessions(1, 1);
        PruneOutcome outcome = new TestResultsHistoryPolicy(1).prune(key, body, TODAY);
        assertThat(outcome.text()).isEqualTo(sessions(1, 1) + "## Historical Summary\n\n- Test Session 0: Flaky network, rerun tomorrow\n");
    }
}
