package dev.forge.memory.lifecycle;

import dev.forge.memory.Capability;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Restoring;
import dev.forge.memory.Scope;
import dev.forge.memory.StorageException;
import dev.forge.memory.Transactions;
import dev.forge.memory.VersionHistory;
import dev.forge.memory.support.ForwardingMemoryProvider;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The in-memory reference provider seen as a provider without transactions (like the file and markdown providers),
 * optionally failing one write, as a crash between two writes would: the real store behind it keeps what was written.
 */
final class WithoutTransactions extends ForwardingMemoryProvider {

    private final AtomicInteger writesBeforeFailure;

    /** No failure. */
    WithoutTransactions(MemoryProvider delegate) {
        this(delegate, Integer.MAX_VALUE);
    }

    /** Fails the write after {@code writesBeforeFailure} successful ones, once. */
    WithoutTransactions(MemoryProvider delegate, int writesBeforeFailure) {
        super(delegate);
        this.writesBeforeFailure = new AtomicInteger(writesBeforeFailure);
    }

    @Override
    public String name() {
        return "no-transactions(" + delegate().name() + ")";
    }

    @Override
    public MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
        if (writesBeforeFailure.getAndDecrement() == 0) {
            throw new StorageException("simulated crash before writing " + key);
        }
        return super.set(key, value, scope, tags, metadata);
    }

    @Override
    public Set<Capability> capabilities() {
        EnumSet<Capability> capabilities = EnumSet.copyOf(super.capabilities());
        capabilities.removeAll(EnumSet.of(Capability.TRANSACTIONS, Capability.HISTORY, Capability.TOMBSTONES, Capability.RESTORE));
        return Set.copyOf(capabilities);
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
}
