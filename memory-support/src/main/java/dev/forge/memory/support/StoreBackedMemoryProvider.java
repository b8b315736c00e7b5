package dev.forge.memory.support;

import dev.forge.memory.EntryRules;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Restoring;
import dev.forge.memory.Scope;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A provider whose core calls go to an {@link EntryStore}: {@code set} validates the write first
 * ({@link EntryWrite#validate} against {@link #limits()}), {@link #restore} checks the chain
 * ({@link EntryRules#checkChain}); everything else is the store's. Facets are offered as in
 * {@link FacetedMemoryProvider}.
 */
public abstract class StoreBackedMemoryProvider extends FacetedMemoryProvider {

    private final EntryStore entries;

    /** A provider over {@code entries}. */
    protected StoreBackedMemoryProvider(EntryStore entries) {
        this.entries = Objects.requireNonNull(entries, "entries");
    }

    @Override
    public Optional<MemoryEntry> get(String key, Scope scope) {
        return entries.get(key, scope);
    }

    @Override
    public MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
        entries.checkOpen();
        return entries.set(EntryWrite.validate(key, value, scope, tags, metadata, limits()));
    }

    @Override
    public List<MemoryEntry> query(Query query) {
        return entries.query(query);
    }

    @Override
    public boolean delete(String key, Scope scope) {
        return entries.delete(key, scope);
    }

    @Override
    public int clear(Scope scope) {
        return entries.clear(scope);
    }

    @Override
    public int endSession() {
        return entries.endSession();
    }

    /**
     * Checks {@code versions} with {@link EntryRules#checkChain} and hands them to the store: what a provider offers
     * as {@code offerRestoring(this::restore)}.
     *
     * @throws dev.forge.memory.BackendUnavailableException if the store is closed
     */
    protected final MemoryEntry restore(List<MemoryEntry> versions) {
        entries.checkOpen();
        return entries.restore(EntryRules.checkChain(versions, limits()));
    }

    /**
     * The restore facet: {@link #restore}, and batches checked whole ({@link EntryRules#checkChain} for every chain)
     * before {@link EntryStore#restoreAll} writes any, so a refused chain writes nothing of its batch.
     */
    protected final Restoring restorer() {
        return Facets.restoring(chains -> {
            entries.checkOpen();
            List<List<MemoryEntry>> checked = chains.stream().map(chain -> EntryRules.checkChain(chain, limits())).toList();
            return checked.isEmpty() ? List.of() : entries.restoreAll(checked);
        });
    }
}
