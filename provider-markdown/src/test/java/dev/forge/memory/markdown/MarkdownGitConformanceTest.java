package dev.forge.memory.markdown;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.util.Map;

/**
 * The whole conformance suite against the markdown provider with {@code git: true}: committing every write changes
 * nothing a caller sees (and doctor stays silent, so git never switched off).
 */
class MarkdownGitConformanceTest extends MemoryProviderConformance {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new MarkdownMemoryProviderFactory().open(context.withConfig(ProviderConfig.of(
                Map.of("path", "projects/{project}/memory", "git", true, "fsync", false))));
    }
}
