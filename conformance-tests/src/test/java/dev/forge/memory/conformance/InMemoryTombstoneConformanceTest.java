package dev.forge.memory.conformance;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.support.EmbeddingModels;
import dev.forge.memory.support.HashingEmbeddingModelFactory;
import dev.forge.memory.inmemory.InMemoryMemoryProvider;
import dev.forge.memory.inmemory.InMemoryStore;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The suite against the in-memory reference provider keeping deletions ({@code TOMBSTONES}), with transactions and
 * semantic search by the built-in {@code hashing} embedding model: the reference for how the tombstone variant of
 * every contract behaves, and for the semantic and hybrid search contract.
 */
class InMemoryTombstoneConformanceTest extends MemoryProviderConformance {

    private final Map<Path, InMemoryStore> stores = new ConcurrentHashMap<>();

    /** The in-memory stores here are keyed by store directory, in this JVM: nothing is kept under the forge home. */
    @Override
    protected boolean sharesGlobalThroughForgeHome() {
        return false;
    }

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new InMemoryMemoryProvider(stores.computeIfAbsent(context.baseDirectory(), dir -> new InMemoryStore(true)),
                context, Optional.of(EmbeddingModels.load().open(HashingEmbeddingModelFactory.NAME, ProviderConfig.empty())),
                InMemorySettings.searchFields(context));
    }
}
