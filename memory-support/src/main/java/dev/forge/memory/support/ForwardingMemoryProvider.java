package dev.forge.memory.support;

import dev.forge.memory.Capability;
import dev.forge.memory.FieldIndexing;
import dev.forge.memory.Hit;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Reindexing;
import dev.forge.memory.Restoring;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.Transactions;
import dev.forge.memory.VersionHistory;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A provider that hands every call to another, for decorators such as metrics, logging, or a provider that hides a
 * capability: a subclass overrides only what it changes.
 *
 * <p>Every method of {@link MemoryProvider} that does work forwards to {@link #delegate()}, default methods and facet
 * accessors included ({@code endSession}, {@code limits}, {@code doctor}, {@code graph}...), so a delegate's own
 * versions of them are kept. Two kinds stay as the interface defines them, because they are built on this provider's
 * other methods and so follow a subclass's overrides: the three-argument {@code set} (it calls the full {@code set})
 * and the {@code requireGraph}-style accessors (they call the facet accessor and {@code name}).
 *
 * <p>A subclass that hides a capability overrides {@link #capabilities()} and, so that the capability set and the
 * facets agree, the facet accessor of that capability: {@link #graph()} for {@link Capability#GRAPH},
 * {@link #transactions()} for {@link Capability#TRANSACTIONS}, {@link #history()} for {@link Capability#HISTORY}
 * (dropping {@link Capability#TOMBSTONES} with it), {@link #restoring()} for {@link Capability#RESTORE},
 * {@link #reindexing()} for {@link Capability#REINDEX} and {@link #fieldIndexing()} for
 * {@link Capability#FIELD_INDEX}. To hide a search mode it overrides {@link #search(SearchRequest)} too, refusing the
 * mode with {@link dev.forge.memory.UnsupportedCapabilityException}.
 */
public abstract class ForwardingMemoryProvider implements MemoryProvider {

    private final MemoryProvider delegate;

    /** Forwards to {@code delegate}. */
    protected ForwardingMemoryProvider(MemoryProvider delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The provider every call goes to. */
    protected final MemoryProvider delegate() {
        return delegate;
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public Optional<MemoryEntry> get(String key, Scope scope) {
        return delegate.get(key, scope);
    }

    @Override
    public MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
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
    public int endSession() {
        return delegate.endSession();
    }

    @Override
    public Set<Capability> capabilities() {
        return delegate.capabilities();
    }

    @Override
    public Limits limits() {
        return delegate.limits();
    }

    @Override
    public Optional<MemoryGraph> graph() {
        return delegate.graph();
    }

    @Override
    public Optional<Transactions> transactions() {
        return delegate.transactions();
    }

    @Override
    public Optional<VersionHistory> history() {
        return delegate.history();
    }

    @Override
    public Optional<Reindexing> reindexing() {
        return delegate.reindexing();
    }

    @Override
    public Optional<Restoring> restoring() {
        return delegate.restoring();
    }

    @Override
    public Optional<FieldIndexing> fieldIndexing() {
        return delegate.fieldIndexing();
    }

    @Override
    public List<StoreProblem> doctor() {
        return delegate.doctor();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
