package dev.forge.memory.config;

import dev.forge.memory.spi.ProviderConfig;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The outcome of resolving configuration: which provider, with which settings, for which project, and where
 * each came from. {@link #describe()} shows it with secrets masked.
 *
 * @param provider         the provider name
 * @param providerSource   where the provider name came from
 * @param config           the provider's settings, interpolated ({@code ${VAR}}), relative paths left as written
 * @param configSource     where the settings came from
 * @param projectId        the project id: {@code memory.project} if configured, else the project directory's name
 * @param projectIdSource  where the project id came from
 * @param projectDirectory the project directory, against which relative paths resolve
 * @param filesRead        every config file that was read, highest precedence first
 */
public record ResolvedConfig(String provider, ConfigSource providerSource, ProviderConfig config, ConfigSource configSource,
                             String projectId, ConfigSource projectIdSource, Path projectDirectory, List<Path> filesRead) {

    private static final Pattern SECRET = Pattern.compile("(?i).*(password|passwd|secret|token|api[_-]?key|credential).*");

    /** Rejects nulls and copies the file list. */
    public ResolvedConfig {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(providerSource, "providerSource");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(configSource, "configSource");
        Objects.requireNonNull(projectId, "projectId");
        Objects.requireNonNull(projectIdSource, "projectIdSource");
        Objects.requireNonNull(projectDirectory, "projectDirectory");
        filesRead = List.copyOf(filesRead);
    }

    /** Whether a setting's name marks it as a secret, whose value is never shown. */
    public static boolean isSecret(String settingName) {
        return SECRET.matcher(settingName).matches();
    }

    /** The settings with every secret value (at any depth) replaced by {@code ****}. */
    public Map<String, Object> maskedConfig() {
        return mask(config.values());
    }

    private static Map<String, Object> mask(Map<String, ?> values) {
        Map<String, Object> masked = new LinkedHashMap<>();
        values.forEach((key, value) -> {
            if (isSecret(key) && !(value instanceof Map)) {
                masked.put(key, "****");
            } else if (value instanceof Map<?, ?> nested) {
                Map<String, Object> copy = new LinkedHashMap<>();
                nested.forEach((k, v) -> copy.put(String.valueOf(k), v));
                masked.put(key, mask(copy));
            } else {
                masked.put(key, value);
            }
        });
        return masked;
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
