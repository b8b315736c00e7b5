package dev.forge.memory.hybrid;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Capability;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.Filter;
import dev.forge.memory.GraphPath;
import dev.forge.memory.Hit;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Query;
import dev.forge.memory.Reindexing;
import dev.forge.memory.Relation;
import dev.forge.memory.Restoring;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.Transactions;
import dev.forge.memory.Traversal;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.forge.memory.VersionHistory;
import dev.forge.memory.hybrid.internal.ChildCopies;
import dev.forge.memory.hybrid.internal.EntryCache;
import dev.forge.memory.hybrid.internal.Outbox;
import dev.forge.memory.EntryRules;
import dev.forge.memory.support.EntryWrite;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.support.SemanticScorer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code hybrid} provider: a router over a storage provider (the source of truth), an optional search provider
 * and an optional relationships provider, with a Caffeine cache in front. The children are any providers found by
 * name through provider discovery, third-party ones included.
 *
 * <h2>Routing</h2>
 * <ul>
 *   <li>get: the cache, else the storage (the entry found is cached). set, delete, clear, restore: the storage first,
 *       then the cache, then the search and relationships children. query, history, transactions: the storage.</li>
 *   <li>search: KEYWORD and SEMANTIC go to the search child when it has the mode, else to the storage. HYBRID, when
 *       the search child has semantic search, fuses its semantic ranking with the storage's keyword ranking by
 *       weighted reciprocal rank fusion ({@link HybridConfig.Fusion}); without that, the storage's own HYBRID serves
 *       it. Hits always carry the entries as the storage holds them: a hit the storage no longer has is dropped, and the
 *       request's filter is checked again on the stored entry. There is no graph neighbourhood expansion.</li>
 *   <li>relate, unrelate, relations, traverse: the relationships child, else the storage's graph, else none.</li>
 *   <li>restore (present when the storage has {@link Capability#RESTORE}): a child that can restore gets the key's
 *       versions as the storage then holds them, so that its copy has the same versions and timestamps; another child
 *       gets the current entry as after a set. The key's relations stay in either.</li>
 * </ul>
 *
 * <h2>Consistency</h2>
 * <ul>
 *   <li>A write returns once the storage has it; from then on every get, query and history of every router of this
 *       JVM on that storage sees it (the cache is shared and updated under the key's lock).</li>
 *   <li>A write then updates the search and relationships children before it returns. If one of them fails, the
 *       write still succeeds: the update is appended to the durable outbox (forced to the disk) and replayed, in
 *       order, once the child answers again (tried at most every {@code outbox.retry_interval}, before the next write or
 *       search, and by {@link Reindexing#reindex}). Meanwhile searches fall back to the storage's keyword search
 *       with a warning, and relation calls fail with {@link BackendUnavailableException}.</li>
 *   <li>A transaction commits in the storage first. Its updates of the children are appended to the outbox before
 *       the commit and replayed right after it: between the two, readers see the committed entries through get and
 *       query but searches may not find them yet; after {@code commit()} returns they do, unless a child is down.</li>
 *   <li>Other processes on the same storage see a write at once through the storage; this JVM's cached copy of an
 *       entry another process changed stays until {@code cache.ttl} passes (GLOBAL entries are never cached). A
 *       process killed between the storage write and the children's update (as long as the children take to answer)
 *       leaves them behind until {@code forge-memory reindex}; {@link #doctor()} names each such entry.</li>
 *   <li>A search or relationships child that cannot be reached when the router opens is opened later, when it
 *       answers; until then it is treated as down.</li>
 * </ul>
 *
 * <p>Capabilities are computed from the children: keyword and semantic search if the storage or the search child
 * has them, the graph if the relationships child (or else the storage) has it, transactions, history, tombstones and
 * restore as the storage, reindex whenever there is a search or relationships child or the storage can reindex. Size
 * limits are the strictest of all children's.
 */
public final class HybridMemoryProvider implements MemoryProvider {

    /** The name config selects this provider by. */
    public static final String NAME = "hybrid";

    private static final Logger LOG = LoggerFactory.getLogger(HybridMemoryProvider.class);

    /** What the router knows of a secondary child when it opens: the child, or null if it could not be reached. */
    private record Opening(MemoryProvider provider, Set<Capability> capabilities) {
    }

    /**
     * One secondary child: its role, its provider (opened when the router opens, or later, when it could not be
     * reached then) and when it may be tried again after it failed.
     */
    private final class Secondary {
        final Outbox.Child role;
        final String roleName;
        final String label;
        final Map<String, Object> settings;
        final String target;
        /** The target records were tagged with before secrets were kept out of it; still replayed. */
        final String earlierTarget;
        /** The child's capabilities, or its factory's declared ones while it has not been opened. */
        final Set<Capability> capabilities;
        private volatile MemoryProvider opened;
        volatile long retryAt;
        volatile boolean down;

        Secondary(Outbox.Child role, Map<String, Object> settings, Opening opening) {
            this.role = role;
            this.roleName = role == Outbox.Child.SEARCH ? "search" : "relationships";
            this.settings = settings;
            Set<String> secrets = context.config().child(roleName).map(ProviderConfig::secretValues).orElse(Set.of());
            this.target = Outbox.target(role, settings, secrets);
            this.earlierTarget = Outbox.target(role, settings, Set.of());
            this.label = roleName + " provider '" + settings.get(HybridConfig.PROVIDER_KEY) + "'";
            this.opened = opening.provider();
            this.capabilities = opening.provider() != null ? opening.provider().capabilities() : opening.capabilities();
            if (opening.provider() == null) {
                down = true;
                retryAt = System.nanoTime() + retryNanos;
            }
        }

        /**
         * The child, opened now if it could not be reached before and may be tried again.
         *
         * @throws BackendUnavailableException if it still cannot be reached
         */
        MemoryProvider provider() {
            MemoryProvider child = opened;
            if (child != null) {
                return child;
            }
            synchronized (this) {
                if (opened != null) {
                    return opened;
                }
                checkOpen();
                if (System.nanoTime() - retryAt < 0) {
                    throw new BackendUnavailableException("The " + label + " could not be reached when the hybrid"
                            + " provider opened; it is tried again every " + config.outbox().retryInterval() + ".");
                }
                try {
                    opened = openChild(context, context.config(), roleName, settings);
                } catch (BackendUnavailableException e) {
                    retryAt = System.nanoTime() + retryNanos;
                    throw e;
                }
                LOG.info("Opened the {}, which could not be reached before", label);
                return opened;
            }
        }

        /** The child if it is open. */
        Optional<MemoryProvider> ifOpen() {
            return Optional.ofNullable(opened);
        }

        synchronized void close() {
            if (opened != null) {
                opened.close();
            }
        }

        /** Whether {@code entry} is tagged as this child's, now or before secrets were kept out of the tag. */
        boolean targets(Outbox.Entry entry) {
            return target.equals(entry.target()) || earlierTarget.equals(entry.target());
        }

    }

    /** A search child's {@link BackendUnavailableException}, told apart from the storage's. */
    private static final class SearchChildUnavailable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SearchChildUnavailable(BackendUnavailableException cause) {
            super(cause.getMessage(), cause, false, false);
        }
    }

    private final ProviderContext context;
    private final HybridConfig config;
    private final MemoryProvider storage;
    private final Secondary search;
    private final Secondary relationships;
    private final List<Secondary> secondaries;
    private final EntryCache cache;
    private final Outbox outbox;
    private final Set<Capability> capabilities;
    private final Limits limits;
    private final long retryNanos;
    private final Optional<MemoryGraph> graph;
    private final Optional<Transactions> transactions;
    private final Optional<VersionHistory> history;
    private final Optional<Reindexing> reindexing;
    private final Optional<Restoring> restoring;
    private volatile boolean closed;

    private HybridMemoryProvider(ProviderContext context, HybridConfig config, MemoryProvider storage,
            Opening search, Opening relationships, EntryCache cache, Outbox outbox) {
        this.context = context;
        this.config = config;
        this.storage = storage;
        this.retryNanos = config.outbox().retryInterval().duration().toNanos();
        this.search = search == null ? null : new Secondary(Outbox.Child.SEARCH, config.search(), search);
        this.relationships = relationships == null ? null
                : new Secondary(Outbox.Child.RELATIONSHIPS, config.relationships(), relationships);
        List<Secondary> list = new ArrayList<>();
        if (this.search != null) {
            list.add(this.search);
        }
        if (this.relationships != null) {
            list.add(this.relationships);
        }
        this.secondaries = List.copyOf(list);
        this.cache = cache;
        this.outbox = outbox;
        this.capabilities = Collections.unmodifiableSet(computeCapabilities());
        this.limits = strictest();
        this.graph = capabilities.contains(Capability.GRAPH)
                ? Optional.of(relationships != null ? new RelationsGraph() : storage.graph().orElseThrow()) : Optional.empty();
        this.transactions = capabilities.contains(Capability.TRANSACTIONS) ? Optional.of(this::begin) : Optional.empty();
        this.history = capabilities.contains(Capability.HISTORY) ? Optional.of(new History()) : Optional.empty();
        this.reindexing = capabilities.contains(Capability.REINDEX) ? Optional.of(this::reindex) : Optional.empty();
        this.restoring = capabilities.contains(Capability.RESTORE) ? Optional.of(this::restore) : Optional.empty();
    }

    /**
     * Opens the children the config names, through the context's provider registry, and the outbox, then replays
     * what the outbox holds for this project and session.
     *
     * @throws ConfigurationException if a child is unknown or misconfigured, or the relationships child has no graph
     * @throws BackendUnavailableException if the storage cannot be reached (a search or relationships child that cannot
     *                                     be reached is opened later); the children already open are closed
     */
    static HybridMemoryProvider open(ProviderContext context, HybridConfig config) {
        ProviderConfig block = context.config();
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            for (String role : List.of("search", "relationships")) {
                Map<String, Object> secondary = "search".equals(role) ? config.search() : config.relationships();
                if (config.storage().equals(secondary)) {
                    throw new ConfigurationException(block.source() + ": '" + role + "' names the same provider and"
                            + " settings as 'storage', so every write would land twice in one store. Leave '" + role
                            + "' out (the storage's own " + ("search".equals(role) ? "search" : "graph")
                            + " serves it) or give it a store of its own (another path).", block.source(),
                            block.path() + "." + role, null);
                }
            }
            MemoryProvider storage = openChild(context, block, "storage", config.storage());
            opened.add(storage);
            Opening search = config.search() == null ? null : openSecondary(context, block, "search", config.search(), opened);
            Opening relationships = config.relationships() == null ? null
                    : openSecondary(context, block, "relationships", config.relationships(), opened);
            if (relationships != null && !relationships.capabilities().contains(Capability.GRAPH)) {
                throw new ConfigurationException(block.source() + ": the relationships provider '"
                        + config.relationships().get(HybridConfig.PROVIDER_KEY) + "' has no graph (GRAPH capability); use"
                        + " one that lists GRAPH under 'forge-memory providers', such as graph or sqlite, or leave"
                        + " 'relationships' out.", block.source(), block.path() + ".relationships.provider", null);
            }
            Outbox outbox = null;
            if (search != null || relationships != null) {
                outbox = Outbox.open(context.resolve(config.outbox().path()));
                Outbox opening = outbox;
                opened.add(opening::close);
            }
            String identity = storage.name() + "|" + new TreeMap<>(config.storage()) + "|" + context.baseDirectory() + "|"
                    + context.forgeHome();
            EntryCache cache = EntryCache.acquire(identity, config.cache().ttl().duration(),
                    config.cache().enabled() ? config.cache().maxEntries() : 0);
            opened.add(cache::release);
            HybridMemoryProvider provider = new HybridMemoryProvider(context, config, storage, search, relationships,
                    cache, outbox);
            provider.replay(false);
            return provider;
        } catch (RuntimeException e) {
            for (int i = opened.size() - 1; i >= 0; i--) {
                try {
                    opened.get(i).close();
                } catch (Exception suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    /**
     * Opens a search or relationships child. One that cannot be reached does not stop the router: it opens without it,
     * counting the child's factory's declared capabilities, queues the child's updates in the outbox, and opens it
     * when it answers.
     */
    private static Opening openSecondary(ProviderContext context, ProviderConfig block, String role,
            Map<String, Object> settings, List<AutoCloseable> opened) {
        try {
            MemoryProvider child = openChild(context, block, role, settings);
            opened.add(child);
            return new Opening(child, child.capabilities());
        } catch (BackendUnavailableException e) {
            String name = (String) settings.get(HybridConfig.PROVIDER_KEY);
            LOG.warn("The {} provider '{}' cannot be reached ({}); the hybrid provider opens without it: its updates"
                    + " wait in the outbox and it is opened when it answers", role, name, e.getMessage());
            return new Opening(null, context.registry().factory(name).capabilities());
        }
    }

    private static MemoryProvider openChild(ProviderContext context, ProviderConfig block, String role,
            Map<String, Object> settings) {
        String name = (String) settings.get(HybridConfig.PROVIDER_KEY);
        Map<String, Object> own = new LinkedHashMap<>(settings);
        own.remove(HybridConfig.PROVIDER_KEY);
        // the secret paths go along: a child (its embedding model) keeps them out of what it says and records
        return context.open(name, ProviderConfig.of(own, block.source(), block.path() + "." + role)
                .withSecretPaths(block.secretPaths()));
    }

    private Set<Capability> computeCapabilities() {
        Set<Capability> own = storage.capabilities();
        Set<Capability> found = EnumSet.noneOf(Capability.class);
        Set<Capability> searching = search == null ? Set.of() : search.capabilities;
        if (own.contains(Capability.KEYWORD_SEARCH) || searching.contains(Capability.KEYWORD_SEARCH)) {
            found.add(Capability.KEYWORD_SEARCH);
        }
        if (own.contains(Capability.SEMANTIC_SEARCH) || searching.contains(Capability.SEMANTIC_SEARCH)) {
            found.add(Capability.SEMANTIC_SEARCH);
        }
        if (relationships != null || own.contains(Capability.GRAPH)) {
            found.add(Capability.GRAPH);
        }
        for (Capability kept : List.of(Capability.TRANSACTIONS, Capability.HISTORY, Capability.TOMBSTONES,
                Capability.RESTORE)) {
            if (own.contains(kept)) {
                found.add(kept);
            }
        }
        if (!secondaries.isEmpty() || own.contains(Capability.REINDEX)) {
            found.add(Capability.REINDEX);
        }
        return found;
    }

    private Limits strictest() {
        Limits strict = storage.limits();
        for (Secondary child : secondaries) {
            if (child.ifOpen().isEmpty()) {
                continue; // a child opened later may refuse a write these limits let through: its outbox record fails
            }
            Limits other = child.ifOpen().get().limits();
            strict = new Limits(Math.min(strict.maxKeyLength(), other.maxKeyLength()),
                    Math.min(strict.maxValueBytes(), other.maxValueBytes()), Math.min(strict.maxTags(), other.maxTags()),
                    Math.min(strict.maxTagLength(), other.maxTagLength()),
                    Math.min(strict.maxMetadataBytes(), other.maxMetadataBytes()));
        }
        return strict;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<Capability> capabilities() {
        return capabilities;
    }

    @Override
    public Limits limits() {
        return limits;
    }

    /** The storage child: the source of truth. */
    public MemoryProvider storage() {
        return storage;
    }

    /** The search child, if configured. */
    public Optional<MemoryProvider> searchProvider() {
        return Optional.ofNullable(search).map(Secondary::provider);
    }

    /** The relationships child, if configured. */
    public Optional<MemoryProvider> relationshipsProvider() {
        return Optional.ofNullable(relationships).map(Secondary::provider);
    }

    /** The number of updates waiting in the outbox for this router's project and session. */
    public int pendingUpdates() {
        checkOpen();
        return outbox == null ? 0 : (int) outbox.entries().stream().filter(this::mine).count();
    }

    /**
     * Replays the outbox now: every update of this project, this session and the global scope that a child missed,
     * in order, including those that failed before for other reasons than an unreachable child.
     *
     * @return how many updates are still waiting (for this router's project and session)
     */
    public int replayOutbox() {
        checkOpen();
        for (Secondary child : secondaries) {
            child.retryAt = 0;
        }
        replay(true);
        return pendingUpdates();
    }

    // ------------------------------------------------------------------ entries

    @Override
    public Optional<MemoryEntry> get(String key, Scope scope) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(scope, "scope");
        checkOpen();
        return cache.get(cacheKey(key, scope), () -> storage.get(key, scope));
    }

    @Override
    public MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
        Objects.requireNonNull(tags, "tags");
        Objects.requireNonNull(metadata, "metadata");
        checkOpen();
        EntryWrite.validate(key, value, scope, tags, metadata, limits);
        return keyWrite(key, scope, Outbox.Op.SYNC, cached -> {
            MemoryEntry entry = storage.set(key, value, scope, tags, metadata);
            cache.put(cached, entry);
            return entry;
        }, (child, entry) -> child.provider().set(entry.key(), entry.value(), entry.scope(), entry.tags(), entry.metadata()));
    }

    /**
     * A write of one key: {@code inStorage} (which also updates the cache) and then {@code inChild} for each child, all
     * under the key's lock; a child that fails, or whose earlier updates still wait, gets a sync record in the outbox.
     */
    private <T> T keyWrite(String key, Scope scope, Outbox.Op missedOp,
            java.util.function.Function<EntryCache.Key, T> inStorage, java.util.function.BiConsumer<Secondary, T> inChild) {
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

    @Override
    public boolean delete(String key, Scope scope) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(scope, "scope");
        checkOpen();
        // the children delete also when the storage had nothing: one may hold an orphan a crash left behind
        return keyWrite(key, scope, Outbox.Op.RESET, cached -> {
            boolean existed = storage.delete(key, scope);
            cache.invalidate(cached);
            return existed;
        }, (child, existed) -> child.provider().delete(key, scope));
    }

    /**
     * A restore: the storage restores the chain (and checks it again), the cache takes the current entry, then each
     * child is brought to the storage's copy of the key ({@link #restoreInChild}); a child that fails, or whose earlier
     * updates still wait, gets a {@link Outbox.Op#RESTORE} record instead.
     */
    private MemoryEntry restore(List<MemoryEntry> versions) {
        checkOpen();
        // the strictest limits of all children: a chain one child would refuse never reaches the storage
        List<MemoryEntry> chain = EntryRules.checkChain(versions, limits);
        MemoryEntry last = chain.get(chain.size() - 1);
        return keyWrite(last.key(), last.scope(), Outbox.Op.RESTORE, cached -> {
            MemoryEntry entry = storage.requireRestoring().restore(chain);
            cache.put(cached, entry);
            return entry;
        }, (child, entry) -> restoreInChild(child, entry.key(), entry.scope()));
    }

    /**
     * Makes a child's copy of a restored key the storage's, holding the key's lock. A child that can restore gets the
     * key's versions as the storage holds them, so that its copy has the same versions and timestamps; another gets the
     * current entry set, as after a set, unless its copy already has that content (a second restore of the same chain
     * then changes nothing there either). The copy is never deleted first: the key's relations stay, as the contract
     * of a restore says. A key the storage no longer has (deleted after the restore, before a replay) is deleted.
     */
    private void restoreInChild(Secondary child, String key, Scope scope) {
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
        Optional<MemoryEntry> copy = provider.get(key, scope);
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

    @Override
    public int clear(Scope scope) {
        return clearing(scope, () -> storage.clear(scope), child -> child.provider().clear(scope));
    }

    @Override
    public int endSession() {
        return clearing(Scope.SESSION, storage::endSession, child -> child.provider().endSession());
    }

    private int clearing(Scope scope, Supplier<Integer> inStorage, java.util.function.Consumer<Secondary> inChild) {
        Objects.requireNonNull(scope, "scope");
        checkOpen();
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

    @Override
    public List<MemoryEntry> query(Query query) {
        Objects.requireNonNull(query, "query");
        checkOpen();
        return storage.query(query);
    }

    // ------------------------------------------------------------------ search

    @Override
    public List<Hit> search(SearchRequest request) {
        Objects.requireNonNull(request, "request");
        checkOpen();
        Capability needed = request.mode().requiredCapability();
        if (!capabilities.contains(needed)) {
            throw new UnsupportedCapabilityException(NAME, needed);
        }
        if (search == null || !search.capabilities.contains(needed)) {
            return storage.search(request);
        }
        if (queuedChildren().contains(Outbox.Child.SEARCH)) {
            return fallback(request, "it has updates waiting in the outbox");
        }
        try {
            if (request.mode() == SearchMode.HYBRID) {
                return hybrid(request);
            }
            return fresh(request, depth -> childSearch(childRequest(request, request.mode(), depth, request.threshold())));
        } catch (SearchChildUnavailable e) {
            BackendUnavailableException cause = (BackendUnavailableException) e.getCause();
            markDown(search, cause);
            return fallback(request, cause.getMessage());
        }
    }

    /** A search of the search child; its {@link BackendUnavailableException} becomes {@link SearchChildUnavailable}. */
    private List<Hit> childSearch(SearchRequest request) {
        try {
            return search.provider().search(request);
        } catch (BackendUnavailableException e) {
            throw new SearchChildUnavailable(e);
        }
    }

    /**
     * HYBRID: the search child's semantic ranking and the storage's keyword ranking (the search child's where the
     * storage has no keyword search), each {@code max(100, 4 × limit)} deep and computed with the request's scopes and
     * filter, fused by weighted reciprocal rank fusion.
     */
    private List<Hit> hybrid(SearchRequest request) {
        MemoryProvider keywords = storage.capabilities().contains(Capability.KEYWORD_SEARCH) ? storage : null;
        return fresh(request, depth -> {
            int ranked = Math.max(100, depth);
            List<Hit> semantic = childSearch(childRequest(request, SearchMode.SEMANTIC, ranked, 0.0));
            SearchRequest keywordRequest = new SearchRequest(request.text(), request.scopes(), SearchMode.KEYWORD,
                    ranked, 0.0, request.filter());
            List<Hit> keyword = keywords != null ? storage.search(keywordRequest) : childSearch(keywordRequest);
            SearchRequest unlimited = new SearchRequest(request.text(), request.scopes(), SearchMode.HYBRID,
                    SearchRequest.MAX_LIMIT, request.threshold(), request.filter());
            return SemanticScorer.fuse(unlimited, keyword, semantic, config.fusion().rrfK(),
                    config.fusion().keywordWeight());
        });
    }

    /**
     * The search child's request: the request's filter without {@code updatedBefore}, which the child would check on its
     * own copy's time (later than the storage's when the copy came from the outbox); every filter is checked again on
     * the stored entry.
     */
    private static SearchRequest childRequest(SearchRequest request, SearchMode mode, int depth, double threshold) {
        Filter filter = request.filter();
        Filter loose = new Filter(filter.tags(), filter.metadata(), filter.updatedAfter(), Optional.empty());
        return new SearchRequest(request.text(), request.scopes(), mode, depth, threshold, loose);
    }

    /**
     * Hits with the entries as stored: asks {@code ranking} for twice the limit (and more while hits drop out), replaces
     * each hit's entry with the storage's, drops those the storage no longer has or the filter rejects.
     */
    private List<Hit> fresh(SearchRequest request, java.util.function.IntFunction<List<Hit>> ranking) {
        int depth = Math.min(SearchRequest.MAX_LIMIT, Math.max(request.limit() * 2, request.limit() + 10));
        while (true) {
            List<Hit> ranked = ranking.apply(depth);
            List<Hit> hits = new ArrayList<>();
            for (Hit hit : ranked) {
                Optional<MemoryEntry> stored = get(hit.entry().key(), hit.entry().scope());
                if (stored.isPresent() && request.filter().matches(stored.get())) {
                    hits.add(new Hit(stored.get(), hit.score()));
                    if (hits.size() == request.limit()) {
                        return hits;
                    }
                } else if (stored.isEmpty()) {
                    LOG.debug("Search hit {} of the search provider is not in the storage; left out", hit.entry().ref());
                }
            }
            if (ranked.size() < depth || depth >= SearchRequest.MAX_LIMIT) {
                return hits;
            }
            depth = (int) Math.min(SearchRequest.MAX_LIMIT, depth * 4L);
        }
    }

    private List<Hit> fallback(SearchRequest request, String reason) {
        if (!storage.capabilities().contains(Capability.KEYWORD_SEARCH)) {
            throw new BackendUnavailableException("The " + search.label + " cannot search (" + reason + ") and the"
                    + " storage provider '" + storage.name() + "' has no keyword search to fall back on. Try again when"
                    + " the search provider is back.");
        }
        LOG.warn("The {} cannot search ({}); answering {} search with the storage provider '{}''s keyword search, whose"
                + " ranking differs", search.label, reason, request.mode(), storage.name());
        return storage.search(new SearchRequest(request.text(), request.scopes(), SearchMode.KEYWORD, request.limit(),
                request.threshold(), request.filter()));
    }

    // ------------------------------------------------------------------ children and outbox

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

    private void markDown(Secondary child, RuntimeException e) {
        child.retryAt = System.nanoTime() + retryNanos;
        if (!child.down) {
            child.down = true;
            LOG.warn("The {} failed ({}): its updates wait in the outbox {} and are replayed when it answers again,"
                    + " tried every {}", child.label, e.getMessage(), outbox.directory(),
                    Duration.ofNanos(retryNanos));
        } else {
            LOG.debug("The {} failed again", child.label, e);
        }
    }

    private Outbox.Entry record(Secondary child, Outbox.Op op, String key, Scope scope) {
        return Outbox.Entry.of(child.target, child.role, op, context.projectId(), context.sessionId(), scope, key);
    }

    private void append(List<Outbox.Entry> missed) {
        if (!missed.isEmpty()) {
            outbox.append(missed);
        }
    }

    /**
     * The children whose updates must go to the outbox because earlier ones wait there. Replays first when the outbox
     * has something and a child may be tried again; never called holding a key lock (a replay takes them).
     */
    private Set<Outbox.Child> queuedChildren() {
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
    private boolean mine(Outbox.Entry entry) {
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

    private void replay(boolean retryFailed) {
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

    private Secondary child(Outbox.Entry entry) {
        return entry.child() == Outbox.Child.SEARCH ? search : relationships;
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

    private EntryCache.Key cacheKey(String key, Scope scope) {
        return new EntryCache.Key(EntryCache.namespace(scope, context.projectId(), context.sessionId()), key);
    }

    private void checkOpen() {
        if (closed) {
            throw new BackendUnavailableException("The hybrid provider is closed; open a new one.");
        }
    }

    // ------------------------------------------------------------------ facets

    @Override
    public Optional<MemoryGraph> graph() {
        return graph;
    }

    @Override
    public Optional<Transactions> transactions() {
        return transactions;
    }

    @Override
    public Optional<VersionHistory> history() {
        return history;
    }

    @Override
    public Optional<Reindexing> reindexing() {
        return reindexing;
    }

    /** Present when the storage can restore; see {@link #restore}. */
    @Override
    public Optional<Restoring> restoring() {
        return restoring;
    }

    /** Relations in the relationships child, which must be reachable and up to date. */
    private final class RelationsGraph implements MemoryGraph {

        private MemoryGraph reachable() {
            checkOpen();
            if (queuedChildren().contains(Outbox.Child.RELATIONSHIPS)) {
                throw new BackendUnavailableException("The " + relationships.label + " cannot be reached: it has updates"
                        + " waiting in the outbox " + outbox.directory() + ". Relations are kept there only; try again"
                        + " when it is back (updates are retried every " + config.outbox().retryInterval() + ").");
            }
            return relationships.provider().requireGraph();
        }

        private <T> T call(Supplier<T> work) {
            try {
                return work.get();
            } catch (BackendUnavailableException e) {
                if (!closed) {
                    markDown(relationships, e);
                }
                throw e;
            }
        }

        @Override
        public Relation relate(EntryRef from, EntryRef to, String type) {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(type, "type");
            EntryRules.checkRelationType(type);
            MemoryGraph graph = reachable();
            for (EntryRef end : List.of(from, to)) {
                if (get(end.key(), end.scope()).isEmpty()) {
                    throw new EntryNotFoundException("Cannot relate " + from + " to " + to + ": there is no entry '"
                            + end.key() + "' in " + end.scope().name().toLowerCase(java.util.Locale.ROOT)
                            + " scope. Store it first.");
                }
            }
            return call(() -> {
                try {
                    return graph.relate(from, to, type);
                } catch (EntryNotFoundException e) {
                    // the child missed an entry (written by a process whose update of it failed): bring both ends over
                    for (EntryRef end : List.of(from, to)) {
                        replayOne(record(relationships, Outbox.Op.SYNC, end.key(), end.scope()));
                    }
                    return graph.relate(from, to, type);
                }
            });
        }

        @Override
        public boolean unrelate(EntryRef from, EntryRef to, String type) {
            MemoryGraph graph = reachable();
            return call(() -> graph.unrelate(from, to, type));
        }

        @Override
        public List<Relation> relations(EntryRef entry, Direction direction) {
            MemoryGraph graph = reachable();
            return call(() -> graph.relations(entry, direction));
        }

        @Override
        public List<GraphPath> traverse(EntryRef start, Traversal traversal) {
            MemoryGraph graph = reachable();
            return call(() -> graph.traverse(start, traversal));
        }
    }

    /** The storage's history; purges also reach the cache and the children. */
    private final class History implements VersionHistory {

        @Override
        public List<MemoryEntry> versions(String key, Scope scope) {
            checkOpen();
            return storage.requireHistory().versions(key, scope);
        }

        @Override
        public Optional<MemoryEntry> version(String key, Scope scope, long version) {
            checkOpen();
            return storage.requireHistory().version(key, scope, version);
        }

        @Override
        public boolean purge(String key, Scope scope) {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(scope, "scope");
            checkOpen();
            return keyWrite(key, scope, Outbox.Op.RESET, cached -> {
                boolean existed = storage.requireHistory().purge(key, scope);
                cache.invalidate(cached);
                return existed;
            }, (child, existed) -> purgeInChild(child, key, scope));
        }

        @Override
        public int purge(Scope scope) {
            return clearing(scope, () -> storage.requireHistory().purge(scope), child -> {
                if (child.provider().history().isPresent()) {
                    child.provider().requireHistory().purge(scope);
                } else {
                    child.provider().clear(scope);
                }
            });
        }

        private void purgeInChild(Secondary child, String key, Scope scope) {
            if (child.provider().history().isPresent()) {
                child.provider().requireHistory().purge(key, scope);
            } else {
                child.provider().delete(key, scope);
            }
        }
    }

    private MemoryTransaction begin() {
        checkOpen();
        return new HybridTransaction(storage.requireTransactions().begin());
    }

    /**
     * A storage transaction whose commit also brings the children up to date: their updates are appended to the
     * outbox before the storage commits (so a crash right after the commit cannot lose them), then replayed.
     */
    private final class HybridTransaction implements MemoryTransaction {
        private final MemoryTransaction inner;
        private final Set<EntryRef> touched = new LinkedHashSet<>();
        private final Set<EntryRef> deleted = new java.util.HashSet<>();

        HybridTransaction(MemoryTransaction inner) {
            this.inner = inner;
        }

        @Override
        public Optional<MemoryEntry> get(String key, Scope scope) {
            checkOpen();
            return inner.get(key, scope);
        }

        @Override
        public MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
            checkOpen();
            if (inner.isActive()) {
                EntryWrite.validate(key, value, scope, tags, metadata, limits);
            }
            MemoryEntry entry = inner.set(key, value, scope, tags, metadata);
            touched.add(EntryRef.of(key, scope));
            return entry;
        }

        @Override
        public boolean delete(String key, Scope scope) {
            checkOpen();
            boolean existed = inner.delete(key, scope);
            touched.add(EntryRef.of(key, scope));
            deleted.add(EntryRef.of(key, scope));
            return existed;
        }

        @Override
        public void commit() {
            checkOpen();
            if (touched.isEmpty() || !inner.isActive()) {
                inner.commit();
                return;
            }
            List<Outbox.Entry> updates = new ArrayList<>();
            List<EntryCache.Key> keys = new ArrayList<>();
            for (EntryRef ref : touched) {
                keys.add(cacheKey(ref.key(), ref.scope()));
                for (Secondary child : secondaries) {
                    updates.add(record(child, deleted.contains(ref) ? Outbox.Op.RESET : Outbox.Op.SYNC, ref.key(),
                            ref.scope()));
                }
            }
            cache.locked(keys, () -> {
                append(updates);
                inner.commit();
                keys.forEach(cache::invalidate);
                return null;
            });
            if (!updates.isEmpty()) {
                replay(false);
            }
        }

        @Override
        public void rollback() {
            checkOpen();
            inner.rollback();
        }

        @Override
        public boolean isActive() {
            return !closed && inner.isActive();
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    /**
     * Rebuilds the children from the storage: each child that can reindex itself does (a new embedding model, say),
     * then every entry of this project, this session and the global scope is written to the children where their copy
     * differs, copies the storage does not have are deleted, and the outbox's updates for this router (failed ones
     * included) are dropped, since the rebuild covers them. Progress counts the storage's entries.
     */
    private Reindexing.ReindexResult reindex(Reindexing.Progress progress) {
        Objects.requireNonNull(progress, "progress");
        checkOpen();
        long started = System.nanoTime();
        String fingerprint = "";
        Reindexing.ReindexResult own = null;
        if (storage.reindexing().isPresent()) {
            own = storage.reindexing().get().reindex();
            fingerprint = own.fingerprint();
        }
        List<MemoryEntry> entries = storage.query(Query.builder().build());
        long total = entries.size();
        progress.update(0, total);
        for (Secondary child : secondaries) {
            if (child.provider().reindexing().isPresent()) {
                Reindexing.ReindexResult result = child.provider().reindexing().get().reindex();
                if (!result.fingerprint().isEmpty()) {
                    fingerprint = result.fingerprint();
                }
            }
        }
        Map<EntryRef, MemoryEntry> stored = new HashMap<>();
        for (MemoryEntry entry : entries) {
            stored.put(entry.ref(), entry);
        }
        long done = 0;
        for (MemoryEntry entry : entries) {
            cache.locked(cacheKey(entry.key(), entry.scope()), () -> {
                Optional<MemoryEntry> now = storage.get(entry.key(), entry.scope());
                for (Secondary child : secondaries) {
                    Optional<MemoryEntry> copy = child.provider().get(entry.key(), entry.scope());
                    if (now.isPresent() && (copy.isEmpty() || !ChildCopies.sameContent(copy.get(), now.get()))) {
                        MemoryEntry e = now.get();
                        child.provider().set(e.key(), e.value(), e.scope(), e.tags(), e.metadata());
                    } else if (now.isEmpty() && copy.isPresent()) {
                        child.provider().delete(entry.key(), entry.scope());
                    }
                }
                return null;
            });
            progress.update(++done, total);
        }
        for (Secondary child : secondaries) {
            for (MemoryEntry copy : child.provider().query(Query.builder().build())) {
                if (!stored.containsKey(copy.ref())) {
                    cache.locked(cacheKey(copy.key(), copy.scope()), () -> {
                        if (storage.get(copy.key(), copy.scope()).isEmpty()) {
                            child.provider().delete(copy.key(), copy.scope());
                        }
                        return null;
                    });
                }
            }
            child.retryAt = 0;
        }
        // what waits in the outbox is covered by the rebuild; replaying it again is harmless and empties it
        replay(true);
        progress.update(total, total);
        return new Reindexing.ReindexResult(own != null ? Math.max(own.entries(), total) : total, fingerprint,
                Duration.ofNanos(System.nanoTime() - started));
    }

    // ------------------------------------------------------------------ the rest

    /**
     * The storage's problems, each child's (prefixed with its role) or that it cannot be reached, every entry whose
     * copy in a child is missing, older than the storage's or left over (see {@link ChildCopies}; the keys whose
     * updates wait in the outbox aside), and the updates that wait in the outbox or failed there.
     */
    @Override
    public List<StoreProblem> doctor() {
        checkOpen();
        List<StoreProblem> problems = new ArrayList<>(storage.doctor());
        List<Outbox.Entry> waiting = outbox == null ? List.of() : outbox.entries();
        for (Secondary child : secondaries) {
            if (child.ifOpen().isEmpty()) {
                problems.add(new StoreProblem(child.label, "cannot be reached; its updates wait in the outbox"));
                continue;
            }
            List<StoreProblem> own;
            try {
                own = child.ifOpen().get().doctor();
            } catch (BackendUnavailableException e) {
                // a child that went down is one of the problems to list, not a reason to list none
                problems.add(new StoreProblem(child.label, "cannot be reached (" + e.getMessage()
                        + "); its updates wait in the outbox"));
                continue;
            }
            for (StoreProblem problem : own) {
                problems.add(new StoreProblem(child.label + ": " + problem.location(), problem.problem()));
            }
            problems.addAll(ChildCopies.problems(child.label, child.role, storage, child.ifOpen().get(),
                    waiting.stream().filter(this::mine).toList(), (ref, work) -> cache.locked(cacheKey(ref.key(),
                    ref.scope()), work)));
        }
        if (outbox != null) {
            for (Outbox.Entry entry : waiting) {
                String what = switch (entry.op()) {
                    case CLEAR -> "clearing of " + entry.scope() + " scope";
                    case RESTORE -> "restore of '" + entry.key() + "' in " + entry.scope() + " scope";
                    case SYNC, RESET -> "update of '" + entry.key() + "' in " + entry.scope() + " scope";
                };
                String location = outbox.directory().resolve(Outbox.FILE_NAME) + " (" + entry.child().name()
                        .toLowerCase(java.util.Locale.ROOT) + ")";
                problems.add(new StoreProblem(location, entry.failed()
                        ? "the " + what + " failed " + entry.attempts() + " times (" + entry.error()
                          + "); run 'forge-memory reindex' to rebuild the child from the storage"
                        : "the " + what + " waits for the child to answer again"));
            }
        }
        return problems;
    }

    /** Closes the children and gives the cache and the outbox back. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        RuntimeException failure = null;
        List<AutoCloseable> parts = new ArrayList<>();
        for (Secondary child : secondaries) {
            parts.add(child::close);
        }
        parts.add(storage);
        if (outbox != null) {
            parts.add(outbox::close);
        }
        parts.add(cache::release);
        for (AutoCloseable part : parts) {
            try {
                part.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e instanceof RuntimeException r ? r : new BackendUnavailableException(e.getMessage(), e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "HybridMemoryProvider[storage=" + storage.name() + (search == null ? "" : ", " + search.label)
                + (relationships == null ? "" : ", " + relationships.label) + ", " + context + "]";
    }
}
