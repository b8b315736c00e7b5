package dev.forge.memory.springai.internal;

import dev.forge.memory.InvalidRequestException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.ai.vectorstore.filter.Filter;

/**
 * Maps a Spring AI filter expression onto forge-memory's metadata conditions, which are equalities joined by AND:
 * {@code key == value}, {@code AND} of such, and groups of them. Anything else ({@code OR}, {@code NOT}, {@code !=},
 * ranges, {@code IN}, {@code IS NULL}) has no exact counterpart and is refused with an
 * {@link InvalidRequestException} naming the expression, never approximated.
 */
public final class FilterMapping {

    private FilterMapping() {
    }

    /**
     * The metadata fields and values every matching document must have, or empty when the expression can match
     * nothing (the same key equal to two different values).
     *
     * @throws InvalidRequestException for an expression that is not a conjunction of equalities
     */
    public static Optional<Map<String, Object>> equalities(Filter.Expression expression) {
        Map<String, Object> wanted = new LinkedHashMap<>();
        return collect(expression, expression, wanted) ? Optional.of(wanted) : Optional.empty();
    }

    private static boolean collect(Filter.Operand operand, Filter.Expression whole, Map<String, Object> wanted) {
        if (operand instanceof Filter.Group group) {
            return collect(group.content(), whole, wanted);
        }
        if (!(operand instanceof Filter.Expression expression)) {
            throw refused(whole, "'" + operand + "' is not a condition");
        }
        switch (expression.type()) {
            case AND -> {
                boolean left = collect(expression.left(), whole, wanted);
                boolean right = collect(expression.right(), whole, wanted);
                return left && right;
            }
            case EQ -> {
                if (!(expression.left() instanceof Filter.Key key) || !(expression.right() instanceof Filter.Value value)
                        || value.value() == null) {
                    throw refused(whole, "an equality must compare a metadata key with a value");
                }
                String field = unquote(key.key());
                Object earlier = wanted.putIfAbsent(field, value.value());
                return earlier == null || numbersOrEqual(earlier, value.value());
            }
            default -> throw refused(whole, "'" + expression.type() + "' has no exact forge-memory counterpart");
        }
    }

    private static boolean numbersOrEqual(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return new java.math.BigDecimal(x.toString()).compareTo(new java.math.BigDecimal(y.toString())) == 0;
        }
        return a.equals(b);
    }

    /** Keys written in quotes in the text form ({@code "my key" == 1}) come with their quotes. */
    private static String unquote(String key) {
        if (key.length() >= 2 && (key.startsWith("\"") && key.endsWith("\"") || key.startsWith("'") && key.endsWith("'"))) {
            return key.substring(1, key.length() - 1);
        }
        return key;
    }

    private static InvalidRequestException refused(Filter.Expression whole, String why) {
        return new InvalidRequestException("The filter expression " + whole + " cannot be mapped onto forge-memory's "
                + "metadata filter: " + why + ". Use equalities joined by AND (country == 'BG' && year == 2020).");
    }
}
