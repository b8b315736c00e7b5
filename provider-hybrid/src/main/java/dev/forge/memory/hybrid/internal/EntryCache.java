package dev.forge.memory.hybrid.internal;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The entry cache and the key locks that every hybrid router of this JVM on one storage shares (found by the storage's
 * identity: its provider name, settings and directories), so that a write through one router is seen by the next read
 * of every other. Another process's writes are seen once the cached copy expires.
 *
 * <p>GLOBAL entries are never cached: routers of different projects share them through the storage but not
 * necessarily this cache (their base directories differ, and with them the storage's identity), so a cached copy could
 * hide another project's write. Their reads always go to the storage.
 *
 * <p>A write holds its key's lock while it changes the storage, the cache and the children; a read that misses the
 * cache holds it while it loads, so that a load never puts back a copy older than a write that overtook it. The locks
 * are striped: two keys may share one.
 */
public final class EntryCache {

    private static final int STRIPES = 256;
    private static final String GLOBAL = "global";
    private static final Map<String, EntryCache> SHARED = new HashMap<>();

    /** A cached key: its scope's namespace (with the project or session it belongs to) and the key. */
    public record Key(String namespace, String key) {
    }

    private final String identity;
    private final Cache<Key, MemoryEntry> cache;
    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];
    private int users;

    private EntryCache(String identity, Duration ttl, int maxEntries) {
        this.identity = identity;
        this.cache = maxEntries > 0 && !ttl.isZero()
                ? Caffeine.newBuilder().expireAfterWrite(ttl).maximumSize(maxEntries).build() : null;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    /**
     * The cache of the storage {@code identity}, made with these settings by its first user; later users share it
     * whatever their settings. Give it back with {@link #release()}.
     */
    public static EntryCache acquire(String identity, Duration ttl, int maxEntries) {
        synchronized (SHARED) {
            EntryCache shared = SHARED.computeIfAbsent(identity, id -> new EntryCache(id, ttl, maxEntries));
            shared.users++;
            return shared;
        }
    }

    /** One user fewer; the last one drops the cache. */
    public void release() {
        synchronized (SHARED) {
            if (--users == 0) {
                SHARED.remove(identity);
            }
        }
    }

    /** The namespace of {@code scope} for a router of {@code project} and {@code session}. */
    public static String namespace(Scope scope, String project, String session) {
        return switch (scope) {
            case GLOBAL -> GLOBAL;
            case PROJECT -> "project\u0000" + project;
            case SESSION -> "session\u0000" + project + "\u0000" + session;
        };
    }

    /** Whether entries are cached at all. */
    public boolean enabled() {
        return cache != null;
    }

    /** The cached entry, or what {@code loader} finds (cached when present), loaded under the key's lock. */
    public Optional<MemoryEntry> get(Key key, Supplier<Optional<MemoryEntry>> loader) {
        if (!cacheable(key)) {
            return loader.get();
        }
        if (cache != null) {
            MemoryEntry cached = cache.getIfPresent(key);
            if (cached != null) {
                return Optional.of(cached);
            }
        }
        ReentrantLock lock = lockOf(key);
        lock.lock();
        try {
            if (cache != null) {
                MemoryEntry cached = cache.getIfPresent(key);
                if (cached != null) {
                    return Optional.of(cached);
                }
            }
            Optional<MemoryEntry> loaded = loader.get();
            if (cache != null) {
                loaded.ifPresent(entry -> cache.put(key, entry));
            }
            return loaded;
        } finally {
            lock.unlock();
        }
    }

    /** Runs {@code work} holding the key's lock. */
    public <T> T locked(Key key, Supplier<T> work) {
        ReentrantLock lock = lockOf(key);
        lock.lock();
        try {
            return work.get();
        } finally {
            lock.unlock();
        }
    }

    /** Runs {@code work} holding the locks of all {@code keys}, taken in a fixed order. */
    public <T> T locked(Collection<Key> keys, Supplier<T> work) {
        TreeSet<Integer> indexes = new TreeSet<>();
        for (Key key : keys) {
            indexes.add(stripeOf(key));
        }
        List<ReentrantLock> held = new ArrayList<>();
        try {
            for (int index : indexes) {
                stripes[index].lock();
                held.add(stripes[index]);
            }
            return work.get();
        } finally {
            for (int i = held.size() - 1; i >= 0; i--) {
                held.get(i).unlock();
            }
        }
    }

    /** Runs {@code work} holding every key lock: for changes of a whole scope. */
    public <T> T lockedAll(Supplier<T> work) {
        int taken = 0;
        try {
            for (; taken < STRIPES; taken++) {
                stripes[taken].lock();
            }
            return work.get();
        } finally {
            for (int i = taken - 1; i >= 0; i--) {
                stripes[i].unlock();
            }
        }
    }

    /** Caches {@code entry} under {@code key}; call holding the key's lock. */
    public void put(Key key, MemoryEntry entry) {
        if (cache != null && cacheable(key)) {
            cache.put(key, entry);
        }
    }

    /** Forgets {@code key}; call holding the key's lock. */
    public void invalidate(Key key) {
        if (cache != null) {
            cache.invalidate(key);
        }
    }

    /** Forgets every key of {@code namespace}; call holding every lock. */
    public void invalidateNamespace(String namespace) {
        if (cache != null) {
            cache.asMap().keySet().removeIf(key -> key.namespace().equals(namespace));
        }
    }

    private static boolean cacheable(Key key) {
        return !key.namespace().equals(GLOBAL);
    }

    private ReentrantLock lockOf(Key key) {
        return stripes[stripeOf(key)];
    }

    private static int stripeOf(Key key) {
        int h = key.hashCode();
        return (h ^ (h >>> 16)) & (STRIPES - 1);
    }
}
