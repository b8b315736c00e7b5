package dev.forge.memory.sqlite;

import dev.forge.memory.conformance.ManyProcessesKit;
import java.nio.file.Path;
import java.util.Map;

/**
 * Two child JVMs and this one, four threads each, writing one SQLite file: see {@link ManyProcessesKit}. The
 * {@code busy_timeout} is raised from 5s so that a slow shared CI machine cannot turn a long wait for SQLite's unfair
 * lock into a failed write; the waiting itself is what is tested.
 */
class SqliteManyProcessesTest extends ManyProcessesKit {

    @Override
    protected String providerName() {
        return "sqlite";
    }

    @Override
    protected Map<String, String> config(Path store) {
        return Map.of("path", store.resolve("memory.db").toString(), "busy_timeout", "60s");
    }
}
