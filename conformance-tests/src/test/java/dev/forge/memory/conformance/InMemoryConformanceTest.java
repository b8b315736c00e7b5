package dev.forge.memory.conformance;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.inmemory.InMemoryMemoryProvider;
import dev.forge.memory.inmemory.InMemoryStore;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The suite proves itself against the in-memory reference provider: one store per store directory. */
class InMemoryConformanceTest extends MemoryProviderConformance {

    private final Map<Path, InMemoryStore> stores = new ConcurrentHashMap<>();

    /** The in-memory stores here are keyed by store directory, in this JVM: nothing is kept under the forge home. */
    @Override
    protected boolean sharesGlobalThroughForgeHome() {
        return false;
    }

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new InMemoryMemoryProvider(stores.computeIfAbsent(context.baseDirectory(), dir -> new InMemoryStore()), context,
                Optional.empty(), InMemorySettings.searchFields(context));
    }
}
