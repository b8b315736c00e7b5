package dev.forge.memory.config;

import dev.forge.memory.spi.ProviderConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The outcome of resolving configuration: which provider, with which settings, for which project, and where
 * each came from. {@link #maskedConfig()} and {@link #describe()} show it with secrets masked.
 *
 * @param provider         the provider name
 * @param providerSource   where the provider name came from
 * @param config           the provider's settings, interpolated ({@code ${VAR}}), relative paths left as written
 * @param configSource     where the settings came from
 * @param projectId        the project id: {@code memory.project} if configured, else the project directory's name
 * @param projectIdSource  where the project id came from
 * @param projectDirectory the project directory, against which relative paths resolve
 * @param filesRead        every config file that was read, highest precedence first
 * @param secretFields     dotted paths of settings whose value came from a secret-looking variable
 *                         ({@code memory.config.url} for {@code url: ${DB_PASSWORD}}), masked whatever their name
 */
public record ResolvedConfig(String provider, ConfigSource providerSource, ProviderConfig config, ConfigSource configSource,
                             String projectId, ConfigSource projectIdSource, Path projectDirectory, List<Path> filesRead,
                             Set<String> secretFields) {

    private static final String MASK = "****";
    private static final Pattern URL_PASSWORD = Pattern.compile("(://[^/@:\\s]*:)[^@/\\s]+(@)");

    /** Rejects nulls and copies the collections. */
    public ResolvedConfig {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(providerSource, "providerSource");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(configSource, "configSource");
        Objects.requireNonNull(projectId, "projectId");
        Objects.requireNonNull(projectIdSource, "projectIdSource");
        Objects.requireNonNull(projectDirectory, "projectDirectory");
        filesRead = List.copyOf(filesRead);
        secretFields = Set.copyOf(secretFields);
    }

    /** Whether a setting's name marks it as a secret; see {@link ProviderConfig#isSecretKey}. */
    public static boolean isSecret(String settingName) {
        return ProviderConfig.isSecretKey(settingName);
    }

    /**
     * The settings with secrets replaced by {@code ****} at any depth (in maps and lists): values of secret-looking
     * keys, values that came from secret-looking variables, and the password part of URLs ({@code scheme://user:pw@host}).
     */
    public Map<String, Object> maskedConfig() {
        @SuppressWarnings("unchecked")
        Map<String, Object> masked = (Map<String, Object>) mask(config.values(), "memory.config", false);
        return masked;
    }

    private Object mask(Object value, String path, boolean secret) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(String.valueOf(k),
                    mask(v, path + "." + k, secret || isSecret(String.valueOf(k)))));
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                copy.add(mask(list.get(i), path + "[" + i + "]", secret));
            }
            return copy;
        }
        if (value == null) {
            return null;
        }
        if (secret || secretFields.contains(path)) {
            return MASK;
        }
        return value instanceof String s ? maskUrlPassword(s) : value;
    }

    /** {@code text} with the password part of any URL in it ({@code scheme://user:pw@host}) replaced by {@code ****}. */
    static String maskUrlPassword(String text) {
        return URL_PASSWORD.matcher(text).replaceAll("$1" + MASK + "$2");
    }

    /** A few human-readable lines: provider, project, settings (secrets masked), and where each came from. */
    public String describe() {
        StringBuilder out = new StringBuilder();
        out.append("provider: ").append(provider).append("    (from ").append(providerSource).append(")\n");
        out.append("project:  ").append(projectId).append("    (from ").append(projectIdSource).append(")\n");
        out.append("project directory: ").append(projectDirectory).append('\n');
        out.append("config:   (from ").append(configSource).append(")\n");
        maskedConfig().forEach((key, value) -> out.append("  ").append(key).append(": ").append(value).append('\n'));
        out.append("files read: ").append(filesRead.isEmpty() ? "none" : filesRead.toString());
        return out.append('\n').toString();
    }
}
