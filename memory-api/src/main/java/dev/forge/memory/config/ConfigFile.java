package dev.forge.memory.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.spi.Suggestions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
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

    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(com.fasterxml.jackson.dataformat.yaml.YAMLParser.Feature.EMPTY_STRING_AS_NULL)
            .build());
    private static final Set<String> MEMORY_KEYS = Set.of("provider", "project", "config");

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
            throw malformed(source, e);
        }
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

    /** One line, with the position where the parser found the problem, never quoting the file's text. */
    private static ConfigurationException malformed(String source, JsonProcessingException e) {
        Throwable cause = e.getCause();
        String position;
        String problem;
        if (cause instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
            // Unclosed constructs are noticed far from where they start: point at the start, say where it ended.
            Mark at = marked.getContextMark() != null ? marked.getContextMark() : marked.getProblemMark();
            position = ":" + (at.getLine() + 1) + ":" + (at.getColumn() + 1);
            problem = marked.getProblem();
            if (marked.getContextMark() != null && marked.getContext() != null) {
                problem = marked.getContext() + ", " + problem + " (line " + (marked.getProblemMark().getLine() + 1)
                        + ", column " + (marked.getProblemMark().getColumn() + 1) + ")";
            }
        } else {
            JsonLocation where = e.getLocation();
            position = where == null ? "" : ":" + where.getLineNr() + ":" + where.getColumnNr();
            problem = e.getOriginalMessage();
        }
        problem = problem == null ? "unreadable" : problem.lines().findFirst().orElse("unreadable").trim();
        String hint = problem.contains("escape") ? " (in double quotes a backslash starts an escape: write Windows paths in single quotes or with /)" : "";
        return new ConfigurationException(source + position + ": malformed YAML: " + problem + hint + ".", source, null, e);
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
