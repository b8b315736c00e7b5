package dev.forge.memory.file;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.spi.ProviderContext;
import java.util.Map;

/** The whole conformance suite against the file provider writing gzip-compressed entry files. */
class GzipFileConformanceTest extends MemoryProviderConformance {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new FileMemoryProviderFactory().open(withSettings(context, Map.of("compression", "gzip")));
    }
}
