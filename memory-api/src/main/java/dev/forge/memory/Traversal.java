package dev.forge.memory;

import java.util.Objects;
import java.util.Set;

/**
 * How far and along which relations {@link MemoryGraph#traverse} walks.
 *
 * @param types     relation types to follow; empty follows every type
 * @param direction which way to follow them
 * @param maxDepth  the longest path, 1 to {@link #MAX_DEPTH}
 */
public record Traversal(Set<String> types, Direction direction, int maxDepth) {

    /** The deepest traversal allowed. */
    public static final int MAX_DEPTH = 16;

    /** Checks the values: relation types as {@link dev.forge.memory.EntryRules#checkRelationType}. */
    public Traversal {
        types = Set.copyOf(Objects.requireNonNull(types, "types"));
        types.forEach(dev.forge.memory.EntryRules::checkRelationType);
        Objects.requireNonNull(direction, "direction");
        if (maxDepth < 1 || maxDepth > MAX_DEPTH) {
            throw new InvalidRequestException("Traversal depth must be between 1 and " + MAX_DEPTH + ", was " + maxDepth + ".");
        }
    }

    /** Outgoing relations of any type up to {@code maxDepth}. */
    public static Traversal outgoing(int maxDepth) {
        return new Traversal(Set.of(), Direction.OUTGOING, maxDepth);
    }

    /** This traversal restricted to the given types. */
    public Traversal withTypes(String... types) {
        return new Traversal(new java.util.LinkedHashSet<>(java.util.List.of(types)), direction, maxDepth);
    }

    /** This traversal in another direction. */
    public Traversal withDirection(Direction direction) {
        return new Traversal(types, direction, maxDepth);
    }

    /** Whether a relation of {@code type} is followed. */
    public boolean follows(String type) {
        return types.isEmpty() || types.contains(type);
    }
}
