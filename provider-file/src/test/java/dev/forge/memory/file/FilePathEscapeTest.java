package dev.forge.memory.file;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.fuzz.PathEscapeContract;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.util.Map;

/**
 * Hostile keys never leave the file provider's store directory (without fsync: the check is about names, and ten
 * thousand forced writes would cost the build more than they prove).
 */
class FilePathEscapeTest extends PathEscapeContract {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new FileMemoryProviderFactory().open(context.withConfig(ProviderConfig.of(Map.of("fsync", false))));
    }

    @Override
    protected String providerName() {
        return "file";
    }
}
