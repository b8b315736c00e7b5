package dev.forge.memory.hybrid.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.EntryRules;
import dev.forge.memory.GraphPath;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.Relation;
import dev.forge.memory.Traversal;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;

/** A hybrid router's relations, kept in its relationships child, which must be reachable and up to date. */
public final class RelationsGraph implements MemoryGraph {

    private final Router router;
    private final Secondary relationships;

    /** The graph of {@code router}'s relationships child. */
    public RelationsGraph(Router router, Secondary relationships) {
        this.router = router;
        this.relationships = relationships;
    }

    private MemoryGraph reachable() {
        router.state().checkOpen();
        if (router.queuedChildren().contains(Outbox.Child.RELATIONSHIPS)) {
            throw new BackendUnavailableException("The " + relationships.label + " cannot be reached: it has updates"
                    + " waiting in the outbox " + router.outbox().orElseThrow().directory() + ". Relations are kept"
                    + " there only; try again when it is back (updates are retried every "
                    + relationships.retryInterval() + ").");
        }
        return relationships.provider().requireGraph();
    }

    private <T> T call(Supplier<T> work) {
        try {
            return work.get();
        } catch (BackendUnavailableException e) {
            if (!router.state().isClosed()) {
                router.markDown(relationships, e);
            }
            throw e;
        }
    }

    @Override
    public Relation relate(EntryRef from, EntryRef to, String type) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(type, "type");
        EntryRules.checkRelationType(type);
        return make(from, to, type, graph -> graph.relate(from, to, type));
    }

    /** The relationships child's restore: the relation keeps its time where that child keeps relation times. */
    @Override
    public Relation restore(Relation relation) {
        EntryRules.checkRelationTime(relation);
        return make(relation.from(), relation.to(), relation.type(), graph -> graph.restore(relation));
    }

    private Relation make(EntryRef from, EntryRef to, String type, java.util.function.Function<MemoryGraph, Relation> write) {
        MemoryGraph graph = reachable();
        for (EntryRef end : List.of(from, to)) {
            if (router.get(end.key(), end.scope()).isEmpty()) {
                throw new EntryNotFoundException("Cannot relate " + from + " to " + to + ": there is no entry '"
                        + end.key() + "' in " + end.scope().name().toLowerCase(Locale.ROOT)
                        + " scope. Store it first.");
            }
        }
        return call(() -> {
            try {
                return write.apply(graph);
            } catch (EntryNotFoundException e) {
                // the child missed an entry (written by a process whose update of it failed): bring both ends over
                for (EntryRef end : List.of(from, to)) {
                    router.sync(relationships, end.key(), end.scope());
                }
                return write.apply(graph);
            }
        });
    }

    @Override
    public boolean unrelate(EntryRef from, EntryRef to, String type) {
        MemoryGraph graph = reachable();
        return call(() -> graph.unrelate(from, to, type));
    }

    @Override
    public List<Relation> relations(EntryRef entry, Direction direction) {
        MemoryGraph graph = reachable();
        return call(() -> graph.relations(entry, direction));
    }

    @Override
    public List<GraphPath> traverse(EntryRef start, Traversal traversal) {
        MemoryGraph graph = reachable();
        return call(() -> graph.traverse(start, traversal));
    }
}
