package dev.forge.memory.sqlite;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.fuzz.InjectionContract;
import dev.forge.memory.spi.ProviderContext;

/** SQL and FTS5 injection through every input of the sqlite provider changes nothing else in the database. */
class SqliteInjectionTest extends InjectionContract {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new SqliteMemoryProviderFactory().open(context);
    }

    @Override
    protected String providerName() {
        return "sqlite";
    }
}
