package dev.forge.memory.markdown;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.spi.ProviderContext;
import java.util.Map;

/**
 * The whole conformance suite against the markdown provider in the layered layout: PROJECT version files in the
 * hidden version directory, documents for layered keys. Set up like {@link MarkdownConformanceTest}.
 */
class MarkdownLayeredConformanceTest extends MemoryProviderConformance {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new MarkdownMemoryProviderFactory().open(withSettings(context, Map.of(
                "path", "projects/{project}/memory", "layout", "layered")));
    }
}
