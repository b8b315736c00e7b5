package dev.forge.memory.hybrid;

import dev.forge.memory.conformance.CrashKit;
import java.util.Map;

/**
 * A process writing through the hybrid router (sqlite storage, vector search with the hashing model) is killed at
 * random moments; see {@link CrashKit}. The router updates its search child after the storage and, as it documents,
 * a process killed between the two leaves the search child without that one write until the key is written again or
 * reindexed: the kit lets the search miss the write in flight, but then {@code doctor()} must name exactly the entries
 * the search misses (and may name those whose delete was in flight); every acknowledged write must be found, and after
 * a reindex all are.
 */
class HybridCrashTest extends CrashKit {

    @Override
    protected String providerName() {
        return HybridMemoryProvider.NAME;
    }

    @Override
    protected Map<String, Object> config() {
        return Map.of("storage", Map.of("provider", "sqlite"), "search", HybridStores.vector());
    }

    @Override
    protected boolean searchMayMissInFlightWrite() {
        return true;
    }
}
