package dev.forge.memory.sqlite;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.spi.ProviderContext;

/** The whole conformance suite against the sqlite provider with its default settings (semantic search skipped: no embeddings). */
class SqliteConformanceTest extends MemoryProviderConformance {

    /** GLOBAL still lives in the project's database file, shared only by projects that point {@code path} at one file:
     * the shared {@code global.db} under the forge home is issue 24's open part. */
    @Override
    protected boolean sharesGlobalThroughForgeHome() {
        return false;
    }

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new SqliteMemoryProviderFactory().open(context); // same base directory: same .forge/memory.db
    }
}
