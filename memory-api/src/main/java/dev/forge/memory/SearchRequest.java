package dev.forge.memory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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

    /** Builds a {@link SearchRequest}. */
    public static final class Builder {
        private final String text;
        private Set<Scope> scopes = EnumSet.allOf(Scope.class);
        private SearchMode mode = SearchMode.KEYWORD;
        private int limit = DEFAULT_LIMIT;
        private double threshold;
        private final List<String> tags = new ArrayList<>();
        private final Map<String, Object> metadata = new LinkedHashMap<>();
        private Instant updatedAfter;
        private Instant updatedBefore;

        private Builder(String text) {
            this.text = text;
        }

        /** The scopes to search; none means all. */
        public Builder scopes(Scope... scopes) {
            this.scopes = scopes.length == 0 ? EnumSet.allOf(Scope.class) : EnumSet.copyOf(List.of(scopes));
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

        /** Adds a tag every hit must carry. */
        public Builder tag(String tag) {
            tags.add(Objects.requireNonNull(tag, "tag"));
            return this;
        }

        /** Adds a metadata entry every hit must have, with an equal value. */
        public Builder metadata(String key, Object value) {
            metadata.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /** Only entries updated strictly after {@code instant}. */
        public Builder updatedAfter(Instant instant) {
            this.updatedAfter = Objects.requireNonNull(instant, "instant");
            return this;
        }

        /** Only entries updated strictly before {@code instant}. */
        public Builder updatedBefore(Instant instant) {
            this.updatedBefore = Objects.requireNonNull(instant, "instant");
            return this;
        }

        /** Builds the request, checking every value. */
        public SearchRequest build() {
            Filter filter = new Filter(tags, metadata, Optional.ofNullable(updatedAfter), Optional.ofNullable(updatedBefore));
            return new SearchRequest(text, scopes, mode, limit, threshold, filter);
        }
    }
}
