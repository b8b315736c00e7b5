package dev.forge.memory.lifecycle;

import dev.forge.memory.support.LayeredKey;
import static dev.forge.memory.lifecycle.PolicyFixtures.TODAY;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** known_issues: resolved issues go after 30 days, in-progress ones stay, old statuses get [VERIFY STATUS]. */
class KnownIssuesPolicyTest {

    private final LayeredKey key = LayeredKey.skill("dotnet-code-review", "e-commerce", "known_issues");
    private final KnownIssuesPolicy policy = new KnownIssuesPolicy();

    private static String issue(String title, String status) {
        return "### " + title + "\n**Status**: " + status + "\nDetails of " + title + ".\n\n";
    }

    @Test
    void the_adapters_three_issue_example() {
        String body = "# Known Issues\n\n## High\n\n"
                + issue("N+1 Query in Order History", "Resolved (2026-01-05)")
                + issue("Missing CancellationToken", "In Progress")
                + issue("Old Singleton Issue", "Investigating (2025-10-15)");

        PruneOutcome outcome = policy.prune(key, body, TODAY);

        assertThat(outcome.text()).isEqualTo("# Known Issues\n\n## High\n\n"
                + issue("Missing CancellationToken", "In Progress")
                + "### Old Singleton Issue [VERIFY STATUS]\n**Status**: Investigating (2025-10-15)\nDetails of Old Singleton Issue.\n\n");
        assertThat(outcome.actions()).containsExactly(
                new PruneAction(key, PruneAction.Kind.REMOVED,
                        "\"N+1 Query in Order History\" resolved 2026-01-05, 36 days ago (resolved issues go after 30 days)"),
                new PruneAction(key, PruneAction.Kind.FLAGGED,
                        "\"Old Singleton Issue\" has had no status update for 118 days (since 2025-10-15): [VERIFY STATUS] added"));
        assertThat(outcome.archive()).isEmpty();
        assertThat(policy.prune(key, outcome.text(), TODAY).changed()).as("the tag is added once").isFalse();
    }

    @Test
    void resolved_issues_go_at_30_days_not_at_29() {
        String body = issue("Day 29", "Resolved (" + TODAY.minusDays(29) + ")") + issue("Day 30", "✅ Resolved (" + TODAY.minusDays(30) + ")");
        PruneOutcome outcome = policy.prune(key, body, TODAY);
        assertThat(outcome.text()).isEqualTo(issue("Day 29", "Resolved (" + TODAY.minusDays(29) + ")"));
        assertThat(outcome.actions()).extracting(PruneAction::kind).containsExactly(PruneAction.Kind.REMOVED);
    }

    @Test
    void other_statuses_are_flagged_at_90_days_not_at_89() {
        String body = issue("Day 89", "Open (" + TODAY.minusDays(89) + ")") + issue("Day 90", "Open (" + TODAY.minusDays(90) + ")");
        PruneOutcome outcome = policy.prune(key, body, TODAY);
        assertThat(outcome.text()).isEqualTo(issue("Day 89", "Open (" + TODAY.minusDays(89) + ")")
                + "### Day 90 [VERIFY STATUS]\n**Status**: Open (2025-11-12)\nDetails of Day 90.\n\n");
    }

    @Test
    void in_progress_is_kept_whatever_its_age_and_issues_without_a_date_or_status_are_left_alone() {
        String body = "## Medium\n" + issue("Ancient work", "In Progress (2020-01-01)") + issue("Resolved, undated", "Resolved")
                + "### No status at all\nJust a note from 2019-01-01.\n\n" + issue("Bad date", "Open (2025-02-30)")
                + "- **Status:** Unresolved (2025-01-01)\n";
        PruneOutcome outcome = policy.prune(key, body, TODAY);
        assertThat(outcome.changed()).isFalse();
        assertThat(outcome.text()).isEqualTo(body);
    }

    @Test
    void an_issue_ends_at_the_next_severity_heading_and_crlf_is_kept() {
        String body = "### Gone\r\n**Status**: Resolved (2025-12-01)\r\n## Low\r\n### Old\r\n**Status**: Blocked (2025-01-01)\r\nx\r\n";
        PruneOutcome outcome = policy.prune(key, body, TODAY);
        assertThat(outcome.text()).isEqualTo("## Low\r\n### Old [VERIFY STATUS]\r\n**Status**: Blocked (2025-01-01)\r\nx\r\n");
    }

    @Test
    void a_status_that_only_mentions_resolved_is_not_resolved() {
        String body = issue("Flaky login", "Not resolved yet (reported 2025-12-01)")
                + issue("Cache bug", "Won't be resolved before 2.0 (2025-12-01)")
                + issue("Old leak", "Unresolved (2025-12-01)");
        PruneOutcome outcome = policy.prune(key, body, TODAY);
        assertThat(outcome.actions()).extracting(PruneAction::kind).doesNotContain(PruneAction.Kind.REMOVED);
        assertThat(outcome.text()).contains("### Flaky login").contains("### Cache bug").contains("### Old leak");
    }

    @Test
    void a_comment_in_a_code_block_is_not_a_heading_so_a_removed_issue_goes_whole() {
        String resolved = "### Build breaks\n**Status**: Resolved (2025-12-01)\nRun:\n```bash\n# clean first\nrm -rf target\n```\n\n";
        String open = issue("Slow tests", "In Progress");
        PruneOutcome outcome = policy.prune(key, resolved + open, TODAY);
        assertThat(outcome.text()).isEqualTo(open);
        assertThat(outcome.actions()).extracting(PruneAction::kind).containsExactly(PruneAction.Kind.REMOVED);
    }
}
