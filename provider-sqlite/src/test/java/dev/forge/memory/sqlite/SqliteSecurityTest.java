package dev.forge.memory.sqlite;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.StoreSecurityContract;
import java.nio.file.Path;

/** The sqlite provider's store is owner-only and its log holds no values: see {@link StoreSecurityContract}. */
class SqliteSecurityTest extends StoreSecurityContract {

    @Override
    protected MemoryProvider open(Path store) {
        return Stores.open(store);
    }
}
