package dev.forge.memory.file;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.spi.ProviderContext;

/** The whole conformance suite against the file provider with its default settings. */
class FileConformanceTest extends MemoryProviderConformance {

    /** GLOBAL still lives in the project's store directory ({@code <base_path>/global}), shared only by projects that point
     * {@code base_path} at one directory: the shared store under the forge home is issue 24's open part. */
    @Override
    protected boolean sharesGlobalThroughForgeHome() {
        return false;
    }

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new FileMemoryProviderFactory().open(context);
    }
}
