package dev.forge.memory.vector;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.spi.ProviderContext;

import java.util.Map;

/**
 * The whole conformance suite, restore included, against the vector provider with the built-in {@code hashing}
 * model (graph, transactions and history are skipped: not offered).
 */
class VectorConformanceTest extends MemoryProviderConformance {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        // same base directory: same .forge/vectors index
        return new VectorMemoryProviderFactory().open(withSettings(context, Map.of("embedding", Map.of("model", "hashing"))));
    }
}
