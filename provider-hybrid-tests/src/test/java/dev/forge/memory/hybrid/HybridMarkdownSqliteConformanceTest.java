package dev.forge.memory.hybrid;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.spi.ProviderContext;
import java.util.Map;

/**
 * The conformance suite against markdown storage (history with tombstones) with sqlite as the keyword search child:
 * no semantic search anywhere, so SEMANTIC and HYBRID are refused. The markdown path holds {@code {project}}, as
 * several projects sharing one root would configure it.
 */
class HybridMarkdownSqliteConformanceTest extends MemoryProviderConformance {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return HybridStores.provider(context, HybridStores.config(Map.of("provider", "markdown", "path", "projects/{project}/memory"),
                Map.of("provider", "sqlite", "path", ".forge/search.db"), null, Map.of()));
    }
}
