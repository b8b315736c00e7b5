package dev.forge.memory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A structured lookup: which keys, in which scopes, under which conditions, in what order, which page.
 *
 * <p>Built with {@link #builder()} or {@link #of(String, Scope...)}. Results are ordered by {@link #order()},
 * ties broken by key (code point order) then scope in declaration order (SESSION, PROJECT, GLOBAL), so a query
 * always returns the same list for the same store.
 *
 * @param pattern the keys to select
 * @param scopes  the scopes to look in (never empty)
 * @param filter  extra conditions
 * @param order   the order of the results
 * @param limit   the largest number of results, at least 1
 * @param offset  how many ordered results to skip first, at least 0
 */
public record Query(KeyPattern pattern, Set<Scope> scopes, Filter filter, Order order, int limit, int offset) {

    /** The order of query results. */
    public enum Order {
        /** By key ascending in code point order ({@link dev.forge.memory.Keys#compareKeys}), then scope. */
        KEY,
        /** By key descending, then scope descending. */
        KEY_DESC,
        /** Most recently updated first. */
        UPDATED_DESC,
        /** Least recently updated first. */
        UPDATED_ASC;

        private static final Comparator<MemoryEntry> BY_KEY =
                Comparator.comparing(MemoryEntry::key, dev.forge.memory.Keys::compareKeys).thenComparing(MemoryEntry::scope);

        /** A total order over entries that implements this order, ties broken by key then scope. */
        public Comparator<MemoryEntry> comparator() {
            switch (this) {
                case KEY_DESC:
                    return BY_KEY.reversed();
                case UPDATED_DESC:
                    return Comparator.comparing(MemoryEntry::updatedAt).reversed().thenComparing(BY_KEY);
                case UPDATED_ASC:
                    return Comparator.comparing(MemoryEntry::updatedAt).thenComparing(BY_KEY);
                default:
                    return BY_KEY;
            }
        }
    }

    /** No limit: the largest value {@link #limit()} may take. */
    public static final int UNLIMITED = Integer.MAX_VALUE;

    /** Checks the values and copies the scope set. */
    public Query {
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(order, "order");
        if (Objects.requireNonNull(scopes, "scopes").isEmpty()) {
            throw new InvalidRequestException("A query needs at least one scope.");
        }
        scopes = Set.copyOf(EnumSet.copyOf(scopes));
        if (limit < 1) {
            throw new InvalidRequestException("A query limit must be at least 1, was " + limit + ".");
        }
        if (offset < 0) {
            throw new InvalidRequestException("A query offset must not be negative, was " + offset + ".");
        }
    }

    /** Every entry of the given scopes (all scopes when none are given) whose key matches {@code pattern}. */
    public static Query of(String pattern, Scope... scopes) {
        return builder().pattern(pattern).scopes(scopes).build();
    }

    /** A builder starting from: every key, every scope, no conditions, key order, no limit, offset 0. */
    public static Builder builder() {
        return new Builder();
    }

    /** Whether {@code entry} is selected by pattern, scope and filter (order, limit and offset aside). */
    public boolean matches(MemoryEntry entry) {
        return scopes.contains(entry.scope()) && pattern.matches(entry) && filter.matches(entry);
    }

    /**
     * Applies this query to candidate entries: keeps the matching ones, orders them and cuts the page.
     * A helper for providers that evaluate queries in memory.
     */
    public List<MemoryEntry> apply(Iterable<MemoryEntry> candidates) {
        List<MemoryEntry> selected = new ArrayList<>();
        for (MemoryEntry entry : candidates) {
            if (matches(entry)) {
                selected.add(entry);
            }
        }
        selected.sort(order.comparator());
        if (offset >= selected.size()) {
            return List.of();
        }
        long end = Math.min((long) offset + limit, selected.size());
        return List.copyOf(selected.subList(offset, (int) end));
    }

    /** Builds a {@link Query}; the filter methods come from {@link Filter.Builder}. */
    public static final class Builder extends Filter.Builder<Builder> {
        private KeyPattern pattern = KeyPattern.all();
        private Set<Scope> scopes = EnumSet.allOf(Scope.class);
        private Order order = Order.KEY;
        private int limit = UNLIMITED;
        private int offset;

        private Builder() {
        }

        /** The key pattern in its text form, see {@link KeyPattern#parse}. */
        public Builder pattern(String pattern) {
            this.pattern = KeyPattern.parse(pattern);
            return this;
        }

        /** The key pattern. */
        public Builder pattern(KeyPattern pattern) {
            this.pattern = Objects.requireNonNull(pattern, "pattern");
            return this;
        }

        /** The scopes to look in; none means all. */
        public Builder scopes(Scope... scopes) {
            return scopes(scopes.length == 0 ? Set.of() : EnumSet.copyOf(java.util.Arrays.asList(scopes)));
        }

        /** The scopes to look in; an empty set means all. */
        public Builder scopes(Set<Scope> scopes) {
            this.scopes = scopes.isEmpty() ? EnumSet.allOf(Scope.class) : EnumSet.copyOf(scopes);
            return this;
        }

        /** The order of results. */
        public Builder order(Order order) {
            this.order = Objects.requireNonNull(order, "order");
            return this;
        }

        /** The largest number of results. */
        public Builder limit(int limit) {
            this.limit = limit;
            return this;
        }

        /** How many ordered results to skip. */
        public Builder offset(int offset) {
            this.offset = offset;
            return this;
        }

        /** Builds the query, checking every value. */
        public Query build() {
            return new Query(pattern, scopes, filter(), order, limit, offset);
        }
    }
}
