package dev.forge.memory.sqlite;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.spi.ProviderContext;

/** The whole conformance suite against the sqlite provider with its default settings (semantic search skipped: no embeddings). */
class SqliteConformanceTest extends MemoryProviderConformance {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new SqliteMemoryProviderFactory().open(context); // same base directory: same .forge/memory.db; GLOBAL in the forge home's memory.db
    }
}
