package dev.forge.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A walk from a start entry along relations, as {@link MemoryGraph#traverse} returns it.
 *
 * @param start     where the walk began
 * @param relations the relations followed, in order, each in its stored direction
 */
public record GraphPath(EntryRef start, List<Relation> relations) {

    /** Rejects nulls, an empty walk and relations that do not chain. */
    public GraphPath {
        Objects.requireNonNull(start, "start");
        relations = List.copyOf(relations);
        if (relations.isEmpty()) {
            throw new IllegalArgumentException("a path has at least one relation");
        }
        EntryRef at = start;
        for (Relation relation : relations) {
            if (!relation.from().equals(at) && !relation.to().equals(at)) {
                throw new IllegalArgumentException("relation " + relation + " does not continue the path at " + at);
            }
            at = relation.otherEnd(at);
        }
    }

    /** The number of relations followed. */
    public int length() {
        return relations.size();
    }

    /** The entry the walk reached. */
    public EntryRef end() {
        return nodes().get(relations.size());
    }

    /** Every entry on the walk, from start to end. */
    public List<EntryRef> nodes() {
        List<EntryRef> nodes = new ArrayList<>(relations.size() + 1);
        EntryRef at = start;
        nodes.add(at);
        for (Relation relation : relations) {
            at = relation.otherEnd(at);
            nodes.add(at);
        }
        return List.copyOf(nodes);
    }
}
