package dev.forge.memory.lifecycle;

import dev.forge.memory.support.LayeredKey;
import static dev.forge.memory.lifecycle.PolicyFixtures.TODAY;
import static dev.forge.memory.lifecycle.PolicyFixtures.reviewNumbers;
import static dev.forge.memory.lifecycle.PolicyFixtures.reviews;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** review_history: the newest 10 reviews stay, older ones move verbatim to the archive. */
class ReviewHistoryPolicyTest {

    private final LayeredKey key = LayeredKey.skill("python-code-review", "my-api", "review_history");
    private final ReviewHistoryPolicy policy = new ReviewHistoryPolicy();

    @Test
    void ten_reviews_or_fewer_are_left_alone() {
        String body = "# Review History\n\n" + reviews(1, 10);
        PruneOutcome outcome = policy.prune(key, body, TODAY);
        assertThat(outcome.changed()).isFalse();
        assertThat(outcome.text()).isEqualTo(body);
        assertThat(outcome.archive()).isEmpty();
    }

    @Test
    void thirteen_reviews_keep_the_last_ten_and_archive_the_first_three_verbatim() {
        String body = "# Review History\n\n" + reviews(1, 13);
        PruneOutcome outcome = policy.prune(key, body, TODAY);
        assertThat(outcome.text()).isEqualTo("# Review History\n\n" + reviews(4, 13));
        assertThat(outcome.archive()).contains(new PruneOutcome.Archive("review_history_archive", reviews(1, 3)));
        assertThat(outcome.actions()).extracting(PruneAction::kind).containsOnly(PruneAction.Kind.ARCHIVED).hasSize(3);
        assertThat(outcome.actions().get(0).reason()).isEqualTo("\"## Review #1 - 2026-01-01\" moved to "
                + "skills/python-code-review/my-api/review_history_archive (keeping the 10 newest reviews)");
    }

    @Test
    void every_section_ends_up_in_main_or_archive_exactly_once() {
        String body = reviews(1, 27);
        PruneOutcome outcome = policy.prune(key, body, TODAY);
        String archived = outcome.archive().orElseThrow().text();
        assertThat(reviewNumbers(archived)).containsExactlyElementsOf(IntStream.rangeClosed(1, 17).boxed().toList());
        assertThat(reviewNumbers(outcome.text())).containsExactlyElementsOf(IntStream.rangeClosed(18, 27).boxed().toList());
        assertThat(archived + outcome.text()).isEqualTo(body);
        assertThat(policy.prune(key, outcome.text(), TODAY).changed()).as("pruning twice is pruning once").isFalse();
    }

    @Test
    void text_after_a_review_heading_belongs_to_that_review_and_reviews_heading_is_not_a_review() {
        String body = "## Reviews\nintro\n## Review 1\n### Details\nx\n## Review 2\ny\n";
        PruneOutcome outcome = new ReviewHistoryPolicy(1).prune(key, body, TODAY);
        assertThat(outcome.text()).isEqualTo("## Reviews\nintro\n## Review 2\ny\n");
        assertThat(outcome.archive().orElseThrow().text()).isEqualTo("## Review 1\n### Details\nx\n");
    }

    @Test
    void a_review_heading_inside_a_code_block_is_part_of_the_review_around_it() {
        String quoted = "## Review 1\nThe template:\n~~~markdown\n## Review <date>\n- findings\n~~~\n";
        String body = quoted + "## Review 2\nb\n";
        PruneOutcome outcome = new ReviewHistoryPolicy(1).prune(key, body, TODAY);
        assertThat(outcome.text()).isEqualTo("## Review 2\nb\n");
        assertThat(outcome.archive().orElseThrow().text()).contains(quoted);
    }
}
