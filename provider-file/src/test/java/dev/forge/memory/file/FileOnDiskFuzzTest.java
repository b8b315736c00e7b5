package dev.forge.memory.file;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.fuzz.OnDiskFuzzContract;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.util.Map;

/** Damaged JSON entry files (invalid UTF-8, deep nesting, cuts) get typed errors; the other entries stay readable. */
class FileOnDiskFuzzTest extends OnDiskFuzzContract {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new FileMemoryProviderFactory().open(context.withConfig(ProviderConfig.of(Map.of("fsync", false))));
    }

    @Override
    protected String providerName() {
        return "file";
    }
}
