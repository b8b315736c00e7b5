package dev.forge.memory.config;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.spi.Suggestions;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * One parsed config file: its {@code memory} block. {@code provider} and {@code project} are interpolated when
 * the file is read; the {@code config} block only when it is used ({@link #settings}), so that a variable a file
 * needs for a provider nobody selected never breaks a run. Other top-level keys belong to other tools.
 *
 * @param path      the file
 * @param provider  {@code memory.provider}, if set
 * @param project   {@code memory.project}, if set and not empty
 * @param rawConfig {@code memory.config} as written, empty if not set
 */
record ConfigFile(Path path, Optional<String> provider, Optional<String> project, Map<String, Object> rawConfig) {

    private static final Set<String> MEMORY_KEYS = Set.of("provider", "project", "config");

    /**
     * Reads {@code path} if it exists.
     *
     * @param environment looks up environment variables for interpolation
     * @throws ConfigurationException for unreadable files, files over {@link ConfigText#MAX_BYTES}, malformed YAML
     *                                (with line and column), unknown keys in the {@code memory} block, values of the
     *                                wrong shape and unset variables
     */
    static Optional<ConfigFile> read(Path path, Function<String, String> environment) {
        return ConfigText.read(path).map(text -> parse(path, text, environment));
    }

    /** Parses config text that came from {@code path}. */
    static ConfigFile parse(Path path, String text, Function<String, String> environment) {
        String source = path.toString();
        Object root = ConfigText.parse(text, source);
        if (root == null) {
            return new ConfigFile(path, Optional.empty(), Optional.empty(), Map.of());
        }
        if (!(root instanceof Map<?, ?> top)) {
            throw new ConfigurationException(source + ": the file must be a YAML map with a 'memory' key.", source, null, null);
        }
        Object memory = top.get("memory");
        if (memory == null) {
            for (Object key : top.keySet()) {
                Optional<String> meant = Suggestions.closest(String.valueOf(key), Set.of("memory"));
                if (meant.isPresent() && !"memory".equals(key)) {
                    throw new ConfigurationException(source + ": top-level key '" + key + "' is not 'memory'. Did you mean 'memory'?",
                            source, String.valueOf(key), null);
                }
            }
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
        Interpolation interpolation = new Interpolation(environment, source, new java.util.HashSet<>());
        Optional<String> provider = text(block.get("provider"), source, "memory.provider", interpolation, false);
        Optional<String> project = text(block.get("project"), source, "memory.project", interpolation, true);
        Object config = block.get("config");
        if (config != null && !(config instanceof Map)) {
            throw new ConfigurationException(source + ": 'memory.config' must be a map of the provider's settings.",
                    source, "memory.config", null);
        }
        Map<String, Object> raw = new LinkedHashMap<>();
        if (config != null) {
            ((Map<?, ?>) config).forEach((k, v) -> raw.put(String.valueOf(k), v));
        }
        return new ConfigFile(path, provider, project, raw);
    }

    private static Optional<String> text(Object value, String source, String field, Interpolation interpolation, boolean emptyIsUnset) {
        if (value == null) {
            return Optional.empty();
        }
        if (value instanceof Map || value instanceof List) {
            throw new ConfigurationException(source + ": '" + field + "' must be a single name.", source, field, null);
        }
        String text = interpolation.string(String.valueOf(value), field).trim();
        if (text.isEmpty()) {
            if (emptyIsUnset) {
                return Optional.empty();
            }
            throw new ConfigurationException(source + ": '" + field + "' is empty.", source, field, null);
        }
        return Optional.of(text);
    }

    /**
     * The {@code config} block with every string interpolated.
     *
     * @param secretFields collects fields whose value came from a secret-looking variable
     */
    Map<String, Object> settings(Function<String, String> environment, Set<String> secretFields) {
        @SuppressWarnings("unchecked")
        Map<String, Object> interpolated = (Map<String, Object>) new Interpolation(environment, path.toString(), secretFields)
                .tree(rawConfig, "memory.config");
        return interpolated;
    }
}
