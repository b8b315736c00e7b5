package dev.forge.memory.markdown;

import dev.forge.memory.Capability;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.spi.MemoryProviderFactory;
import dev.forge.memory.spi.ProviderContext;
import java.util.Set;

/**
 * Opens {@link MarkdownMemoryProvider}s: the provider named {@value MarkdownMemoryProvider#NAME}, forge-memory's
 * default, configured by {@link MarkdownConfig}.
 */
public final class MarkdownMemoryProviderFactory implements MemoryProviderFactory {

    /** Does nothing; all work happens in {@link #open}. */
    public MarkdownMemoryProviderFactory() {
    }

    @Override
    public String name() {
        return MarkdownMemoryProvider.NAME;
    }

    @Override
    public String description() {
        return "Human-editable markdown files with YAML front-matter, one per version; history with tombstones, "
                + "relations, keyword search. The default.";
    }

    @Override
    public Set<Capability> capabilities() {
        return MarkdownMemoryProvider.CAPABILITIES;
    }

    /**
     * Binds the config to {@link MarkdownConfig} and opens the directories it names; they are created by the first
     * write.
     *
     * @throws dev.forge.memory.ConfigurationException      for an unknown key or a bad value
     * @throws dev.forge.memory.BackendUnavailableException if a directory exists but cannot be read
     */
    @Override
    public MemoryProvider open(ProviderContext context) {
        return MarkdownMemoryProvider.open(context, context.config().bind(MarkdownConfig.class));
    }
}
