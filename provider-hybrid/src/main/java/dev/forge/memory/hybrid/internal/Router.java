package dev.forge.memory.hybrid.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Capability;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Restoring;
import dev.forge.memory.Scope;
import dev.forge.memory.spi.ProviderContext;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path of a hybrid router: the storage (the source of truth) with the shared entry cache in front, and the
 * search and relationships children kept in step with it. A write goes to the storage and the cache under the key's
 * lock, then to each child; an update a child misses (it failed, or earlier updates of it still wait) is appended to
 * the durable {@link Outbox} and replayed, in order, once the child answers again.
 */
public final class Router {

    private static final Logger LOG = LoggerFactory.getLogger(Router.class);

    private final ProviderContext context;
    private final MemoryProvider storage;
    private final Secondary search;
    private final Secondary relationships;
    private final List<Secondary> secondaries;
    private final EntryCache cache;
    private final Outbox outbox;
    private final OpenState state;

    /**
     * A router's write path.
     *
     * @param search        the search child, or null
     * @param relationships the relationships child, or null
     * @param outbox        the outbox, or null when there is no child
     */
    public Router(ProviderContext context, MemoryProvider storage, Secondary search, Secondary relationships,
            EntryCache cache, Outbox outbox, OpenState state) {
        this.context = context;
        this.storage = storage;
        this.search = search;
        this.relationships = relationships;
        List<Secondary> list = new ArrayList<>();
        if (search != null) {
            list.add(search);
        }
        if (relationships != null) {
            list.add(relationships);
        }
        this.secondaries = List.copyOf(list);
        this.cache = cache;
        this.outbox = outbox;
        this.state = state;
    }

    /** The storage child. */
    public MemoryProvider storage() {
        return storage;
    }

    /** The search child, if configured. */
    public Optional<Secondary> search() {
        return Optional.ofNullable(search);
    }

    /** The relationships child, if configured. */
    public Optional<Secondary> relationships() {
        return Optional.ofNullable(relationships);
    }

    /** The search and relationships children that are configured. */
    public List<Secondary> secondaries() {
        return secondaries;
    }

    /** The outbox, if there is a child. */
    public Optional<Outbox> outbox() {
        return Optional.ofNullable(outbox);
    }

    EntryCache cache() {
        return cache;
    }

    /** The router's open state. */
    public OpenState state() {
        return state;
    }

    /** The entry from the cache, else from the storage (and then cached). */
    public Optional<MemoryEntry> get(String key, Scope scope) {
        return cache.get(cacheKey(key, scope), () -> storage.get(key, scope));
    }

    EntryCache.Key cacheKey(String key, Scope scope) {
        return new EntryCache.Key(EntryCache.namespace(scope, context.projectId(), context.sessionId()), key);
    }

    /** Runs {@code work} holding the cache's lock of {@code key} in {@code scope}. */
    public <T> T locked(String key, Scope scope, Supplier<T> work) {
        return cache.locked(cacheKey(key, scope), work);
    }

    /**
     * A write of one key: {@code inStorage} (which also updates the cache) and then {@code inChild} for each child, all
     * under the key's lock; a child that fails, or whose earlier updates still wait, gets a {@code missedOp} record in
     * the outbox.
     */
    public <T> T keyWrite(String key, Scope scope, Outbox.Op missedOp, Function<EntryCache.Key, T> inStorage,
            BiConsumer<Secondary, T> inChild) {
        Set<Outbox.Child> queued = queuedChildren();
        List<Outbox.Entry> missed = new ArrayList<>();
        EntryCache.Key cached = cacheKey(key, scope);
        T result = cache.locked(cached, () -> {
            T done = inStorage.apply(cached);
            for (Secondary child : secondaries) {
                if (queued.contains(child.role) || !push(child, () -> inChild.accept(child, done))) {
                    missed.add(record(child, missedOp, key, scope));
                }
            }
            return done;
        });
        append(missed);
        return result;
    }

