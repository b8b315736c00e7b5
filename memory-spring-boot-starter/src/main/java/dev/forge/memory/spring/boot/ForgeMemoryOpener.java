package dev.forge.memory.spring.boot;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.config.ConfigSource;
import dev.forge.memory.config.Memories;
import dev.forge.memory.config.ResolvedConfig;
import dev.forge.memory.spi.ProviderConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Opens the provider of the {@code forge.memory} settings through the runtime: with {@code provider}, that provider
 * with {@code config} as its settings block (bound and checked by the provider as a {@code memory.config} block is,
 * so the keys and the errors are those of {@code .forge/config.yaml}); without it, {@link Memories#open} resolves the
 * config files as the command line does.
 */
final class ForgeMemoryOpener {

    static final String CONFIG_PATH = "forge.memory.config";

    private ForgeMemoryOpener() {
    }

    /**
     * Opens the provider.
     *
     * @param config the {@code forge.memory.config} block, keys as written
     * @param source where the settings come from, for messages (a property source's name)
     * @throws ConfigurationException as the runtime throws it for a config file with the same block
     */
    static MemoryProvider open(ForgeMemoryProperties properties, Map<String, Object> config, String source) {
        Memories.Builder builder = Memories.builder().projectDirectory(properties.getProjectDirectory()).sessionId(properties.getSession());
        String name = properties.getProvider() == null ? null : properties.getProvider().trim();
        if (name == null || name.isEmpty()) {
            if (!config.isEmpty()) {
                throw new ConfigurationException(source + ": '" + CONFIG_PATH + "' is given without 'forge.memory.provider'; "
                        + "say which provider these settings are for.", source, "forge.memory.provider", null);
            }
            if (properties.getProject() != null) {
                throw new ConfigurationException(source + ": 'forge.memory.project' is given without 'forge.memory.provider'; "
                        + "name the provider too, or set memory.project in .forge/config.yaml.", source, "forge.memory.project", null);
            }
            return builder.open();
        }
        Path project = properties.getProjectDirectory().toAbsolutePath().normalize();
        String projectId = properties.getProject() != null ? properties.getProject()
                : project.getFileName() == null ? "root" : project.getFileName().toString();
        ConfigSource origin = new ConfigSource(ConfigSource.Kind.OVERRIDE_OPTION, Optional.empty(), source);
        return builder.open(registry -> new ResolvedConfig(name, origin, ProviderConfig.of(config, source, CONFIG_PATH), origin,
                projectId, origin, project, List.of(), Set.of()));
    }
}
