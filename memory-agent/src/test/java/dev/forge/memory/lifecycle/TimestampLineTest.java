package dev.forge.memory.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/** The adapter's timestamp line: format, parsing (CRLF, BOM, trailing spaces), replace-or-prepend. */
class TimestampLineTest {

    private static final LocalDate DAY = LocalDate.of(2026, 2, 10);

    @Test
    void the_adapters_concrete_example_is_formatted_and_parsed() {
        assertThat(TimestampLine.format(DAY)).isEqualTo("<!-- Last Updated: 2026-02-10 -->");
        assertThat(TimestampLine.parse("<!-- Last Updated: 2026-02-10 -->")).contains(DAY);
        assertThat(TimestampLine.parse("<!-- Last Updated: 2026-02-10 -->\n\n# Title\n")).contains(DAY);
    }

    @Test
    void parsing_tolerates_crlf_a_byte_order_mark_and_trailing_spaces() {
        assertThat(TimestampLine.parse("<!-- Last Updated: 2026-02-10 -->\r\n\r\n# T\r\n")).contains(DAY);
        assertThat(TimestampLine.parse("\uFEFF<!-- Last Updated: 2026-02-10 -->\n# T")).contains(DAY);
        assertThat(TimestampLine.parse("<!-- Last Updated: 2026-02-10 -->  \t\n# T")).contains(DAY);
    }

    @Test
    void anything_else_on_the_first_line_is_no_timestamp() {
        assertThat(TimestampLine.parse("# Title\n<!-- Last Updated: 2026-02-10 -->\n")).isEmpty();
        assertThat(TimestampLine.parse(" <!-- Last Updated: 2026-02-10 -->")).isEmpty();
        assertThat(TimestampLine.parse("<!-- Last Updated: 2026-02-30 -->")).as("no such day").isEmpty();
        assertThat(TimestampLine.parse("<!-- Last Updated: 2026-2-10 -->")).isEmpty();
        assertThat(TimestampLine.parse("")).isEmpty();
    }

    @Test
    void stamp_prepends_the_line_and_a_blank_line_as_in_the_create_example() {
        assertThat(TimestampLine.stamp("# Project Overview - My API\n\n## Framework\n- FastAPI 0.104", DAY))
                .isEqualTo("<!-- Last Updated: 2026-02-10 -->\n\n# Project Overview - My API\n\n## Framework\n- FastAPI 0.104");
    }

    @Test
    void stamp_replaces_an_existing_line_keeping_everything_else() {
        assertThat(TimestampLine.stamp("<!-- Last Updated: 2025-01-01 -->\n# Body\n", DAY))
                .isEqualTo("<!-- Last Updated: 2026-02-10 -->\n# Body\n");
        assertThat(TimestampLine.stamp("\uFEFF<!-- Last Updated: 2025-01-01 -->   \r\n\r\n# Body\r\n", DAY))
                .isEqualTo("<!-- Last Updated: 2026-02-10 -->\r\n\r\n# Body\r\n");
    }

    @Test
    void body_drops_the_line_and_one_blank_line() {
        assertThat(TimestampLine.body("<!-- Last Updated: 2026-02-10 -->\n\n# Body\n\ntext\n")).isEqualTo("# Body\n\ntext\n");
        assertThat(TimestampLine.body("<!-- Last Updated: 2026-02-10 -->\r\n\r\n# Body\r\n")).isEqualTo("# Body\r\n");
        assertThat(TimestampLine.body("<!-- Last Updated: 2026-02-10 -->\n# Body\n")).isEqualTo("# Body\n");
        assertThat(TimestampLine.body("# No stamp\n")).isEqualTo("# No stamp\n");
        assertThat(TimestampLine.body(TimestampLine.compose(DAY, "x\n"))).isEqualTo("x\n");
    }
}