    /**
     * A write of many keys at once (an import's batch): {@code inStorage} and then {@code inChild} for each child, with
     * the batch's result, all holding the keys' locks; a child that fails, or whose earlier updates still wait, gets a
     * {@code missedOp} record of every key of the batch in the outbox. If {@code inStorage} fails on a storage without
     * transactions, which may have kept part of the batch, every child gets those records too (replaying one makes the
     * child's copy the storage's, whatever it is), and the failure is rethrown.
     */
    public <T> T keysWrite(List<EntryRef> refs, Outbox.Op missedOp, Function<List<EntryCache.Key>, T> inStorage,
            BiConsumer<Secondary, T> inChild) {
        Set<Outbox.Child> queued = queuedChildren();
        Set<EntryRef> distinct = new LinkedHashSet<>(refs);
        List<EntryCache.Key> keys = refs.stream().map(ref -> cacheKey(ref.key(), ref.scope())).toList();
        List<Outbox.Entry> missed = new ArrayList<>();
        T result;
        try {
            result = cache.locked(keys, () -> {
                T done;
                try {
                    done = inStorage.apply(keys);
                } catch (RuntimeException e) {
                    if (!storage.capabilities().contains(Capability.TRANSACTIONS)) {
                        secondaries.forEach(child -> distinct.forEach(ref -> missed.add(record(child, missedOp, ref.key(),
                                ref.scope()))));
                    }
                    throw e;
                }
                for (Secondary child : secondaries) {
                    if (queued.contains(child.role) || !push(child, () -> inChild.accept(child, done))) {
                        distinct.forEach(ref -> missed.add(record(child, missedOp, ref.key(), ref.scope())));
                    }
                }
                return done;
            });
        } catch (RuntimeException e) {
            try {
                append(missed);
            } catch (RuntimeException outbox) {
                e.addSuppressed(outbox);
            }
            throw e;
        }
        append(missed);
        return result;
    }

    /**
     * A write of a whole scope ({@code inStorage}, then {@code inChild} for each child) holding every key lock; a
     * child that fails, or whose earlier updates still wait, gets a clear record in the outbox.
     */
    public int clearing(Scope scope, Supplier<Integer> inStorage, Consumer<Secondary> inChild) {
        Set<Outbox.Child> queued = queuedChildren();
        List<Outbox.Entry> missed = new ArrayList<>();
        int removed = cache.lockedAll(() -> {
            int count = inStorage.get();
            cache.invalidateNamespace(EntryCache.namespace(scope, context.projectId(), context.sessionId()));
            for (Secondary child : secondaries) {
                if (queued.contains(child.role) || !push(child, () -> inChild.accept(child))) {
                    missed.add(record(child, Outbox.Op.CLEAR, "", scope));
                }
            }
            return count;
        });
        append(missed);
        return removed;
    }

    /**
     * Makes a child's copy of a restored key the storage's, holding the key's lock. A child that can restore gets the
     * key's versions as the storage holds them, so that its copy has the same versions and timestamps; another gets the
     * current entry set, as after a set, unless its copy already has that content (a second restore of the same chain
     * then changes nothing there either). The copy is never deleted first: the key's relations stay, as the contract
     * of a restore says. A key the storage no longer has (deleted after the restore, before a replay) is deleted.
     */
    public void restoreInChild(Secondary child, String key, Scope scope) {
        MemoryProvider provider = child.provider();
        Optional<MemoryEntry> stored = storage.get(key, scope);
        if (stored.isEmpty()) {
            provider.delete(key, scope);
            return;
        }
        MemoryEntry current = stored.get();
        Optional<Restoring> exact = provider.restoring();
        if (exact.isPresent()) {
            exact.get().restore(storedChain(current));
            return;
        }
        setUnlessSame(provider, current);
    }

