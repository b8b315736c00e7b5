package dev.forge.memory.knowledge;

import java.util.List;
import java.util.Objects;

/**
 * Observations to add to one entity (an item of {@code add_observations}).
 *
 * @param entityName the entity's name
 * @param contents   the observations to add, in order
 */
public record ObservationAddition(String entityName, List<String> contents) {

    /** Rejects nulls and copies the list. */
    public ObservationAddition {
        Objects.requireNonNull(entityName, "entityName");
        contents = List.copyOf(contents);
    }
}
