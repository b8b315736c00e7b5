package dev.forge.memory.markdown.internal;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.Relation;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.EntryRules;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The relations among the entries one provider sees, resolved from the {@code related} lists of their head files;
 * built when first needed after a change, then reused.
 */
final class GraphView {

    private final Map<EntryRef, List<Relation>> outgoing;
    private final Map<EntryRef, List<Relation>> incoming = new HashMap<>();
    private final List<StoreProblem> problems;

    GraphView(Map<EntryRef, List<Relation>> outgoing, List<StoreProblem> problems) {
        this.outgoing = outgoing;
        this.problems = List.copyOf(problems);
        for (List<Relation> relations : outgoing.values()) {
            for (Relation relation : relations) {
                incoming.computeIfAbsent(relation.to(), k -> new ArrayList<>()).add(relation);
            }
        }
    }

    /**
     * The relation type a {@code relationship} word stands for: the word with each {@code -} made {@code _}
     * ({@code relates-to} is {@code relates_to}), or null if it is not a word the API accepts.
     */
    static String relationType(String relationship) {
        try {
            return EntryRules.checkRelationType(relationship.replace('-', '_'));
        } catch (InvalidRequestException e) {
            return null;
        }
    }

    /** The relations leaving {@code from}. */
    List<Relation> outgoing(EntryRef from) {
        return outgoing.getOrDefault(from, List.of());
    }

    /** The relations of {@code entry} in {@code direction}, ordered; a relation to itself is listed once. */
    List<Relation> relations(EntryRef entry, Direction direction) {
        List<Relation> relations = new ArrayList<>();
        if (direction != Direction.INCOMING) {
            relations.addAll(outgoing(entry));
        }
        if (direction != Direction.OUTGOING) {
            for (Relation relation : incoming.getOrDefault(entry, List.of())) {
                if (!(direction == Direction.BOTH && relation.from().equals(relation.to()))) {
                    relations.add(relation);
                }
            }
        }
        relations.sort(null);
        return List.copyOf(relations);
    }

    /** Relationship words that are not relation types. */
    List<StoreProblem> problems() {
        return problems;
    }
}