    /**
     * Makes a child's copies of the keys of {@code restored}, the current entries a storage batch restore returned, the
     * storage's, holding the keys' locks, as {@link #restoreInChild} does one by one: a child that can restore gets them
     * in one batch (with the storage's versions of each key where the child keeps history, else just the current entry,
     * all it would keep), another each entry set unless its copy already has that content.
     */
    public void restoreAllInChild(Secondary child, List<MemoryEntry> restored) {
        MemoryProvider provider = child.provider();
        Optional<Restoring> exact = provider.restoring();
        if (exact.isPresent()) {
            boolean history = provider.capabilities().contains(Capability.HISTORY);
            exact.get().restoreAll(restored.stream().map(entry -> history ? storedChain(entry) : List.of(entry)).toList());
            return;
        }
        restored.forEach(entry -> setUnlessSame(provider, entry));
    }

    /** Sets {@code current} in a child that cannot restore, unless its copy already has that content. */
    private static void setUnlessSame(MemoryProvider provider, MemoryEntry current) {
        Optional<MemoryEntry> copy = provider.get(current.key(), current.scope());
        if (copy.isEmpty() || !ChildCopies.sameContent(copy.get(), current)) {
            provider.set(current.key(), current.value(), current.scope(), current.tags(), current.metadata());
        }
    }

    /**
     * The storage's versions of {@code current}'s key, ending with it; just {@code current} where the storage keeps no
     * history (or its history does not end with the current entry, which a concurrent write of another process can
     * cause for a moment: the child then gets what get returned).
     */
    private List<MemoryEntry> storedChain(MemoryEntry current) {
        if (storage.history().isPresent()) {
            List<MemoryEntry> versions = storage.requireHistory().versions(current.key(), current.scope());
            if (!versions.isEmpty() && versions.get(versions.size() - 1).equals(current)) {
                return versions;
            }
        }
        return List.of(current);
    }

    /** Pushes an update to a child; false (and the child marked down) if it failed. */
    private boolean push(Secondary child, Runnable update) {
        try {
            update.run();
            return true;
        } catch (RuntimeException e) {
            markDown(child, e);
            return false;
        }
    }

    /** Notes that {@code child} failed: its updates wait in the outbox until it is tried again. */
    public void markDown(Secondary child, RuntimeException e) {
        child.failed();
        if (!child.down) {
            child.down = true;
            LOG.warn("The {} failed ({}): its updates wait in the outbox {} and are replayed when it answers again,"
                    + " tried every {}", child.label, e.getMessage(), outbox.directory(), child.retryDelay());
        } else {
            LOG.debug("The {} failed again", child.label, e);
        }
    }

    /** An outbox record of {@code op} on {@code key} in {@code scope} for {@code child}. */
    Outbox.Entry record(Secondary child, Outbox.Op op, String key, Scope scope) {
        return Outbox.Entry.of(child.target, child.role, op, context.projectId(), context.sessionId(), scope, key);
    }

    void append(List<Outbox.Entry> missed) {
        if (!missed.isEmpty()) {
            outbox.append(missed);
        }
    }

    /**
     * The children whose updates must go to the outbox because earlier ones wait there. Replays first when the outbox
     * has something and a child may be tried again; never called holding a key lock (a replay takes them).
     */
    public Set<Outbox.Child> queuedChildren() {
        if (outbox == null || !outbox.maybePending()) {
            return Set.of();
        }
        long now = System.nanoTime();
        boolean due = false;
        for (Secondary child : secondaries) {
            due |= now - child.retryAt >= 0;
        }
        if (due) {
            replay(false);
        }
        Set<Outbox.Child> queued = EnumSet.noneOf(Outbox.Child.class);
        if (!outbox.maybePending()) {
            return queued;
        }
        List<Outbox.Entry> waiting;
        try {
            waiting = outbox.entries();
        } catch (MemoryException e) {
            // the order of the children's updates cannot be known: queue them all, the storage write goes on
            LOG.warn("Cannot read the hybrid outbox ({}); updates of the search and relationships providers are queued",
                    e.getMessage());
            return EnumSet.allOf(Outbox.Child.class);
        }
        for (Outbox.Entry entry : waiting) {
            if (!entry.failed() && mine(entry)) {
                queued.add(entry.child());
            }
        }
        return queued;
    }

