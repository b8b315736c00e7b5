package dev.forge.memory.mcp;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a JSON object of strings and lists of strings into a record whose components are its fields: the argument
 * items of the official memory server's tools ({@code {"name", "entityType", "observations"}}...), checked by name and
 * type with a message the model can act on.
 */
final class RecordFields {

    private RecordFields() {
    }

    /** The record's component names, in order. */
    static Set<String> names(Class<?> type) {
        Set<String> names = new LinkedHashSet<>();
        for (RecordComponent component : type.getRecordComponents()) {
            names.add(component.getName());
        }
        return names;
    }

    /**
     * The record of {@code fields}, whose keys are the component names.
     *
     * @throws IllegalArgumentException naming the field, if one is not a string or a list of strings as declared, or
     *                                  the record refuses the values
     */
    static <T> T read(Map<?, ?> fields, Class<T> type) {
        RecordComponent[] components = type.getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            String name = components[i].getName();
            Object value = fields.get(name);
            types[i] = components[i].getType();
            if (types[i] == String.class) {
                if (!(value instanceof String)) {
                    throw new IllegalArgumentException("the field '" + name + "' must be a string.");
                }
            } else if (types[i] == List.class) {
                if (!(value instanceof List<?> list) || list.stream().anyMatch(v -> !(v instanceof String))) {
                    throw new IllegalArgumentException("the field '" + name + "' must be a list of strings.");
                }
                value = new ArrayList<>(list);
            } else {
                throw new IllegalStateException(type + " has a component of type " + types[i] + ", not a string or a list.");
            }
            values[i] = value;
        }
        try {
            Constructor<T> constructor = type.getDeclaredConstructor(types);
            return constructor.newInstance(values);
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException(String.valueOf(e.getCause().getMessage()), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot build " + type + ".", e);
        }
    }
}
