package dev.forge.memory;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Conditions shared by {@link Query} and {@link SearchRequest}. All given conditions must hold.
 *
 * <p>Metadata conditions compare JSON values: numbers by value ({@code 2} equals {@code 2.0}), strings,
 * booleans, lists and maps exactly ({@code 2} never equals {@code "2"} or {@code true}); a map condition matches
 * only an equal map, not a part of it; a field name with a dot is one top-level field, not a path.
 *
 * @param tags          tags an entry must all carry
 * @param metadata      metadata fields that must be present with equal values
 * @param updatedAfter  only entries updated strictly after this instant (kept to milliseconds, and to within a
 *                      millisecond of the times an entry can have)
 * @param updatedBefore only entries updated strictly before this instant (likewise)
 */
public record Filter(List<String> tags, Map<String, Object> metadata, Optional<Instant> updatedAfter, Optional<Instant> updatedBefore) {

    /** No conditions. */
    public static final Filter NONE = new Filter(List.of(), Map.of(), Optional.empty(), Optional.empty());

    /**
     * Copies and normalises (metadata values as {@link EntryRules#normalizeMetadata}, instants to milliseconds).
     *
     * @throws InvalidRequestException if a metadata condition is not a JSON value
     */
    public Filter {
        tags = List.copyOf(new LinkedHashSet<>(Objects.requireNonNull(tags, "tags")));
        try {
            metadata = EntryRules.normalizeMetadata(Objects.requireNonNull(metadata, "metadata"), "(filter)");
        } catch (InvalidEntryException e) {
            throw new InvalidRequestException("A metadata filter cannot be matched: " + e.getMessage(), e);
        }
        updatedAfter = Objects.requireNonNull(updatedAfter, "updatedAfter").map(Filter::withinStoredTimes);
        updatedBefore = Objects.requireNonNull(updatedBefore, "updatedBefore").map(Filter::withinStoredTimes);
    }

    /**
     * {@code time} in milliseconds, brought to within a millisecond of the times an entry can have
     * ({@link EntryRules#EARLIEST} to {@link EntryRules#LATEST}): the filter means the same, and every backend can
     * hold the bound (an {@link Instant#MIN} would overflow epoch milliseconds).
     */
    private static Instant withinStoredTimes(Instant time) {
        Instant justBefore = EntryRules.EARLIEST.minusMillis(1);
        Instant justAfter = EntryRules.LATEST.plusMillis(1);
        if (time.isBefore(justBefore)) {
            return justBefore;
        }
        return time.isAfter(justAfter) ? justAfter : time.truncatedTo(ChronoUnit.MILLIS);
    }

    /** Whether {@code entry} meets every condition. */
    public boolean matches(MemoryEntry entry) {
        if (!entry.tags().containsAll(tags)) {
            return false;
        }
        for (Map.Entry<String, Object> wanted : metadata.entrySet()) {
            Object actual = entry.metadata().get(wanted.getKey());
            if (actual == null || !jsonEquals(actual, wanted.getValue())) {
                return false;
            }
        }
        if (updatedAfter.isPresent() && !entry.updatedAt().isAfter(updatedAfter.get())) {
            return false;
        }
        return updatedBefore.isEmpty() || entry.updatedAt().isBefore(updatedBefore.get());
    }

    /** Whether there are no conditions at all. */
    public boolean isEmpty() {
        return tags.isEmpty() && metadata.isEmpty() && updatedAfter.isEmpty() && updatedBefore.isEmpty();
    }

    /** Equality of normalised JSON values, numbers compared by value. */
    static boolean jsonEquals(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return toDecimal(x).compareTo(toDecimal(y)) == 0;
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            Iterator<?> i = x.iterator();
            Iterator<?> j = y.iterator();
            while (i.hasNext()) {
                if (!jsonEquals(i.next(), j.next())) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            if (!x.keySet().equals(y.keySet())) {
                return false;
            }
            for (Map.Entry<?, ?> field : x.entrySet()) {
                if (!jsonEquals(field.getValue(), y.get(field.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    private static BigDecimal toDecimal(Number n) {
        return n instanceof Double || n instanceof Float ? BigDecimal.valueOf(n.doubleValue()) : new BigDecimal(n.toString());
    }

    /**
     * The filter part of the {@link Query} and {@link SearchRequest} builders.
     *
     * @param <B> the concrete builder, returned by every method for chaining
     */
    public abstract static class Builder<B extends Builder<B>> {
        private final List<String> tags = new ArrayList<>();
        private final Map<String, Object> metadata = new LinkedHashMap<>();
        private Instant updatedAfter;
        private Instant updatedBefore;

        /** For the builders of this package. */
        Builder() {
        }

        @SuppressWarnings("unchecked")
        private B self() {
            return (B) this;
        }

        /** Adds a tag every result must carry. */
        public B tag(String tag) {
            tags.add(Objects.requireNonNull(tag, "tag"));
            return self();
        }

        /** Adds tags every result must carry. */
        public B tags(List<String> tags) {
            tags.forEach(this::tag);
            return self();
        }

        /** Adds a metadata field every result must have, with an equal value. */
        public B metadata(String key, Object value) {
            metadata.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return self();
        }

        /** Only entries updated strictly after {@code instant}. */
        public B updatedAfter(Instant instant) {
            this.updatedAfter = Objects.requireNonNull(instant, "instant");
            return self();
        }

        /** Only entries updated strictly before {@code instant}. */
        public B updatedBefore(Instant instant) {
            this.updatedBefore = Objects.requireNonNull(instant, "instant");
            return self();
        }

        /** The filter built so far. */
        Filter filter() {
            return new Filter(tags, metadata, Optional.ofNullable(updatedAfter), Optional.ofNullable(updatedBefore));
        }
    }
}
