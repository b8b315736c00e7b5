package dev.forge.memory.file;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.fuzz.SpiFuzzContract;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.util.Map;

/** The SPI fuzz kit against the file provider, without fsync (parsing is fuzzed, not durability). */
class FileSpiFuzzTest extends SpiFuzzContract {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new FileMemoryProviderFactory().open(context.withConfig(ProviderConfig.of(Map.of("fsync", false))));
    }

    @Override
    protected String providerName() {
        return "file";
    }
}
