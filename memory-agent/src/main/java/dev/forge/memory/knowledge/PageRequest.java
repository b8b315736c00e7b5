package dev.forge.memory.knowledge;

import dev.forge.memory.InvalidRequestException;
import java.util.Objects;
import java.util.Optional;

/**
 * Which page of entities a read asks for.
 *
 * @param limit  the most entities in the page, 1 to {@link #MAX_LIMIT}
 * @param cursor the {@link GraphPage#nextCursor()} of the previous page, or empty for the first
 */
public record PageRequest(int limit, Optional<String> cursor) {

    /** The entities of a page when the caller names no limit. */
    public static final int DEFAULT_LIMIT = 200;
    /** The most entities one page holds. */
    public static final int MAX_LIMIT = 1000;

    /**
     * Checks the limit.
     *
     * @throws InvalidRequestException if it is outside 1 to {@link #MAX_LIMIT}
     */
    public PageRequest {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new InvalidRequestException("A page holds 1 to " + MAX_LIMIT + " entities, not " + limit
                    + "; ask for fewer and follow nextCursor for the rest.");
        }
        Objects.requireNonNull(cursor, "cursor");
    }

    /** The first page of {@link #DEFAULT_LIMIT} entities. */
    public static PageRequest first() {
        return new PageRequest(DEFAULT_LIMIT, Optional.empty());
    }

    /** The first page of {@code limit} entities. */
    public static PageRequest first(int limit) {
        return new PageRequest(limit, Optional.empty());
    }

    /** The page of {@code limit} entities after the one that gave {@code cursor}. */
    public static PageRequest after(String cursor, int limit) {
        return new PageRequest(limit, Optional.of(cursor));
    }
}
