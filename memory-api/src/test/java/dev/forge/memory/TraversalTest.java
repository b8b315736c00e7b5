package dev.forge.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

class TraversalTest {

    @Test
    void depths_out_of_range_are_rejected_so_no_provider_is_asked_to_walk_them() {
        assertThatThrownBy(() -> Traversal.outgoing(0)).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining(String.valueOf(Traversal.MAX_DEPTH));
        assertThatThrownBy(() -> Traversal.outgoing(-1)).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> Traversal.outgoing(Traversal.MAX_DEPTH + 1)).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> new Traversal(Set.of(), Direction.BOTH, Traversal.MAX_DEPTH + 1))
                .isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void depths_from_1_to_max_depth_are_accepted_in_every_direction() {
        assertThat(Traversal.outgoing(1).maxDepth()).isEqualTo(1);
        for (Direction direction : Direction.values()) {
            Traversal deepest = Traversal.outgoing(Traversal.MAX_DEPTH).withDirection(direction);
            assertThat(deepest.maxDepth()).isEqualTo(Traversal.MAX_DEPTH);
            assertThat(deepest.direction()).isEqualTo(direction);
        }
    }
}
