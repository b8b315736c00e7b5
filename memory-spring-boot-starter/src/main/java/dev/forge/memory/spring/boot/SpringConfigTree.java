package dev.forge.memory.spring.boot;

import dev.forge.memory.ConfigurationException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;

/**
 * The {@code forge.memory.config} block of the Spring environment as the nested maps and lists a YAML file gives,
 * keys as written ({@code max_entries} stays {@code max_entries}: Spring's relaxed binding would make it
 * {@code maxentries}), values as the property sources hold them after placeholder resolution. A property set in
 * several sources takes the value of the first, as everywhere in Spring.
 */
final class SpringConfigTree {

    private SpringConfigTree() {
    }

    /**
     * Where {@code property} is set: the name of the first enumerable property source that holds it (not Spring's
     * view of all of them), else {@code fallback}.
     */
    static String origin(ConfigurableEnvironment environment, String property, String fallback) {
        for (PropertySource<?> source : environment.getPropertySources()) {
            if (source instanceof EnumerablePropertySource<?> && source.containsProperty(property)) {
                return source.getName();
            }
        }
        return fallback;
    }

    /**
     * The settings under {@code prefix} (such as {@code forge.memory.config}).
     *
     * @throws ConfigurationException for one setting given both as a value and as a block
     */
    static Map<String, Object> read(ConfigurableEnvironment environment, String prefix) {
        Map<String, Object> tree = new LinkedHashMap<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (PropertySource<?> source : environment.getPropertySources()) {
            if (!(source instanceof EnumerablePropertySource<?> enumerable)) {
                continue;
            }
            for (String name : enumerable.getPropertyNames()) {
                if (!name.startsWith(prefix + ".") || !seen.add(name)) {
                    continue;
                }
                Object value = environment.getProperty(name, Object.class);
                if (value != null) {
                    put(tree, path(name.substring(prefix.length() + 1)), value, name);
                }
            }
        }
        return lists(tree);
    }

    /** The steps of a property path: names, and list indexes as integers ({@code a.b[0]} is a, b, 0). */
    private static List<Object> path(String name) {
        List<Object> steps = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '.') {
                if (current.length() > 0) {
                    steps.add(current.toString());
                    current.setLength(0);
                }
            } else if (c == '[') {
                if (current.length() > 0) {
                    steps.add(current.toString());
                    current.setLength(0);
                }
                int end = name.indexOf(']', i);
                String inside = name.substring(i + 1, end < 0 ? name.length() : end);
                steps.add(inside.matches("\\d+") ? (Object) Integer.valueOf(inside) : inside);
                i = end < 0 ? name.length() : end;
            } else {
                current.append(c);
            }
        }
        if (current.length() > 0) {
            steps.add(current.toString());
        }
        return steps;
    }

    @SuppressWarnings("unchecked")
    private static void put(Map<String, Object> tree, List<Object> path, Object value, String property) {
        Map<Object, Object> node = (Map<Object, Object>) (Map<?, ?>) tree;
        for (int i = 0; i < path.size() - 1; i++) {
            Object child = node.computeIfAbsent(path.get(i), k -> new LinkedHashMap<>());
            if (!(child instanceof Map)) {
                throw new ConfigurationException("'" + property + "' is given beside a value of its parent; give one of them.",
                        property, property, null);
            }
            node = (Map<Object, Object>) child;
        }
        node.putIfAbsent(path.get(path.size() - 1), value);
    }

    /** Maps whose keys are all indexes become lists, in index order. */
    @SuppressWarnings("unchecked")
    private static <T> T lists(T value) {
        if (!(value instanceof Map<?, ?> map)) {
            return value;
        }
        boolean indexes = !map.isEmpty() && map.keySet().stream().allMatch(Integer.class::isInstance);
        if (indexes) {
            List<Object> list = new ArrayList<>();
            new TreeMap<>((Map<Integer, Object>) map).values().forEach(v -> list.add(lists(v)));
            return (T) list;
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((k, v) -> copy.put(String.valueOf(k), lists(v)));
        return (T) copy;
    }
}
