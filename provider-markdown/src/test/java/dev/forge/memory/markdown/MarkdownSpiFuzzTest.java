package dev.forge.memory.markdown;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.fuzz.SpiFuzzContract;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.util.Map;

/** The SPI fuzz kit against the markdown provider, set up as in {@link MarkdownConformanceTest}, without fsync (parsing is fuzzed, not durability). */
class MarkdownSpiFuzzTest extends SpiFuzzContract {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new MarkdownMemoryProviderFactory().open(
                context.withConfig(ProviderConfig.of(Map.of("path", "projects/{project}/memory", "fsync", false))));
    }

    @Override
    protected String providerName() {
        return "markdown";
    }
}
