package dev.forge.memory.conformance;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/**
 * Opens a provider the way an application does: found by its factory name ({@link ProviderRegistry#load()}), with a
 * config block as YAML would give it, for one project and session, on a base directory whose forge home is inside it
 * (so that no test writes to the user's {@code ~/.forge}). For tests that name a provider rather than build one.
 */
public final class ProviderByName {

    private ProviderByName() {
    }

    /**
     * Opens provider {@code name} with {@code config} on {@code base} for {@code project} and {@code session}.
     *
     * @param source where the config comes from, for error messages
     */
    public static MemoryProvider open(String name, Map<String, ?> config, String source, Path base, String project,
            String session) {
        ProviderRegistry registry = ProviderRegistry.load();
        ProviderContext context = ProviderContext.builder()
                .projectId(project)
                .sessionId(session)
                .clock(Clock.systemUTC())
                .baseDirectory(base)
                .forgeHome(base.resolve("forge-home"))
                .registry(registry)
                .config(ProviderConfig.of(config, source, "memory.config"))
                .build();
        return registry.open(name, context);
    }
}
