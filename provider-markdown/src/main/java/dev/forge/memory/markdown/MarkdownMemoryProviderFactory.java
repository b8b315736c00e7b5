package dev.forge.memory.markdown;

import dev.forge.memory.support.ConfiguredProviderFactory;

/**
 * Opens {@link MarkdownMemoryProvider}s: the provider named {@value MarkdownMemoryProvider#NAME}, forge-memory's
 * default, configured by {@link MarkdownConfig}; its directories are created by the first write.
 */
public final class MarkdownMemoryProviderFactory extends ConfiguredProviderFactory<MarkdownConfig> {

    /** Does nothing; all work happens in {@link #open}. */
    public MarkdownMemoryProviderFactory() {
        super(MarkdownMemoryProvider.NAME, MarkdownConfig.class, MarkdownMemoryProvider.CAPABILITIES, "Human-editable "
                + "markdown files with YAML front-matter, one per version; history with tombstones, relations, keyword "
                + "search. The default.", MarkdownConfig::settings, MarkdownMemoryProvider::open);
    }
}