    /**
     * Whether this router replays {@code entry}: those of its own children (same provider and settings) for the global
     * scope, its project and its session.
     */
    public boolean mine(Outbox.Entry entry) {
        Secondary child = child(entry);
        if (child == null || !child.targets(entry)) {
            return false;
        }
        return switch (entry.scope()) {
            case GLOBAL -> true;
            case PROJECT -> entry.project().equals(context.projectId());
            case SESSION -> entry.project().equals(context.projectId()) && entry.session().equals(context.sessionId());
        };
    }

    /** The number of updates waiting in the outbox for this router's project and session. */
    public int pendingUpdates() {
        return outbox == null ? 0 : (int) outbox.entries().stream().filter(this::mine).count();
    }

    /**
     * Replays what waits in the outbox for this router: of the children that may be tried again, or with
     * {@code retryFailed} of every child, and the updates that failed before for other reasons too.
     */
    public void replay(boolean retryFailed) {
        if (outbox == null) {
            return;
        }
        long now = System.nanoTime();
        Outbox.DrainReport report = outbox.drain(entry -> mine(entry) && (retryFailed || now - child(entry).retryAt >= 0),
                this::replayOne, retryFailed, retryFailed);
        if (report.replayed() > 0) {
            LOG.info("Replayed {} outbox updates of the search and relationships providers; {} still wait",
                    report.replayed(), report.remaining());
        }
    }

    /** Lets every child be tried again at once. */
    public void retryNow() {
        for (Secondary child : secondaries) {
            child.retryAt = 0;
        }
    }

    private Secondary child(Outbox.Entry entry) {
        return entry.child() == Outbox.Child.SEARCH ? search : relationships;
    }

    /** Brings {@code child}'s copy of {@code key} in {@code scope} to the storage's, now, as a replay of a sync would. */
    public void sync(Secondary child, String key, Scope scope) {
        replayOne(record(child, Outbox.Op.SYNC, key, scope));
    }

    private Outbox.Result replayOne(Outbox.Entry entry) {
        Secondary child = child(entry);
        try {
            switch (entry.op()) {
                case CLEAR -> reconcile(child, entry.scope());
                case RESTORE -> cache.locked(cacheKey(entry.key(), entry.scope()), () -> {
                    restoreInChild(child, entry.key(), entry.scope());
                    return null;
                });
                case RESET, SYNC -> cache.locked(cacheKey(entry.key(), entry.scope()), () -> {
                    if (entry.op() == Outbox.Op.RESET) {
                        child.provider().delete(entry.key(), entry.scope());
                    }
                    Optional<MemoryEntry> stored = storage.get(entry.key(), entry.scope());
                    if (stored.isPresent()) {
                        MemoryEntry e = stored.get();
                        child.provider().set(e.key(), e.value(), e.scope(), e.tags(), e.metadata());
                    } else if (entry.op() == Outbox.Op.SYNC) {
                        child.provider().delete(entry.key(), entry.scope());
                    }
                    return null;
                });
            }
            if (child.down) {
                child.down = false;
                LOG.info("The {} answers again; replaying its waiting updates", child.label);
            }
            return Outbox.Result.DONE;
        } catch (BackendUnavailableException e) {
            markDown(child, e);
            return new Outbox.Result(Outbox.Outcome.UNAVAILABLE, e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("The {} refused a waiting update of '{}' in {} ({}); it stays in the outbox and is tried again by"
                    + " 'forge-memory reindex'", child.label, entry.key(), entry.scope(), e.toString());
            return new Outbox.Result(Outbox.Outcome.FAILED, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /**
     * A missed clear: removes from {@code scope} of the child every entry the storage no longer has. Unlike a blind
     * clear, this cannot undo a write that reached the child after the clear was missed.
     */
    private void reconcile(Secondary child, Scope scope) {
        for (MemoryEntry copy : child.provider().query(Query.builder().scopes(scope).build())) {
            cache.locked(cacheKey(copy.key(), copy.scope()), () -> {
                if (storage.get(copy.key(), copy.scope()).isEmpty()) {
                    child.provider().delete(copy.key(), copy.scope());
                }
                return null;
            });
        }
    }
}
