package dev.forge.memory.vector;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.StoreSecurityContract;
import java.nio.file.Path;

/** The vector provider's store is owner-only and its log holds no values: see {@link StoreSecurityContract}. */
class VectorSecurityTest extends StoreSecurityContract {

    @Override
    protected MemoryProvider open(Path store) {
        return VectorStores.open(store, 64, false);
    }
}
