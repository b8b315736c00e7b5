package dev.forge.memory.support;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.GraphPath;
import dev.forge.memory.Relation;
import dev.forge.memory.Traversal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;

/**
 * Breadth-first traversal over any relation lookup, implementing the contract of
 * {@link dev.forge.memory.MemoryGraph#traverse} for providers that cannot push it into their backend.
 */
public final class GraphWalker {

    private GraphWalker() {
    }

    /**
     * Walks from {@code start}.
     *
     * @param relationsOf the provider's {@code relations(entry, direction)}, sorted as that method promises
     */
    public static List<GraphPath> traverse(EntryRef start, Traversal traversal,
                                           BiFunction<EntryRef, Direction, List<Relation>> relationsOf) {
        List<GraphPath> paths = new ArrayList<>();
        Set<EntryRef> seen = new HashSet<>();
        seen.add(start);
        Deque<List<Relation>> frontier = new ArrayDeque<>();
        frontier.add(List.of());
        while (!frontier.isEmpty()) {
            List<Relation> path = frontier.poll();
            if (path.size() >= traversal.maxDepth()) {
                continue;
            }
            EntryRef at = path.isEmpty() ? start : new GraphPath(start, path).end();
            for (Relation relation : relationsOf.apply(at, traversal.direction())) {
                if (!traversal.follows(relation.type())) {
                    continue;
                }
                EntryRef next = relation.otherEnd(at);
                if (seen.add(next)) {
                    List<Relation> longer = new ArrayList<>(path);
                    longer.add(relation);
                    paths.add(new GraphPath(start, longer));
                    frontier.add(longer);
                }
            }
        }
        return List.copyOf(paths);
    }

    /**
     * Walks from {@code start} over a set of relations a provider collected from its backend (for instance those
     * reachable within the traversal's depth): each entry's relations are taken from the set, sorted as
     * {@link dev.forge.memory.MemoryGraph#relations} promises, a relation of an entry to itself once.
     */
    public static List<GraphPath> traverse(EntryRef start, Traversal traversal, Collection<Relation> edges) {
        Map<EntryRef, Set<Relation>> outgoing = new HashMap<>();
        Map<EntryRef, Set<Relation>> incoming = new HashMap<>();
        for (Relation edge : edges) {
            outgoing.computeIfAbsent(edge.from(), k -> new HashSet<>()).add(edge);
            incoming.computeIfAbsent(edge.to(), k -> new HashSet<>()).add(edge);
        }
        return traverse(start, traversal, (at, direction) -> {
            Set<Relation> relations = new TreeSet<>();
            if (direction != Direction.INCOMING) {
                relations.addAll(outgoing.getOrDefault(at, Set.of()));
            }
            if (direction != Direction.OUTGOING) {
                relations.addAll(incoming.getOrDefault(at, Set.of()));
            }
            return List.copyOf(relations);
        });
    }
}
