package dev.forge.memory.markdown;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.spi.ProviderContext;
import java.util.Map;

/**
 * The whole conformance suite against the markdown provider. Each project gets a directory of its own through
 * {@code {project}} in the path, as several projects sharing one root would configure it; GLOBAL memories go to the
 * context's forge home, as by default.
 */
class MarkdownConformanceTest extends MemoryProviderConformance {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new MarkdownMemoryProviderFactory().open(withSettings(context, Map.of("path", "projects/{project}/memory")));
    }
}
