package dev.forge.memory;

import java.util.List;

/**
 * Typed, directed relations between entries: the {@link Capability#GRAPH} facet.
 *
 * <p>Both ends of a relation must exist when it is made; deleting or clearing an entry removes its
 * relations. Relations are seen only when both ends are visible to this provider (its project, its
 * session, global). A relation type is 1 to 64 characters: a letter, then letters, digits or
 * {@code _} ({@link dev.forge.memory.EntryRules#checkRelationType}); types are case-sensitive.
 */
public interface MemoryGraph {

    /**
     * Relates {@code from} to {@code to} with {@code type}. Relating the same pair with the same type again is
     * a no-op that returns the existing relation. An entry may be related to itself.
     *
     * @return the relation as stored
     * @throws EntryNotFoundException  if either end does not exist
     * @throws InvalidRequestException if the type is malformed
     */
    Relation relate(EntryRef from, EntryRef to, String type);

    /**
     * Makes {@code relation} as it was, its {@code createdAt} included (an existing one takes that time): how import and
     * migration bring back an exported relation. The default relates at the provider's own time, so a caller compares
     * the {@code createdAt} returned with the one given; a provider that keeps relation times overrides it.
     *
     * @return the relation as stored
     * @throws EntryNotFoundException  if either end does not exist
     * @throws InvalidRequestException if the type is malformed, or the time is outside {@link EntryRules#EARLIEST} to
     *                                 {@link EntryRules#LATEST}
     */
    default Relation restore(Relation relation) {
        EntryRules.checkRelationTime(relation);
        return relate(relation.from(), relation.to(), relation.type());
    }

    /**
     * Removes the relation of {@code type} from {@code from} to {@code to}.
     *
     * @return whether there was one
     */
    boolean unrelate(EntryRef from, EntryRef to, String type);

    /**
     * The relations of {@code entry} in {@code direction}, ordered by type, then from, then to.
     * Empty for a missing entry.
     */
    List<Relation> relations(EntryRef entry, Direction direction);

    /**
     * Walks breadth-first from {@code start}. Every entry reached (other than {@code start}) appears once,
     * at the end of one shortest path to it; paths come in order of length, ties ordered by the relations'
     * order at each step. Cycles are not followed twice. Empty for a missing start.
     */
    List<GraphPath> traverse(EntryRef start, Traversal traversal);
}
