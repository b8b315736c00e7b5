package dev.forge.memory.knowledge;

import java.util.List;
import java.util.Objects;

/**
 * An entity of the knowledge graph, as the official MCP memory server writes it.
 *
 * @param name         its name, unique in the graph, compared exactly (case and all)
 * @param entityType   its type, such as {@code person}; any text
 * @param observations what is known of it, in order; duplicates are kept as given
 */
public record Entity(String name, String entityType, List<String> observations) {

    /** Rejects nulls and copies the list. */
    public Entity {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(entityType, "entityType");
        observations = List.copyOf(observations);
    }
}
