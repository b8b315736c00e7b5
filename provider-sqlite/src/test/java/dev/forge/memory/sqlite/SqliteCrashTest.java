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

    /** The global file commits before the project file, without a record tying them (docs/providers/sqlite.md). */
    @Override
    protected boolean inFlightGlobalPartMayCommitAlone() {
        return true;
    }
}
