package dev.forge.memory.conformance.fuzz;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.inmemory.InMemoryMemoryProvider;
import dev.forge.memory.inmemory.InMemoryStore;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The fuzz kit proves itself against the in-memory reference provider. */
class InMemorySpiFuzzTest extends SpiFuzzContract {

    private final Map<Path, InMemoryStore> stores = new ConcurrentHashMap<>();

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new InMemoryMemoryProvider(stores.computeIfAbsent(context.baseDirectory(), dir -> new InMemoryStore()), context);
    }

    @Override
    protected String providerName() {
        return "in-memory";
    }
}
