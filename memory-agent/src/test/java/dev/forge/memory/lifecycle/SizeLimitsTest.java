package dev.forge.memory.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The adapter's size limits: warnings over 500 / 200 / 300 lines, none for archives. */
class SizeLimitsTest {

    private final SizeLimits limits = SizeLimits.DEFAULT;

    @Test
    void any_file_warns_over_500_lines() {
        assertThat(limits.check("known_issues", 500)).isEmpty();
        assertThat(limits.check("known_issues", 501))
                .contains("known_issues has 501 lines, over the limit for any memory file of 500: split it into focused sub-files.");
    }

    @Test
    void project_overview_warns_over_200_and_review_history_over_300() {
        assertThat(limits.check("project_overview", 200)).isEmpty();
        assertThat(limits.check("project_overview", 201))
                .contains("project_overview has 201 lines, over the project_overview limit of 200: move detailed sections to separate files.");
        assertThat(limits.check("review_history", 300)).isEmpty();
        assertThat(limits.check("review_history", 301))
                .contains("review_history has 301 lines, over the review_history limit of 300: archive older entries (pruning does this).");
    }

    @Test
    void archives_have_no_limit_and_limits_are_configurable() {
        assertThat(limits.check("review_history_archive", 5000)).isEmpty();
        SizeLimits custom = limits.withAnyFile(10).with("known_issues", 5, "close old issues");
        assertThat(custom.check("notes", 11)).contains("notes has 11 lines, over the limit for any memory file of 10: split it into focused sub-files.");
        assertThat(custom.check("known_issues", 6)).contains("known_issues has 6 lines, over the known_issues limit of 5: close old issues.");
        assertThat(custom.check("project_overview", 11)).as("its own limit of 200 is not reached, the general one is").isPresent();
    }

    @Test
    void lines_are_counted_like_a_text_editor() {
        assertThat(SizeLimits.lineCount("")).isZero();
        assertThat(SizeLimits.lineCount("a")).isEqualTo(1);
        assertThat(SizeLimits.lineCount("a\n")).isEqualTo(1);
        assertThat(SizeLimits.lineCount("a\n\nb")).isEqualTo(3);
        assertThat(SizeLimits.lineCount("a\r\nb\r\n")).isEqualTo(2);
    }
}
