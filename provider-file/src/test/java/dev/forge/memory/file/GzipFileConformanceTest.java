package dev.forge.memory.file;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.util.Map;

/** The whole conformance suite against the file provider writing gzip-compressed entry files. */
class GzipFileConformanceTest extends MemoryProviderConformance {

    /** GLOBAL still lives in the project's store directory ({@code <base_path>/global}), shared only by projects that point
     * {@code base_path} at one directory: the shared store under the forge home is issue 24's open part. */
    @Override
    protected boolean sharesGlobalThroughForgeHome() {
        return false;
    }

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new FileMemoryProviderFactory().open(context.withConfig(ProviderConfig.of(Map.of("compression", "gzip"))));
    }
}
