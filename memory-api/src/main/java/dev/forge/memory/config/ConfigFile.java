package dev.forge.memory.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.spi.Suggestions;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One parsed config file: its {@code memory} block, with {@code ${VAR}} and {@code ${VAR:-default}} interpolated
 * in every string value. Other top-level keys belong to other tools and are left alone.
 *
 * @param path     the file
 * @param provider {@code memory.provider}, if set
 * @param project  {@code memory.project}, if set
 * @param config   {@code memory.config}, empty if not set
 */
record ConfigFile(Path path, Optional<String> provider, Optional<String> project, Map<String, Object> config) {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Set<String> MEMORY_KEYS = Set.of("provider", "project", "config");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\$|\\$\\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?}");

    /**
     * Reads {@code path} if it exists.
     *
     * @param environment looks up environment variables for interpolation
     * @throws ConfigurationException for unreadable files, malformed YAML (with line and column), unknown keys in
     *                                the {@code memory} block, values of the wrong shape and unset variables
     */
    static Optional<ConfigFile> read(Path path, Function<String, String> environment) {
        String text;
        try {
            text = Files.readString(path);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (CharacterCodingException e) {
            throw new ConfigurationException(path + ": not UTF-8 text. Save the file as UTF-8.", path.toString(), null, e);
        } catch (IOException e) {
            throw new ConfigurationException(path + ": cannot be read (" + e.getMessage() + "). Check its permissions.",
                    path.toString(), null, e);
        }
        return Optional.of(parse(path, text, environment));
    }

    /** Parses config text that came from {@code path}. */
    static ConfigFile parse(Path path, String text, Function<String, String> environment) {
        String source = path.toString();
        Object root;
        try {
            root = text.isBlank() ? null : YAML.readValue(text, Object.class);
        } catch (JsonProcessingException e) {
            JsonLocation where = e.getLocation();
            String position = where == null ? "" : ":" + where.getLineNr() + ":" + where.getColumnNr();
            throw new ConfigurationException(source + position + ": malformed YAML: " + e.getOriginalMessage(), source, null, e);
        }
        if (root == null) {
            return new ConfigFile(path, Optional.empty(), Optional.empty(), Map.of());
        }
        if (!(root instanceof Map<?, ?> top)) {
            throw new ConfigurationException(source + ": the file must be a YAML map with a 'memory' key.", source, null, null);
        }
        Object memory = top.get("memory");
        if (memory == null) {
            return new ConfigFile(path, Optional.empty(), Optional.empty(), Map.of());
        }
        if (!(memory instanceof Map<?, ?> block)) {
            throw new ConfigurationException(source + ": 'memory' must be a map with 'provider' and 'config'.", source, "memory", null);
        }
        for (Object key : block.keySet()) {
            if (!MEMORY_KEYS.contains(String.valueOf(key))) {
                String suggestion = Suggestions.closest(String.valueOf(key), MEMORY_KEYS).map(s -> " Did you mean '" + s + "'?").orElse("");
                throw new ConfigurationException(source + ": unknown key 'memory." + key + "'." + suggestion
                        + " Known keys: config, project, provider.", source, "memory." + key, null);
            }
        }
        Optional<String> provider = text(block.get("provider"), source, "memory.provider", environment);
        Optional<String> project = text(block.get("project"), source, "memory.project", environment);
        Object config = block.get("config");
        if (config != null && !(config instanceof Map)) {
            throw new ConfigurationException(source + ": 'memory.config' must be a map of the provider's settings.",
                    source, "memory.config", null);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> settings = config == null ? Map.of()
                : (Map<String, Object>) interpolate(config, source, "memory.config", environment);
        return new ConfigFile(path, provider, project, settings);
    }

    private static Optional<String> text(Object value, String source, String field, Function<String, String> environment) {
        if (value == null) {
            return Optional.empty();
        }
        if (value instanceof Map || value instanceof List) {
            throw new ConfigurationException(source + ": '" + field + "' must be a single name.", source, field, null);
        }
        String text = (String) interpolate(String.valueOf(value), source, field, environment);
        if (text.isBlank()) {
            throw new ConfigurationException(source + ": '" + field + "' is empty.", source, field, null);
        }
        return Optional.of(text.trim());
    }

    /** Interpolates every string in a YAML value tree; maps keep their order. */
    static Object interpolate(Object value, String source, String field, Function<String, String> environment) {
        if (value instanceof String s) {
            return substitute(s, source, field, environment);
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(String.valueOf(k), v == null ? null
                    : interpolate(v, source, field + "." + k, environment)));
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                Object item = list.get(i);
                copy.add(item == null ? null : interpolate(item, source, field + "[" + i + "]", environment));
            }
            return copy;
        }
        return value;
    }

    private static String substitute(String text, String source, String field, Function<String, String> environment) {
        Matcher m = VARIABLE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement;
            if (m.group().equals("$$")) {
                replacement = "$";
            } else {
                String value = environment.apply(m.group(1));
                if (value == null || value.isEmpty() && m.group(2) != null) {
                    if (m.group(2) == null) {
                        throw new ConfigurationException(source + ": '" + field + "' uses ${" + m.group(1)
                                + "}, which is not set. Set the environment variable, or write ${" + m.group(1)
                                + ":-default}.", source, field, null);
                    }
                    value = m.group(3);
                }
                replacement = value;
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }
}
