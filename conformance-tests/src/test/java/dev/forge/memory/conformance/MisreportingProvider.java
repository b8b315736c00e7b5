package dev.forge.memory.conformance;

import dev.forge.memory.Capability;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Reindexing;
import dev.forge.memory.Restoring;
import dev.forge.memory.Transactions;
import dev.forge.memory.VersionHistory;
import dev.forge.memory.support.ForwardingMemoryProvider;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The in-memory reference provider with one wrong capability claim, as a third-party provider could make: it adds a
 * capability to what it reports, takes one away, or hides a facet it reports. Everything else is the real provider.
 */
final class MisreportingProvider extends ForwardingMemoryProvider {

    private final Set<Capability> reported;
    private final Capability hiddenFacet;

    /**
     * @param added reported although the provider does not offer it, or null
     * @param removed offered although the provider does not report it, or null
     * @param hiddenFacet reported, but its facet accessor answers empty, or null
     */
    MisreportingProvider(MemoryProvider delegate, Capability added, Capability removed, Capability hiddenFacet) {
        super(delegate);
        EnumSet<Capability> capabilities = EnumSet.copyOf(delegate.capabilities());
        if (added != null) {
            capabilities.add(added);
        }
        if (removed != null) {
            capabilities.remove(removed);
        }
        this.reported = Set.copyOf(capabilities);
        this.hiddenFacet = hiddenFacet;
    }

    @Override
    public Set<Capability> capabilities() {
        return reported;
    }

    @Override
    public Optional<MemoryGraph> graph() {
        return facet(Capability.GRAPH, delegate().graph());
    }

    @Override
    public Optional<Transactions> transactions() {
        return facet(Capability.TRANSACTIONS, delegate().transactions());
    }

    @Override
    public Optional<VersionHistory> history() {
        return facet(Capability.HISTORY, delegate().history());
    }

    @Override
    public Optional<Reindexing> reindexing() {
        return facet(Capability.REINDEX, delegate().reindexing());
    }

    @Override
    public Optional<Restoring> restoring() {
        return facet(Capability.RESTORE, delegate().restoring());
    }

    private <T> Optional<T> facet(Capability capability, Optional<T> real) {
        return capability == hiddenFacet ? Optional.empty() : real;
    }
}
