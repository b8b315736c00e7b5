package dev.forge.memory.springai.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.InvalidEntryException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON values that read back as the same Java values: a map of message metadata is written as JSON plus, for each
 * number Jackson would read back as another class (a {@code Long} that fits an {@code int}, a {@code Float}), its
 * class under its JSON pointer, so that {@code equals} holds after the round trip. Anything that is not a JSON
 * value (string, boolean, number, list, string-keyed map, null) is refused rather than stored as something else.
 */
final class ExactJson {

    private static final String LONG = "long";
    private static final String SHORT = "short";
    private static final String BYTE = "byte";
    private static final String FLOAT = "float";
    private static final String BIG_INTEGER = "big_integer";
    private static final String BIG_DECIMAL = "big_decimal";

    private ExactJson() {
    }

    /**
     * Writes {@code value} into {@code out}: the JSON under {@code field}, and the classes of the numbers that need
     * them under {@code field + "_types"} (left out when there are none).
     *
     * @param where what the value belongs to, for messages
     * @throws InvalidEntryException naming the field that holds something other than a JSON value
     */
    static void write(ObjectMapper json, ObjectNode out, String field, Map<String, Object> value, String where) {
        Map<String, String> types = new LinkedHashMap<>();
        out.set(field, json.valueToTree(copy(value, "", types, where)));
        if (!types.isEmpty()) {
            out.set(field + "_types", json.valueToTree(types));
        }
    }

    /** Reads what {@link #write} wrote under {@code field}; an absent field is an empty map. */
    static Map<String, Object> read(ObjectMapper json, JsonNode in, String field) {
        JsonNode node = in.get(field);
        if (node == null || node.isNull()) {
            return new LinkedHashMap<>();
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> value = json.convertValue(node, LinkedHashMap.class);
        JsonNode types = in.get(field + "_types");
        if (types != null) {
            types.fields().forEachRemaining(t -> restore(value, t.getKey(), t.getValue().asText()));
        }
        return value;
    }

    /** A copy of {@code value} Jackson writes as JSON (a {@code BigDecimal} as its text, to keep its scale). */
    private static Object copy(Object value, String pointer, Map<String, String> types, String where) {
        if (value == null || value instanceof String || value instanceof Boolean || value instanceof Integer) {
            return value;
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (!Double.isFinite(d)) {
                throw invalid(where, pointer, "is " + d + ", which JSON cannot hold");
            }
            if (value instanceof Float) {
                types.put(pointer, FLOAT);
            }
            return value;
        }
        if (value instanceof Long l) {
            if (l == l.intValue()) {
                types.put(pointer, LONG);
            }
            return value;
        }
        if (value instanceof Short || value instanceof Byte) {
            types.put(pointer, value instanceof Short ? SHORT : BYTE);
            return value;
        }
        if (value instanceof BigInteger b) {
            if (b.bitLength() <= 63) {
                types.put(pointer, BIG_INTEGER);
            }
            return value;
        }
        if (value instanceof BigDecimal d) {
            types.put(pointer, BIG_DECIMAL);
            return d.toString();
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!(e.getKey() instanceof String name)) {
                    throw invalid(where, pointer, "has the non-string key " + e.getKey());
                }
                copy.put(name, copy(e.getValue(), pointer + "/" + name.replace("~", "~0").replace("/", "~1"), types, where));
            }
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) {
                copy.add(copy(list.get(i), pointer + "/" + i, types, where));
            }
            return copy;
        }
        throw invalid(where, pointer, "is a " + value.getClass().getName()
                + "; message metadata must be JSON values (strings, booleans, numbers, lists, maps): store it as one of them");
    }

    @SuppressWarnings("unchecked")
    private static void restore(Map<String, Object> root, String pointer, String type) {
        String[] parts = pointer.substring(1).split("/", -1);
        Object container = root;
        for (int i = 0; i < parts.length - 1; i++) {
            container = child(container, unescape(parts[i]));
        }
        String last = unescape(parts[parts.length - 1]);
        if (container instanceof Map<?, ?> map) {
            ((Map<String, Object>) map).put(last, convert(map.get(last), type));
        } else if (container instanceof List<?> list) {
            int index = Integer.parseInt(last);
            ((List<Object>) list).set(index, convert(list.get(index), type));
        }
    }

    private static Object child(Object container, String part) {
        return container instanceof Map<?, ?> map ? map.get(part) : ((List<?>) container).get(Integer.parseInt(part));
    }

    private static String unescape(String part) {
        return part.replace("~1", "/").replace("~0", "~");
    }

    private static Object convert(Object number, String type) {
        if (BIG_DECIMAL.equals(type)) {
            return new BigDecimal(number.toString());
        }
        Number n = (Number) number;
        return switch (type) {
            case LONG -> n.longValue();
            case SHORT -> n.shortValue();
            case BYTE -> n.byteValue();
            case FLOAT -> n.floatValue();
            case BIG_INTEGER -> new BigInteger(n.toString());
            default -> number;
        };
    }

    private static InvalidEntryException invalid(String where, String pointer, String problem) {
        String field = pointer.isEmpty() ? "the metadata" : "metadata field '" + pointer.substring(1) + "'";
        return new InvalidEntryException("The " + field + " of " + where + " " + problem + ".");
    }
}
