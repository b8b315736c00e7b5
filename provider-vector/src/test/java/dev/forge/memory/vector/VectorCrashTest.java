package dev.forge.memory.vector;

import dev.forge.memory.conformance.CrashKit;
import java.util.Map;

/** A process writing to the vector provider (the hashing embedding model) is killed at random moments; see {@link CrashKit}. */
class VectorCrashTest extends CrashKit {

    @Override
    protected String providerName() {
        return VectorMemoryProvider.NAME;
    }

    @Override
    protected Map<String, Object> config() {
        return Map.of("embedding", Map.of("model", "hashing"));
    }
}
