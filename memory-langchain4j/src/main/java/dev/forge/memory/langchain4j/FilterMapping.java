package dev.forge.memory.langchain4j;

import dev.langchain4j.store.embedding.filter.Filter;
import dev.langchain4j.store.embedding.filter.comparison.IsEqualTo;
import dev.langchain4j.store.embedding.filter.comparison.IsIn;
import dev.langchain4j.store.embedding.filter.logical.And;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * LangChain4j {@link Filter}s as forge-memory metadata conditions, where they mean exactly the same: a forge-memory
 * filter is a conjunction of metadata equalities, so {@link IsEqualTo}, {@link IsIn} with one value and {@link And} of
 * those map; comparisons, {@code IsNotEqualTo}, {@code IsIn} with several values, {@code IsNotIn}, {@code Or},
 * {@code Not} and {@code ContainsString} do not, and are refused rather than approximated by filtering a truncated
 * result after the search.
 */
final class FilterMapping {

    private FilterMapping() {
    }

    /**
     * The metadata equalities {@code filter} stands for, or empty when they contradict each other (the same field
     * equal to two different values: nothing matches).
     *
     * @throws UnsupportedOperationException naming the part of the filter that has no exact forge-memory form
     */
    static Optional<Map<String, Object>> equalities(Filter filter) {
        Map<String, Object> conditions = new LinkedHashMap<>();
        return collect(filter, filter, conditions) ? Optional.of(conditions) : Optional.empty();
    }

    private static boolean collect(Filter part, Filter whole, Map<String, Object> conditions) {
        if (part instanceof And and) {
            boolean left = collect(and.left(), whole, conditions);
            return collect(and.right(), whole, conditions) && left;
        }
        if (part instanceof IsEqualTo equal) {
            return add(equal.key(), equal.comparisonValue(), whole, conditions);
        }
        if (part instanceof IsIn in && in.comparisonValues().size() == 1) {
            return add(in.key(), in.comparisonValues().iterator().next(), whole, conditions);
        }
        throw new UnsupportedOperationException("The filter " + describe(part) + (part == whole ? "" : " (in " + whole + ")")
                + " has no exact form in forge-memory, whose filters are metadata equalities joined by AND: use "
                + "isEqualTo, isIn with one value, and and(), or filter the matches yourself.");
    }

    private static boolean add(String key, Object value, Filter whole, Map<String, Object> conditions) {
        if (key.startsWith(SegmentCodec.RESERVED)) {
            throw new UnsupportedOperationException("The filter " + whole + " names '" + key
                    + "', a field the embedding store keeps for itself.");
        }
        Object stored = SegmentCodec.storedValue(value);
        Object earlier = conditions.putIfAbsent(key, stored);
        return earlier == null || sameNumberOrValue(earlier, stored);
    }

    private static boolean sameNumberOrValue(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return new java.math.BigDecimal(x.toString()).compareTo(new java.math.BigDecimal(y.toString())) == 0;
        }
        return a.equals(b);
    }

    private static String describe(Filter filter) {
        String kind = filter.getClass().getSimpleName();
        return filter instanceof IsIn in ? kind + " with " + ((Collection<?>) in.comparisonValues()).size() + " values (" + filter + ")"
                : kind + " (" + filter + ")";
    }
}
