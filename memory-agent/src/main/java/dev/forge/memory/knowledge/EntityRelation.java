package dev.forge.memory.knowledge;

import java.util.Objects;

/**
 * A directed, typed relation between two entities, as the official MCP memory server writes it.
 *
 * @param from         the name of the entity it starts at
 * @param to           the name of the entity it ends at
 * @param relationType its type, in active voice ({@code works_at}); any text of up to 64 characters once mapped
 *                     ({@link dev.forge.memory.transfer.McpMemoryFormat#relationType})
 */
public record EntityRelation(String from, String to, String relationType) {

    /** Rejects nulls. */
    public EntityRelation {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(relationType, "relationType");
    }
}
