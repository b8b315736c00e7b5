package dev.forge.memory.lifecycle;

import dev.forge.memory.Capability;
import dev.forge.memory.Hit;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StorageException;
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
final class WithoutTransactions implements MemoryProvider {

    private final MemoryProvider delegate;
    private final AtomicInteger writesBeforeFailure;

    /** No failure. */
    WithoutTransactions(MemoryProvider delegate) {
        this(delegate, Integer.MAX_VALUE);
    }

    /** Fails the write after {@code writesBeforeFailure} successful ones, once. */
    WithoutTransactions(MemoryProvider delegate, int writesBeforeFailure) {
        this.delegate = delegate;
        this.writesBeforeFailure = new AtomicInteger(writesBeforeFailure);
    }

    @Override
    public String name() {
        return "no-transactions(" + delegate.name() + ")";
    }

    @Override
    public Optional<MemoryEntry> get(String key, Scope scope) {
        return delegate.get(key, scope);
    }

    @Override
    public MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
        if (writesBeforeFailure.getAndDecrement() == 0) {
            throw new StorageException("simulated crash before writing " + key);
        }
        return delegate.set(key, value, scope, tags, metadata);
    }

    @Override
    public List<MemoryEntry> query(Query query) {
        return delegate.query(query);
    }

    @Override
    public List<Hit> search(SearchRequest request) {
        return delegate.search(request);
    }

    @Override
    public boolean delete(String key, Scope scope) {
        return delegate.delete(key, scope);
    }

    @Override
    public int clear(Scope scope) {
        return delegate.clear(scope);
    }

    @Override
    public Set<Capability> capabilities() {
        EnumSet<Capability> capabilities = EnumSet.copyOf(delegate.capabilities());
        capabilities.removeAll(EnumSet.of(Capability.TRANSACTIONS, Capability.HISTORY, Capability.TOMBSTONES, Capability.RESTORE));
        return Set.copyOf(capabilities);
    }

    @Override
    public Limits limits() {
        return delegate.limits();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
