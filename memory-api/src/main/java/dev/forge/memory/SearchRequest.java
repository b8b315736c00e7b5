package dev.forge.memory;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * A ranked text search.
 *
 * <p>Results are ordered by score, highest first, ties broken by key then scope. At most {@link #limit()}
 * hits are returned, each with a score of at least {@link #threshold()}.
 *
 * @param text      what to look for; not blank
 * @param scopes    the scopes to search (never empty)
 * @param mode      keyword, semantic or hybrid
 * @param limit     the largest number of hits, 1 to {@link #MAX_LIMIT}
 * @param threshold the lowest score returned, in {@code [0, 1]}
 * @param filter    conditions every hit must meet
 */
public record SearchRequest(String text, Set<Scope> scopes, SearchMode mode, int limit, double threshold, Filter filter) {

    /** The default number of hits. */
    public static final int DEFAULT_LIMIT = 10;
    /** The largest number of hits one request may ask for. */
    public static final int MAX_LIMIT = 10_000;

    /** Checks the values. */
    public SearchRequest {
        Objects.requireNonNull(text, "text");
        if (text.isBlank()) {
            throw new InvalidRequestException("Search text must not be blank.");
        }
        if (Objects.requireNonNull(scopes, "scopes").isEmpty()) {
            throw new InvalidRequestException("A search needs at least one scope.");
        }
        scopes = Set.copyOf(EnumSet.copyOf(scopes));
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(filter, "filter");
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new InvalidRequestException("A search limit must be between 1 and " + MAX_LIMIT + ", was " + limit + ".");
        }
        if (!(threshold >= 0.0 && threshold <= 1.0)) {
            throw new InvalidRequestException("A search threshold must be between 0 and 1, was " + threshold + ".");
        }
    }

    /** A keyword search of every scope for {@code text}, with the default limit. */
    public static SearchRequest keyword(String text) {
        return builder(text).build();
    }

    /** A builder: every scope, keyword mode, default limit, threshold 0, no conditions. */
    public static Builder builder(String text) {
        return new Builder(text);
    }

    /** Builds a {@link SearchRequest}; the filter methods come from {@link Filter.Builder}. */
    public static final class Builder extends Filter.Builder<Builder> {
        private final String text;
        private Set<Scope> scopes = EnumSet.allOf(Scope.class);
        private SearchMode mode = SearchMode.KEYWORD;
        private int limit = DEFAULT_LIMIT;
        private double threshold;

        private Builder(String text) {
            this.text = text;
        }

        /** The scopes to search; none means all. */
        public Builder scopes(Scope... scopes) {
            return scopes(scopes.length == 0 ? Set.of() : EnumSet.copyOf(java.util.Arrays.asList(scopes)));
        }

        /** The scopes to search; an empty set means all. */
        public Builder scopes(Set<Scope> scopes) {
            this.scopes = scopes.isEmpty() ? EnumSet.allOf(Scope.class) : EnumSet.copyOf(scopes);
            return this;
        }

        /** The search mode. */
        public Builder mode(SearchMode mode) {
            this.mode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /** The largest number of hits. */
        public Builder limit(int limit) {
            this.limit = limit;
            return this;
        }

        /** The lowest score returned. */
        public Builder threshold(double threshold) {
            this.threshold = threshold;
            return this;
        }

        /** Builds the request, checking every value. */
        public SearchRequest build() {
            return new SearchRequest(text, scopes, mode, limit, threshold, filter());
        }
    }
}
