package dev.forge.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class QueryTest {

    @Test
    void malformed_patterns_are_rejected() {
        assertThatThrownBy(() -> Query.of("")).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> Query.of("tag:")).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> Query.of("dangling\\")).isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void limit_below_1_and_negative_offset_are_rejected() {
        assertThatThrownBy(() -> Query.builder().limit(0).build()).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> Query.builder().limit(-1).build()).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> Query.builder().offset(-1).build()).isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void smallest_limit_and_offset_are_accepted() {
        Query query = Query.builder().limit(1).offset(0).build();
        assertThat(query.limit()).isEqualTo(1);
        assertThat(query.offset()).isZero();
        assertThat(Query.builder().build().limit()).isEqualTo(Query.UNLIMITED);
    }
}
