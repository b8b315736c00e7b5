package dev.forge.memory.mcp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the JSON Schemas of tool arguments: an object schema whose properties each carry a description and, where
 * there is one, the default the tool applies. Unknown arguments are refused ({@code additionalProperties: false}), so
 * a misspelled one is an error instead of silently ignored.
 */
public final class JsonSchemas {

    private final Map<String, Object> properties = new LinkedHashMap<>();
    private final List<String> required = new ArrayList<>();

    private JsonSchemas() {
    }

    /** A new object schema without properties. */
    public static JsonSchemas object() {
        return new JsonSchemas();
    }

    /** A string property the caller must give. */
    public JsonSchemas requiredString(String name, String description) {
        required.add(name);
        return string(name, description);
    }

    /** An optional string property. */
    public JsonSchemas string(String name, String description) {
        return property(name, Map.of("type", "string", "description", description));
    }

    /** An optional string property with a fixed set of values and a default. */
    public JsonSchemas choice(String name, String description, List<String> values, String fallback) {
        return property(name, Map.of("type", "string", "enum", List.copyOf(values), "default", fallback,
                "description", description));
    }

    /** An optional whole number from {@code min} to {@code max}. */
    public JsonSchemas integer(String name, String description, int min, int max, int fallback) {
        return property(name, Map.of("type", "integer", "minimum", min, "maximum", max, "default", fallback,
                "description", description));
    }

    /** An optional number from {@code min} to {@code max}. */
    public JsonSchemas number(String name, String description, double min, double max, double fallback) {
        return property(name, Map.of("type", "number", "minimum", min, "maximum", max, "default", fallback,
                "description", description));
    }

    /** An optional list of strings. */
    public JsonSchemas strings(String name, String description) {
        return property(name, Map.of("type", "array", "items", Map.of("type", "string"), "description", description));
    }

    /** An optional list of values from a fixed set. */
    public JsonSchemas choices(String name, String description, List<String> values) {
        return property(name, Map.of("type", "array", "items", Map.of("type", "string", "enum", List.copyOf(values)),
                "description", description));
    }

    /**
     * A required list of objects, each with exactly the given properties, all required (the shape of the official
     * memory server's arguments).
     *
     * @param item the properties of each object, by name: schemas such as {@link #text} and {@link #texts} give
     */
    public JsonSchemas requiredObjects(String name, String description, Map<String, Map<String, Object>> item) {
        required.add(name);
        Map<String, Object> itemSchema = new LinkedHashMap<>();
        itemSchema.put("type", "object");
        itemSchema.put("properties", new LinkedHashMap<>(item));
        itemSchema.put("required", List.copyOf(item.keySet()));
        itemSchema.put("additionalProperties", false);
        return property(name, Map.of("type", "array", "items", itemSchema, "description", description));
    }

    /** A required list of strings. */
    public JsonSchemas requiredStrings(String name, String description) {
        required.add(name);
        return strings(name, description);
    }

    /** The schema of a string property, for {@link #requiredObjects}. */
    public static Map<String, Object> text(String description) {
        return Map.of("type", "string", "description", description);
    }

    /** The schema of a list-of-strings property, for {@link #requiredObjects}. */
    public static Map<String, Object> texts(String description) {
        return Map.of("type", "array", "items", Map.of("type", "string"), "description", description);
    }

    /** An optional JSON object. */
    public JsonSchemas map(String name, String description) {
        return property(name, Map.of("type", "object", "description", description));
    }

    /** The {@value ToolArguments#CURSOR} argument of a paged tool. */
    public JsonSchemas cursor() {
        return string(ToolArguments.CURSOR, "Where to continue: the nextCursor of the previous page. Leave it out for "
                + "the first page.");
    }

    /** The schema, as the SDK takes it. */
    public Map<String, Object> build() {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", new LinkedHashMap<>(properties));
        if (!required.isEmpty()) {
            schema.put("required", List.copyOf(required));
        }
        schema.put("additionalProperties", false);
        return schema;
    }

    private JsonSchemas property(String name, Map<String, Object> schema) {
        if (properties.putIfAbsent(name, schema) != null) {
            throw new IllegalArgumentException("The property '" + name + "' is defined twice.");
        }
        return this;
    }
}
