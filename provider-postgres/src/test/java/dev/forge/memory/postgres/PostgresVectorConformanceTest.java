package dev.forge.memory.postgres;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.spi.ProviderContext;
import java.util.Map;

/**
 * The whole conformance suite against the postgres provider with an {@code embedding} block (the built-in
 * {@code hashing} model, as the vector provider's suite uses): semantic and hybrid search through pgvector, and
 * reindex, claimed and checked. Skipped, saying why, where the test server has no pgvector extension; runs on a
 * server from the machine's binaries that have it, on {@code PG_URL} with it, and in the Testcontainers image
 * ({@link TestPostgres#IMAGE}) wherever Docker runs. Each test's store is a schema of its own, as in
 * {@link PostgresConformanceTest}, in a database of this class's own.
 */
class PostgresVectorConformanceTest extends MemoryProviderConformance {

    private static String database;

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        // each test is reported skipped with the reason (an aborted class would be reported as no tests at all)
        TestPostgres.assumePgvector();
        return new PostgresMemoryProviderFactory().open(withSettings(context, config(context)));
    }

    private static synchronized Map<String, Object> config(ProviderContext context) {
        if (database == null) {
            database = TestPostgres.newDatabase();
        }
        Map<String, Object> config = TestPostgres.connection(database);
        config.put("schema", PostgresConformanceTest.schemaOf(context));
        config.put("embedding", Map.of("model", "hashing"));
        return config;
    }
}
