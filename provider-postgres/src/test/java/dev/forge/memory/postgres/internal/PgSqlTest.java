package dev.forge.memory.postgres.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The key range a prefix query reads: every key with the prefix is inside it, in code point order. */
class PgSqlTest {

    @Test
    void the_successor_of_a_prefix_raises_its_last_code_point() {
        assertThat(PgSql.successor("note/0001")).contains("note/0002");
        assertThat(PgSql.successor("a\uD7FF")).as("skips the surrogates").contains("a\uE000");
        assertThat(PgSql.successor("a\uFFFF")).contains("a\uD800\uDC00");
        assertThat(PgSql.successor("a" + Character.toString(Character.MAX_CODE_POINT))).contains("b");
        assertThat(PgSql.successor(Character.toString(Character.MAX_CODE_POINT).repeat(2))).isEmpty();
    }

    @Test
    void every_key_with_the_prefix_sorts_below_the_successor_in_code_point_order() {
        String prefix = "k\uFFFF";
        String above = PgSql.successor(prefix).orElseThrow();
        for (String key : new String[] {prefix, prefix + "\uD83D\uDE00", prefix + Character.toString(Character.MAX_CODE_POINT)}) {
            assertThat(compareCodePoints(key, above)).as(key).isNegative();
        }
    }

    private static int compareCodePoints(String a, String b) {
        return java.util.Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());
    }
}
