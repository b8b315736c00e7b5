package dev.forge.memory.hybrid.internal;

import dev.forge.memory.EntryRef;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Scope;
import dev.forge.memory.support.EntryWrite;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A storage transaction whose commit also brings a hybrid router's children up to date: their updates are appended to
 * the outbox before the storage commits (so a crash right after the commit cannot lose them), then replayed.
 */
public final class RouterTransaction implements MemoryTransaction {

    private final Router router;
    private final MemoryTransaction inner;
    private final Limits limits;
    private final Set<EntryRef> touched = new LinkedHashSet<>();
    private final Set<EntryRef> deleted = new HashSet<>();

    /**
     * Wraps {@code inner}, a transaction of {@code router}'s storage.
     *
     * @param limits the router's limits, which writes are checked against
     */
    public RouterTransaction(Router router, MemoryTransaction inner, Limits limits) {
        this.router = router;
        this.inner = inner;
        this.limits = limits;
    }

    @Override
    public Optional<MemoryEntry> get(String key, Scope scope) {
        router.state().checkOpen();
        return inner.get(key, scope);
    }

    @Override
    public MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
        router.state().checkOpen();
        if (inner.isActive()) {
            EntryWrite.validate(key, value, scope, tags, metadata, limits);
        }
        MemoryEntry entry = inner.set(key, value, scope, tags, metadata);
        touched.add(EntryRef.of(key, scope));
        return entry;
    }

    /** Checks every write against the router's limits, then hands them to the storage's transaction in one call. */
    @Override
    public List<MemoryEntry> setAll(List<Write> writes) {
        router.state().checkOpen();
        if (inner.isActive()) {
            writes.forEach(w -> EntryWrite.validate(w.key(), w.value(), w.scope(), w.tags(), w.metadata(), limits));
        }
        List<MemoryEntry> entries = inner.setAll(writes);
        writes.forEach(w -> touched.add(EntryRef.of(w.key(), w.scope())));
        return entries;
    }

    @Override
    public boolean delete(String key, Scope scope) {
        router.state().checkOpen();
        boolean existed = inner.delete(key, scope);
        touched.add(EntryRef.of(key, scope));
        deleted.add(EntryRef.of(key, scope));
        return existed;
    }

    @Override
    public void commit() {
        router.state().checkOpen();
        if (touched.isEmpty() || !inner.isActive()) {
            inner.commit();
            return;
        }
        List<Outbox.Entry> updates = new ArrayList<>();
        List<EntryCache.Key> keys = new ArrayList<>();
        for (EntryRef ref : touched) {
            keys.add(router.cacheKey(ref.key(), ref.scope()));
            for (Secondary child : router.secondaries()) {
                updates.add(router.record(child, deleted.contains(ref) ? Outbox.Op.RESET : Outbox.Op.SYNC, ref.key(),
                        ref.scope()));
            }
        }
        EntryCache cache = router.cache();
        cache.locked(keys, () -> {
            router.append(updates);
            inner.commit();
            keys.forEach(cache::invalidate);
            return null;
        });
        if (!updates.isEmpty()) {
            router.replay(false);
        }
    }

    @Override
    public void rollback() {
        router.state().checkOpen();
        inner.rollback();
    }

    @Override
    public boolean isActive() {
        return !router.state().isClosed() && inner.isActive();
    }

    @Override
    public void close() {
        inner.close();
    }
}
