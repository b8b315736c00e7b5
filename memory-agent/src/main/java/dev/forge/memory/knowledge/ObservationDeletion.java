package dev.forge.memory.knowledge;

import java.util.List;
import java.util.Objects;

/**
 * Observations to remove from one entity (an item of {@code delete_observations}).
 *
 * @param entityName   the entity's name
 * @param observations the observations to remove; every occurrence of each goes
 */
public record ObservationDeletion(String entityName, List<String> observations) {

    /** Rejects nulls and copies the list. */
    public ObservationDeletion {
        Objects.requireNonNull(entityName, "entityName");
        observations = List.copyOf(observations);
    }
}
