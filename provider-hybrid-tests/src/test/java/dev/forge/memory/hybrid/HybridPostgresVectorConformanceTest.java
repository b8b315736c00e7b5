package dev.forge.memory.hybrid;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.postgres.TestPostgres;
import dev.forge.memory.spi.ProviderContext;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;

/**
 * The conformance suite against PostgreSQL storage with a vector search child (hashing model) behind the cache: seed
 * 004's production shape. The storage is a schema of this class's database on the shared test server, one per forge
 * home, so a reopen finds the same store.
 */
class HybridPostgresVectorConformanceTest extends MemoryProviderConformance {

    private static String database;

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        Map<String, Object> storage = TestPostgres.connection(database());
        storage.put("provider", "postgres");
        storage.put("schema", "s_" + UUID.nameUUIDFromBytes(context.forgeHome().toString().getBytes(StandardCharsets.UTF_8))
                .toString().replace("-", ""));
        return HybridStores.provider(context, HybridStores.config(storage, HybridStores.vector(), null, Map.of()));
    }

    /** Postgres's graph keeps the API's default restore (its own time) until PgGraph implements MemoryGraph.restore. */
    @Override
    protected boolean restoresRelationTimes() {
        return false;
    }

    private static synchronized String database() {
        if (database == null) {
            database = TestPostgres.newDatabase();
        }
        return database;
    }
}
