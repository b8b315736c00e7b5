package dev.forge.memory;

import java.util.Objects;

/**
 * Something wrong with stored data that a provider works around, reported by {@link MemoryProvider#doctor()}: a
 * file it cannot read and skips, a broken version chain, a relation to nothing.
 *
 * @param location where: a file path, or a key and scope
 * @param problem  what is wrong and what to do about it, in one line; never the memory's value
 */
public record StoreProblem(String location, String problem) {

    /** Rejects nulls. */
    public StoreProblem {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(problem, "problem");
    }

    @Override
    public String toString() {
        return location + ": " + problem;
    }
}
