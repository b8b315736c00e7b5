package dev.forge.memory.file;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.fuzz.SpiFuzzContract;
import dev.forge.memory.spi.ProviderContext;

/** The SPI fuzz kit against the file provider with its default settings. */
class FileSpiFuzzTest extends SpiFuzzContract {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new FileMemoryProviderFactory().open(context);
    }

    @Override
    protected String providerName() {
        return "file";
    }
}
