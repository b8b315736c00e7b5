package dev.forge.memory.sqlite;

import dev.forge.memory.conformance.CrashKit;
import java.util.Map;

/** A process writing to the sqlite provider is killed at random moments; see {@link CrashKit}. */
class SqliteCrashTest extends CrashKit {

    @Override
    protected String providerName() {
        return SqliteMemoryProvider.NAME;
    }

    @Override
    protected Map<String, Object> config() {
        return Map.of();
    }
}
