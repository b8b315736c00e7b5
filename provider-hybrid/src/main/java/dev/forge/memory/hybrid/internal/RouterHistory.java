package dev.forge.memory.hybrid.internal;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.VersionHistory;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** A hybrid router's history: the storage's; purges also reach the cache and the children. */
public final class RouterHistory implements VersionHistory {

    private final Router router;
    private final MemoryProvider storage;

    /** The history of {@code router}'s storage. */
    public RouterHistory(Router router) {
        this.router = router;
        this.storage = router.storage();
    }

    @Override
    public List<MemoryEntry> versions(String key, Scope scope) {
        router.state().checkOpen();
        return storage.requireHistory().versions(key, scope);
    }

    @Override
    public List<String> deletedKeys(Scope scope) {
        router.state().checkOpen();
        return storage.requireHistory().deletedKeys(scope);
    }

    @Override
    public Optional<MemoryEntry> version(String key, Scope scope, long version) {
        router.state().checkOpen();
        return storage.requireHistory().version(key, scope, version);
    }

    @Override
    public boolean purge(String key, Scope scope) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(scope, "scope");
        router.state().checkOpen();
        return router.keyWrite(key, scope, Outbox.Op.RESET, cached -> {
            boolean existed = storage.requireHistory().purge(key, scope);
            router.cache().invalidate(cached);
            return existed;
        }, (child, existed) -> purgeInChild(child, key, scope));
    }

    @Override
    public int purge(Scope scope) {
        Objects.requireNonNull(scope, "scope");
        router.state().checkOpen();
        return router.clearing(scope, () -> storage.requireHistory().purge(scope), child -> {
            if (child.provider().history().isPresent()) {
                child.provider().requireHistory().purge(scope);
            } else {
                child.provider().clear(scope);
            }
        });
    }

    private static void purgeInChild(Secondary child, String key, Scope scope) {
        if (child.provider().history().isPresent()) {
            child.provider().requireHistory().purge(key, scope);
        } else {
            child.provider().delete(key, scope);
        }
    }
}
