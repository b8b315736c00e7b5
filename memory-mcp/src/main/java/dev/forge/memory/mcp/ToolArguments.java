package dev.forge.memory.mcp;

import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.Scope;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The arguments of one tool call, read by type. A missing required argument, a value of the wrong type or out of
 * range is an {@link InvalidRequestException} whose message names the argument and says what to give instead, so the
 * caller gets it as a tool error it can act on.
 */
public final class ToolArguments {

    /** The argument that continues a listing where the previous page ended. */
    public static final String CURSOR = "cursor";

    private final String tool;
    private final Map<String, Object> values;

    /**
     * Arguments as the client sent them.
     *
     * @param tool   the tool's name, for messages
     * @param values the arguments; null is none
     */
    public ToolArguments(String tool, Map<String, Object> values) {
        this.tool = tool;
        this.values = values == null ? Map.of() : new LinkedHashMap<>(values);
    }

    /** A required, non-empty string. */
    public String string(String name) {
        return optionalString(name).orElseThrow(() -> invalid("The '" + name + "' argument is required."));
    }

    /** A string, if given; an empty one counts as given. */
    public Optional<String> optionalString(String name) {
        Object value = values.get(name);
        if (value == null) {
            return Optional.empty();
        }
        if (!(value instanceof String text)) {
            throw invalid("The '" + name + "' argument must be a string; got " + describe(value) + ".");
        }
        return Optional.of(text);
    }

    /** A whole number from {@code min} to {@code max}, {@code fallback} when absent. */
    public int integer(String name, int fallback, int min, int max) {
        Object value = values.get(name);
        if (value == null) {
            return fallback;
        }
        if (!(value instanceof Number number) || number.doubleValue() != Math.rint(number.doubleValue())) {
            throw invalid("The '" + name + "' argument must be a whole number; got " + describe(value) + ".");
        }
        double given = number.doubleValue();
        if (given < min || given > max) {
            throw invalid("The '" + name + "' argument must be from " + min + " to " + max + "; got " + value + ".");
        }
        return (int) given;
    }

    /** A number from {@code min} to {@code max}, {@code fallback} when absent. */
    public double number(String name, double fallback, double min, double max) {
        Object value = values.get(name);
        if (value == null) {
            return fallback;
        }
        if (!(value instanceof Number number)) {
            throw invalid("The '" + name + "' argument must be a number; got " + describe(value) + ".");
        }
        double given = number.doubleValue();
        if (!(given >= min && given <= max)) {
            throw invalid("The '" + name + "' argument must be from " + min + " to " + max + "; got " + value + ".");
        }
        return given;
    }

    /** A list of strings; empty when absent. */
    public List<String> strings(String name) {
        Object value = values.get(name);
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> list)) {
            throw invalid("The '" + name + "' argument must be a list of strings; got " + describe(value) + ".");
        }
        List<String> strings = new ArrayList<>(list.size());
        for (Object item : list) {
            if (!(item instanceof String text)) {
                throw invalid("The '" + name + "' argument must be a list of strings; it holds " + describe(item) + ".");
            }
            strings.add(text);
        }
        return strings;
    }

    /**
     * A required list of JSON objects, each read as {@code type}: a record whose components are the object's fields,
     * all required, no others.
     */
    public <T> List<T> records(String name, Class<T> type) {
        Object value = values.get(name);
        if (!(value instanceof List<?> list)) {
            throw invalid("The '" + name + "' argument must be a list of objects; got " + describe(value) + ".");
        }
        List<T> records = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            Object item = list.get(i);
            if (!(item instanceof Map<?, ?> map) || !map.keySet().equals(RecordFields.names(type))
                    || map.values().stream().anyMatch(java.util.Objects::isNull)) {
                throw invalid("Item " + (i + 1) + " of '" + name + "' must be an object with exactly the fields "
                        + String.join(", ", RecordFields.names(type)) + "; got " + describe(item) + ".");
            }
            try {
                records.add(RecordFields.read(map, type));
            } catch (IllegalArgumentException e) {
                throw invalid("Item " + (i + 1) + " of '" + name + "': " + e.getMessage());
            }
        }
        return records;
    }

    /** A JSON object; empty when absent. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> object(String name) {
        Object value = values.get(name);
        if (value == null) {
            return Map.of();
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw invalid("The '" + name + "' argument must be a JSON object; got " + describe(value) + ".");
        }
        return (Map<String, Object>) map;
    }

    /** A scope name, {@code fallback} when absent. */
    public Scope scope(String name, Scope fallback) {
        return optionalString(name).map(ToolArguments::parseScope).orElse(fallback);
    }

    /** A list of scope names, {@code fallback} when absent or empty. */
    public Set<Scope> scopes(String name, Set<Scope> fallback) {
        List<String> names = strings(name);
        if (names.isEmpty()) {
            return fallback;
        }
        Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        names.forEach(n -> scopes.add(parseScope(n)));
        return scopes;
    }

    /** One of the names of an enum, ignoring case; {@code fallback} when absent. */
    public <E extends Enum<E>> E choice(String name, Class<E> type, E fallback) {
        Optional<String> given = optionalString(name);
        if (given.isEmpty()) {
            return fallback;
        }
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(given.get().trim())) {
                return constant;
            }
        }
        throw invalid("The '" + name + "' argument must be one of " + String.join(", ", names(type)) + "; got '"
                + given.get() + "'.");
    }

    /** The names {@link #choice} takes for an enum's constants: lower case. */
    public static <E extends Enum<E>> List<String> names(Class<E> type) {
        List<String> names = new ArrayList<>();
        for (E constant : type.getEnumConstants()) {
            names.add(constant.name().toLowerCase(java.util.Locale.ROOT));
        }
        return names;
    }

    /** Where a page starts: the {@value #CURSOR} a previous page returned, 0 when absent. */
    public int cursor() {
        Optional<String> cursor = optionalString(CURSOR);
        if (cursor.isEmpty()) {
            return 0;
        }
        try {
            int offset = Integer.parseInt(cursor.get());
            if (offset >= 0) {
                return offset;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid("The cursor '" + cursor.get() + "' is not one this tool returned: pass a previous result's "
                + "nextCursor, or leave it out to start from the first page.");
    }

    private static Scope parseScope(String name) {
        return Scope.parse(name);
    }

    private InvalidRequestException invalid(String message) {
        return new InvalidRequestException(tool + ": " + message);
    }

    private static String describe(Object value) {
        if (value instanceof String) {
            return "a string";
        }
        if (value instanceof Number) {
            return "the number " + value;
        }
        if (value instanceof Boolean) {
            return "a boolean";
        }
        if (value instanceof List) {
            return "a list";
        }
        if (value instanceof Map) {
            return "an object";
        }
        return "null";
    }
}
