package dev.forge.memory.markdown;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.Setting;
import dev.forge.memory.support.ConfiguredProviderFactory;
import java.util.List;

/**
 * Opens {@link MarkdownMemoryProvider}s: the provider named {@value MarkdownMemoryProvider#NAME}, forge-memory's
 * default, configured by {@link MarkdownConfig}.
 */
public final class MarkdownMemoryProviderFactory extends ConfiguredProviderFactory<MarkdownConfig> {

    /** Does nothing; all work happens in {@link #open}. */
    public MarkdownMemoryProviderFactory() {
        super(MarkdownMemoryProvider.NAME, MarkdownConfig.class, MarkdownMemoryProvider.CAPABILITIES, "Human-editable "
                + "markdown files with YAML front-matter, one per version; history with tombstones, relations, keyword "
                + "search. The default.");
    }

    /** {@link MarkdownConfig}'s keys. */
    @Override
    public List<Setting> settings() {
        return MarkdownConfig.settings();
    }

    /**
     * Opens the directories the config names; they are created by the first write.
     *
     * @throws dev.forge.memory.BackendUnavailableException if a directory exists but cannot be read
     */
    @Override
    protected MemoryProvider open(ProviderContext context, MarkdownConfig config) {
        return MarkdownMemoryProvider.open(context, config);
    }
}
