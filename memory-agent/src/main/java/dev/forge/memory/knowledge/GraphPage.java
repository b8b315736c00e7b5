package dev.forge.memory.knowledge;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A page of the knowledge graph: what {@code read_graph}, {@code search_nodes} and {@code open_nodes} answer. The
 * official server answers {@code {"entities": [...], "relations": [...]}} with everything; a server writing this
 * page adds {@code "nextCursor"} only when there is more.
 *
 * @param entities   the entities of this page, in key order
 * @param relations  the relations of this page (which ones, each method says)
 * @param nextCursor where the next page starts ({@link PageRequest#after}); empty on the last page
 */
public record GraphPage(List<Entity> entities, List<EntityRelation> relations, Optional<String> nextCursor) {

    /** Copies the lists. */
    public GraphPage {
        entities = List.copyOf(entities);
        relations = List.copyOf(relations);
        Objects.requireNonNull(nextCursor, "nextCursor");
    }
}
