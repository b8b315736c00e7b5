package dev.forge.memory.knowledge;

import java.util.List;
import java.util.Objects;

/**
 * What {@code add_observations} added to one entity: the observations it did not have yet.
 *
 * @param entityName        the entity's name
 * @param addedObservations the observations added, in order
 */
public record AddedObservations(String entityName, List<String> addedObservations) {

    /** Rejects nulls and copies the list. */
    public AddedObservations {
        Objects.requireNonNull(entityName, "entityName");
        addedObservations = List.copyOf(addedObservations);
    }
}
