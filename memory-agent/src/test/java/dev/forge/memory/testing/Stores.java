package dev.forge.memory.testing;

import dev.forge.memory.Capability;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Reindexing;
import dev.forge.memory.Restoring;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.Transactions;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.forge.memory.VersionHistory;
import dev.forge.memory.inmemory.InMemoryMemoryProviderFactory;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import dev.forge.memory.support.ForwardingMemoryProvider;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Real in-memory stores for the tests of the context and consolidation packages, with a clock that ticks per read. */
public final class Stores {

    /** Where every {@link Ticking} clock starts. */
    public static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private Stores() {
    }

    /** A fresh in-memory provider (every capability but semantic search) on {@code clock}. */
    public static MemoryProvider inMemory(Clock clock) {
        return new InMemoryMemoryProviderFactory().open(ProviderContext.builder().projectId("p").sessionId("s")
                .clock(clock).registry(ProviderRegistry.of()).build());
    }

    /**
     * The same store as seen by a plain provider without facets (no transactions, history, graph...) that also lacks
     * {@code missing}: a search of a missing mode is refused with {@link UnsupportedCapabilityException}, as a provider
     * does. Every other call goes to the real store.
     */
    public static MemoryProvider without(MemoryProvider store, Capability... missing) {
        return new Without(store, EnumSet.copyOf(List.of(missing)));
    }

    /** A clock that moves one minute forward each time it is read, from {@link #START}. */
    public static final class Ticking extends Clock {
        private Instant now = START;

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public synchronized Instant instant() {
            Instant read = now;
            now = now.plus(Duration.ofMinutes(1));
            return read;
        }
    }

    private static final class Without extends ForwardingMemoryProvider {
        private final Set<Capability> missing;

        Without(MemoryProvider store, Set<Capability> missing) {
            super(store);
            this.missing = missing;
        }

        @Override
        public String name() {
            return "without-" + missing.toString().toLowerCase(java.util.Locale.ROOT);
        }

        @Override
        public List<Hit> search(SearchRequest request) {
            if (missing.contains(request.mode().requiredCapability())) {
                throw new UnsupportedCapabilityException(name(), request.mode().requiredCapability());
            }
            return super.search(request);
        }

        @Override
        public Set<Capability> capabilities() {
            EnumSet<Capability> capabilities = EnumSet.noneOf(Capability.class);
            capabilities.addAll(super.capabilities());
            capabilities.removeAll(missing);
            capabilities.remove(Capability.TRANSACTIONS);
            capabilities.remove(Capability.GRAPH);
            capabilities.remove(Capability.HISTORY);
            capabilities.remove(Capability.TOMBSTONES);
            capabilities.remove(Capability.RESTORE);
            capabilities.remove(Capability.REINDEX);
            return capabilities;
        }

        @Override
        public Optional<MemoryGraph> graph() {
            return Optional.empty();
        }

        @Override
        public Optional<Transactions> transactions() {
            return Optional.empty();
        }

        @Override
        public Optional<VersionHistory> history() {
            return Optional.empty();
        }

        @Override
        public Optional<Restoring> restoring() {
            return Optional.empty();
        }

        @Override
        public Optional<Reindexing> reindexing() {
            return Optional.empty();
        }
    }
}
