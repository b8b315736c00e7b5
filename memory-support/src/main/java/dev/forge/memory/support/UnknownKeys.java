package dev.forge.memory.support;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.Suggestions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Every unknown key of a provider's config block in one message, each with what to use instead where we know it: keys
 * of remote services (seed 004's vector block: {@code url}, {@code api_key}, {@code index}), of embedding settings
 * written flat ({@code embedding_model}, {@code dimensions}) and of database servers ({@code pool_size}, {@code ssl}).
 * Binding stops at the first unknown key; this check runs before it, so that a block written for another memory
 * system is corrected in one run, not one run per key.
 */
final class UnknownKeys {

    private static final Set<String> REMOTE = Set.of("url", "uri", "host", "port", "endpoint", "api_key", "index",
            "index_name", "namespace", "environment", "collection");
    private static final Set<String> EMBEDDING = Set.of("embedding_model", "embeddings_model", "model", "dimensions",
            "dimension");
    private static final Set<String> SERVER = Set.of("pool_size", "ssl", "username", "password", "database");

    private UnknownKeys() {
    }

    /**
     * Throws if {@code config} holds keys that are not in {@code known}.
     *
     * @param provider    the provider's name, for messages
     * @param description the provider's one sentence, for the remote-service hint
     * @throws ConfigurationException naming every unknown key, with hints and the known keys
     */
    static void check(ProviderConfig config, Set<String> known, String provider, String description) {
        List<String> unknown = config.values().keySet().stream().filter(k -> !known.contains(k)).toList();
        if (unknown.isEmpty()) {
            return;
        }
        String knownList = known.isEmpty() ? " This provider takes no settings."
                : " Known keys: " + String.join(", ", new TreeSet<>(known)) + ".";
        String fields = unknown.stream().map(k -> "'" + config.path() + "." + k + "'").collect(Collectors.joining(", "));
        Map<String, List<String>> byHint = new LinkedHashMap<>();
        for (String key : unknown) {
            hint(config, key, known, provider, description)
                    .or(() -> Suggestions.closest(key, known).map(s -> "did you mean '" + s + "'?"))
                    .ifPresent(hint -> byHint.computeIfAbsent(hint, h -> new ArrayList<>()).add(key));
        }
        StringBuilder message = new StringBuilder(config.source()).append(": unknown key").append(unknown.size() > 1 ? "s " : " ")
                .append(fields).append('.');
        if (unknown.size() == 1 && byHint.size() == 1 && byHint.keySet().iterator().next().startsWith("did you mean")) {
            message.append(" Did you mean").append(byHint.keySet().iterator().next().substring("did you mean".length()));
        } else {
            byHint.forEach((hint, keys) -> message.append(' ').append(String.join(", ", keys)).append(": ").append(hint));
        }
        throw new ConfigurationException(message.append(knownList).toString(), config.source(),
                config.path() + "." + unknown.get(0), null);
    }

    /**
     * The config keys of a record's components, named as {@link ProviderConfig#bind} names them (Jackson's snake case:
     * {@code maxEntries} is {@code max_entries}); empty for a type that is not a record.
     */
    static Set<String> keysOf(Class<?> type) {
        Set<String> keys = new TreeSet<>();
        if (type.isRecord()) {
            for (var component : type.getRecordComponents()) {
                keys.add(snakeCase(component.getName()));
            }
        }
        return keys;
    }

    /** As Jackson's {@code SnakeCaseStrategy}: an underscore before each run of capitals, all in lower case. */
    static String snakeCase(String name) {
        StringBuilder out = new StringBuilder();
        boolean previousUpper = false;
        for (char c : name.toCharArray()) {
            if (Character.isUpperCase(c)) {
                if (!previousUpper && out.length() > 0 && out.charAt(out.length() - 1) != '_') {
                    out.append('_');
                }
                out.append(Character.toLowerCase(c));
                previousUpper = true;
            } else {
                out.append(c);
                previousUpper = false;
            }
        }
        return out.toString();
    }

    private static Optional<String> hint(ProviderConfig config, String key, Set<String> known, String provider,
            String description) {
        if (EMBEDDING.contains(key)) {
            if (!known.contains("embedding")) {
                return Optional.of("the '" + provider + "' provider has no semantic search; use the vector provider, or"
                        + " hybrid with a vector search child.");
            }
            return Optional.of("write the embedding block: " + embeddingBlock(config) + " (docs/embeddings.md).");
        }
        if (REMOTE.contains(key) && (known.contains("path") || known.contains("base_path"))) {
            String where = known.contains("path") ? "'path'" : "'base_path'";
            return Optional.of("the '" + provider + "' provider is a local store, not a client of a remote service ("
                    + description.replaceAll("\\.$", "") + "): it keeps its data under " + where + ".");
        }
        if (SearchText.SETTING.equals(key)) {
            return Optional.of("the '" + provider + "' provider indexes a fixed text (key, tags and value) and has no "
                    + "such setting: leave it out, or use a provider that has it, such as markdown, sqlite or vector "
                    + "(docs/RETRIEVAL.md, \"What is indexed\").");
        }
        if (SERVER.contains(key)) {
            return Optional.of("the '" + provider + "' provider is embedded, not a database server: remove it.");
        }
        return Optional.empty();
    }

    /** The block that says what {@code embedding_model} and {@code dimensions} say, with their values where shown. */
    private static String embeddingBlock(ProviderConfig config) {
        Object model = config.values().entrySet().stream().filter(e -> e.getKey().contains("model")).map(Map.Entry::getValue)
                .findFirst().orElse(null);
        Object dimension = config.values().getOrDefault("dimensions", config.values().get("dimension"));
        StringBuilder block = new StringBuilder("embedding: {model: ");
        String name = model == null || config.isSecret("embedding_model") ? "" : String.valueOf(model).strip();
        if (name.equals("minilm") || name.equals("hashing")) {
            block.append(name);
        } else {
            String remote = name.startsWith("openai/") ? name.substring("openai/".length()) : name;
            block.append("openai, remote_model: ").append(remote.isEmpty() ? "NAME" : remote);
        }
        if (dimension != null && !config.isSecret("dimensions")) {
            block.append(", dimension: ").append(dimension);
        }
        return block.append('}').toString();
    }
}
