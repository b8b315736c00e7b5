package dev.forge.memory.postgres;

import dev.forge.memory.conformance.ManyProcessesKit;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

/**
 * Two child JVMs and this one, four threads each, writing one PostgreSQL schema on the shared test server: see
 * {@link ManyProcessesKit}. Every process opens its own pool; the store is the schema named after the store directory.
 */
class PostgresManyProcessesTest extends ManyProcessesKit {

    private static String database;

    @Override
    protected String providerName() {
        return "postgres";
    }

    @Override
    protected Map<String, ?> config(Path store) {
        synchronized (PostgresManyProcessesTest.class) {
            if (database == null) {
                database = TestPostgres.newDatabase();
            }
        }
        Map<String, Object> config = TestPostgres.connection(database);
        config.put("schema", "s_" + UUID.nameUUIDFromBytes(store.toString().getBytes(StandardCharsets.UTF_8))
                .toString().replace("-", ""));
        return config;
    }
}
