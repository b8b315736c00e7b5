package dev.forge.memory.postgres;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.spi.ProviderContext;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;

/**
 * The whole conformance suite against the postgres provider on the shared test server ({@link TestPostgres}), in a
 * database of this class's own. Every test's store is a schema of its own, named after the test's forge home (one
 * user's projects share one store, as they share one database in production): the same directory opens the same
 * store (reopen tests), a new one an empty store. Semantic search is checked as refused: no embeddings.
 */
class PostgresConformanceTest extends MemoryProviderConformance {

    private static String database;

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new PostgresMemoryProviderFactory().open(withSettings(context, config(context)));
    }

    /** Postgres's graph keeps the API's default restore (its own time) until PgGraph implements MemoryGraph.restore. */
    @Override
    protected boolean restoresRelationTimes() {
        return false;
    }

    static synchronized Map<String, Object> config(ProviderContext context) {
        if (database == null) {
            database = TestPostgres.newDatabase();
        }
        Map<String, Object> config = TestPostgres.connection(database);
        config.put("schema", schemaOf(context));
        return config;
    }

    /** The schema of {@code context}'s forge home. */
    static String schemaOf(ProviderContext context) {
        return "s_" + UUID.nameUUIDFromBytes(context.forgeHome().toString().getBytes(StandardCharsets.UTF_8))
                .toString().replace("-", "");
    }
}
