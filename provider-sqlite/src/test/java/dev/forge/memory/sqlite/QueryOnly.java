package dev.forge.memory.sqlite;

import dev.forge.memory.Capability;
import dev.forge.memory.Hit;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Restoring;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.VersionHistory;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A provider without its {@link dev.forge.memory.support.KeyPages}, as a provider wrapping another (the hybrid router) is:
 * the transfer code reads it through query and history.
 */
record QueryOnly(MemoryProvider provider) implements MemoryProvider {

    @Override
    public String name() {
        return provider.name();
    }

    @Override
    public Optional<MemoryEntry> get(String key, Scope scope) {
        return provider.get(key, scope);
    }

    @Override
    public MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
        return provider.set(key, value, scope, tags, metadata);
    }

    @Override
    public List<MemoryEntry> query(Query query) {
        return provider.query(query);
    }

    @Override
    public List<Hit> search(SearchRequest request) {
        return provider.search(request);
    }

    @Override
    public boolean delete(String key, Scope scope) {
        return provider.delete(key, scope);
    }

    @Override
    public int clear(Scope scope) {
        return provider.clear(scope);
    }

    @Override
    public Set<Capability> capabilities() {
        return provider.capabilities();
    }

    @Override
    public Limits limits() {
        return provider.limits();
    }

    @Override
    public Optional<MemoryGraph> graph() {
        return provider.graph();
    }

    @Override
    public Optional<VersionHistory> history() {
        return provider.history();
    }

    @Override
    public Optional<Restoring> restoring() {
        return provider.restoring();
    }

    @Override
    public List<StoreProblem> doctor() {
        return provider.doctor();
    }

    @Override
    public void close() {
        // the test closes the provider itself
    }
}
