package dev.forge.memory.spi;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.MemoryException;
import java.io.IOException;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The configuration block of one provider, as read from YAML (or built in code), with where it came from.
 *
 * <p>Providers bind it to their own immutable record with {@link #bind}: field names are written in
 * {@code snake_case}, unknown or misspelled keys are rejected with the list of known keys and a suggestion,
 * and a value of the wrong type is rejected with its field; enum values match ignoring case. Missing keys bind
 * to {@code null}, which the record's compact constructor replaces with its default: so declare components with
 * boxed types ({@code Integer}, {@code Boolean}), never primitives.
 */
public final class ProviderConfig {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .enable(com.fasterxml.jackson.databind.MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
            .build();

    private static final java.util.regex.Pattern SECRET = java.util.regex.Pattern.compile(
            "(?i).*(password|passwd|pwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credential|auth).*");

    private static final ProviderConfig EMPTY = new ProviderConfig(Map.of(), "(defaults)", "config");

    private final Map<String, Object> values;
    private final String source;
    private final String path;
    private final java.util.Set<String> secretPaths;

    private ProviderConfig(Map<String, Object> values, String source, String path) {
        this(values, source, path, java.util.Set.of());
    }

    private ProviderConfig(Map<String, Object> values, String source, String path, java.util.Set<String> secretPaths) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        this.source = Objects.requireNonNull(source, "source");
        this.path = Objects.requireNonNull(path, "path");
        this.secretPaths = java.util.Set.copyOf(secretPaths);
    }

    /**
     * These settings, with the values at {@code paths} (dotted, from the source's top such as
     * {@code memory.config.url}) kept out of messages whatever their names: values that came from secret-looking
     * variables such as {@code ${DB_PASSWORD}}.
     */
    public ProviderConfig withSecretPaths(java.util.Set<String> paths) {
        return new ProviderConfig(values, source, path, paths);
    }

    /**
     * The dotted paths (from the source's top) of the values that came from secret-looking variables, as given to
     * {@link #withSecretPaths}; a block made from this one's values (a router's child) passes them on with it.
     */
    public java.util.Set<String> secretPaths() {
        return secretPaths;
    }

    /**
     * Whether the setting {@code key} of this block, or a value inside it, is a secret: by its name
     * ({@link #isSecretKey}) or because its value came from a secret-looking variable. Such a value must not appear
     * in messages, logs or anything stored.
     */
    public boolean isSecret(String key) {
        return secret(path + "." + key);
    }

    /**
     * The texts of this block that are secrets, at any depth: the string values of settings that are secret by their
     * names or by where they came from. For masking whatever a component says or records that may hold one of them.
     * Values of fewer than {@value #SHORTEST_MASKED} characters are left out: masking them would garble every
     * message, and they would not be secret anyway.
     */
    public java.util.Set<String> secretValues() {
        java.util.Set<String> found = new java.util.TreeSet<>();
        collectSecrets(values, path, false, found);
        return java.util.Set.copyOf(found);
    }

    /** The shortest secret value {@link #secretValues()} lists. */
    public static final int SHORTEST_MASKED = 3;

    private void collectSecrets(Object value, String field, boolean inSecret, java.util.Set<String> found) {
        // at or inside a secret, not merely holding one: the other settings of a block with a secret stay readable
        boolean secret = inSecret || isSecretKey(lastName(field)) || secretPaths.contains(field);
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> collectSecrets(v, field + "." + k, secret, found));
        } else if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                collectSecrets(list.get(i), field + "[" + i + "]", secret, found);
            }
        } else if (secret && value instanceof String text && text.strip().length() >= SHORTEST_MASKED) {
            found.add(text);
            if (!text.strip().equals(text)) {
                found.add(text.strip()); // settings are often trimmed before use
            }
        }
    }

    private static String lastName(String field) {
        return field.substring(field.lastIndexOf('.') + 1);
    }

    /** Whether the value at {@code field}, or one inside it, is a secret by its name or by where it came from. */
    private boolean secret(String field) {
        return isSecretKey(field) || secretPaths.stream().anyMatch(p -> p.equals(field) || p.startsWith(field + ".")
                || p.startsWith(field + "[") || field.startsWith(p + ".") || field.startsWith(p + "["));
    }

    /** No settings: every field takes its default. */
    public static ProviderConfig empty() {
        return EMPTY;
    }

    /**
     * A config block.
     *
     * @param values the settings, as YAML would give them (strings, numbers, booleans, lists, maps)
     * @param source where they came from, for messages (a file name, "command line")
     * @param path   the dotted path of this block in its source, for messages ({@code memory.config})
     */
    public static ProviderConfig of(Map<String, ?> values, String source, String path) {
        return new ProviderConfig(new LinkedHashMap<>(values), source, path);
    }

    /** Settings built in code. */
    public static ProviderConfig of(Map<String, ?> values) {
        return of(values, "(code)", "config");
    }

    /** The raw settings. */
    public Map<String, Object> values() {
        return values;
    }

    /** Where the settings came from. */
    public String source() {
        return source;
    }

    /** The dotted path of this block in its source. */
    public String path() {
        return path;
    }

    /**
     * Whether a setting's (or variable's) name marks its value as a secret, never to be shown in output or error
     * messages: names containing password, pwd, passphrase, secret, token, api_key, access_key, private_key,
     * credential or auth, ignoring case.
     */
    public static boolean isSecretKey(String name) {
        return name != null && SECRET.matcher(name).matches();
    }

    /** The raw value of one setting. */
    public Optional<Object> get(String key) {
        return Optional.ofNullable(values.get(key));
    }

    /**
     * A nested block, for routers whose config holds the configs of other providers.
     *
     * @throws ConfigurationException if the key holds something other than a map
     */
    public Optional<ProviderConfig> child(String key) {
        Object value = values.get(key);
        if (value == null) {
            return Optional.empty();
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw new ConfigurationException(source + ": '" + path + "." + key + "' must be a map of settings.", source,
                    path + "." + key, null);
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((k, v) -> copy.put(String.valueOf(k), v));
        return Optional.of(new ProviderConfig(copy, source, path + "." + key, secretPaths));
    }

    /** These settings with {@code key} removed, for routers that read one key themselves and pass on the rest. */
    public ProviderConfig without(String key) {
        Map<String, Object> copy = new LinkedHashMap<>(values);
        copy.remove(key);
        return new ProviderConfig(copy, source, path, secretPaths);
    }

    /**
     * Binds the settings to {@code type}, usually a record whose compact constructor fills in defaults.
     *
     * @throws ConfigurationException for an unknown key (with the known keys and a did-you-mean), a value of
     *                                the wrong type, or a value the record rejects
     */
    public <T> T bind(Class<T> type) {
        try {
            JsonNode tree = MAPPER.valueToTree(values);
            return MAPPER.readerFor(type).readValue(tree);
        } catch (UnrecognizedPropertyException e) {
            Collection<Object> known = e.getKnownPropertyIds() == null ? List.of() : e.getKnownPropertyIds();
            List<String> knownNames = known.stream().map(String::valueOf).collect(Collectors.toCollection(TreeSet::new))
                    .stream().toList();
            String field = fieldPath(e);
            String suggestion = Suggestions.closest(e.getPropertyName(), knownNames)
                    .map(s -> " Did you mean '" + s + "'?").orElse("");
            throw new ConfigurationException(source + ": unknown key '" + field + "'." + suggestion
                    + (knownNames.isEmpty() ? " This provider takes no settings." : " Known keys: " + String.join(", ", knownNames) + "."), source, field, e);
        } catch (ValueInstantiationException e) {
            Throwable cause = e.getCause();
            String field = fieldPath(e);
            String detail = secret(field) ? "the value is not valid (not shown: the setting looks like a secret)"
                    : cause instanceof MemoryException || cause instanceof IllegalArgumentException
                    ? cause.getMessage() : e.getOriginalMessage();
            throw new ConfigurationException(source + ": invalid value at '" + field + "': " + detail, source, field, e);
        } catch (InvalidFormatException e) {
            String field = fieldPath(e);
            String shown = secret(field) ? "its value" : "'" + e.getValue() + "'";
            throw new ConfigurationException(source + ": '" + field + "' cannot be " + shown
                    + describeTarget(e.getTargetType()) + ".", source, field, e);
        } catch (MismatchedInputException e) {
            String field = fieldPath(e);
            throw new ConfigurationException(source + ": '" + field + "' has the wrong type"
                    + describeTarget(e.getTargetType()) + ".", source, field, e);
        } catch (IOException e) {
            throw new ConfigurationException(source + ": cannot read '" + path + "': " + e.getMessage(), source, path, e);
        } catch (IllegalArgumentException e) {
            String detail = secret(path) ? "a value is not valid (not shown: it came from a secret)" : e.getMessage();
            throw new ConfigurationException(source + ": invalid value in '" + path + "': " + detail, source, path, e);
        }
    }

    private String fieldPath(com.fasterxml.jackson.databind.JsonMappingException e) {
        StringBuilder field = new StringBuilder(path);
        for (com.fasterxml.jackson.databind.JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                field.append('.').append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                field.append('[').append(ref.getIndex()).append(']');
            }
        }
        return field.toString();
    }

    private static String describeTarget(Class<?> target) {
        if (target == null) {
            return "";
        }
        if (target.isEnum()) {
            Object[] constants = target.getEnumConstants();
            StringBuilder names = new StringBuilder();
            for (Object constant : constants) {
                names.append(names.length() == 0 ? "" : ", ").append(constant.toString().toLowerCase(java.util.Locale.ROOT));
            }
            return ": expected one of " + names;
        }
        if (target == Boolean.class || target == boolean.class) {
            return ": expected true or false";
        }
        if (Number.class.isAssignableFrom(target) || target.isPrimitive()) {
            return ": expected a number";
        }
        return ": expected " + target.getSimpleName();
    }

    @Override
    public String toString() {
        return source + " (" + path + "): " + values.keySet();
    }
}
