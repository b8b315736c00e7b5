package dev.forge.memory.file;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.StoreSecurityContract;
import java.nio.file.Path;

/** The file provider's store is owner-only and its log holds no values: see {@link StoreSecurityContract}. */
class FileSecurityTest extends StoreSecurityContract {

    @Override
    protected MemoryProvider open(Path store) {
        return Stores.open(store);
    }
}
