package dev.forge.memory.sqlite;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.fuzz.SpiFuzzContract;
import dev.forge.memory.spi.ProviderContext;

/** The SPI fuzz kit against the sqlite provider with its default settings. */
class SqliteSpiFuzzTest extends SpiFuzzContract {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new SqliteMemoryProviderFactory().open(context);
    }

    @Override
    protected String providerName() {
        return "sqlite";
    }
}
