package dev.forge.memory.hybrid;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Capability;
import dev.forge.memory.FieldIndexing;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.EntryRules;
import dev.forge.memory.Hit;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Query;
import dev.forge.memory.Reindexing;
import dev.forge.memory.Restoring;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.Transactions;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.forge.memory.VersionHistory;
import dev.forge.memory.hybrid.internal.ChildCopies;
import dev.forge.memory.hybrid.internal.ChildReindex;
import dev.forge.memory.hybrid.internal.EntryCache;
import dev.forge.memory.hybrid.internal.OpenState;
import dev.forge.memory.hybrid.internal.Outbox;
import dev.forge.memory.hybrid.internal.RelationsGraph;
import dev.forge.memory.hybrid.internal.Router;
import dev.forge.memory.hybrid.internal.RouterDoctor;
import dev.forge.memory.hybrid.internal.RouterHistory;
import dev.forge.memory.hybrid.internal.RouterTransaction;
import dev.forge.memory.hybrid.internal.SearchRouter;
import dev.forge.memory.hybrid.internal.Secondary;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.support.Facets;
import dev.forge.memory.support.EntryWrite;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code hybrid} provider: a router over a storage provider (the source of truth), an optional search provider
 * and an optional relationships provider, with a Caffeine cache in front. The children are any providers found by
 * name through provider discovery, third-party ones included.
 *
 * <ul>
 *   <li>A write returns once the storage has it; from then on every get, query and history of every router of this
 *       JVM on that storage sees it. Search hits always carry the entries as the storage holds them.</li>
 *   <li>A search or relationships child that fails never fails a write: the missed update waits in a durable outbox
 *       and is replayed, in order, once the child answers again. Meanwhile searches fall back to the storage's
 *       keyword search and relation calls fail with {@link BackendUnavailableException}; {@link Reindexing#reindex}
 *       rebuilds the children from the storage.</li>
 *   <li>A transaction commits in the storage first; once {@code commit()} returns, searches find its entries unless
 *       a child is down.</li>
 *   <li>Other processes see a write at once through the storage; this JVM's cached copy of an entry another process
 *       changed stays until {@code cache.ttl} passes. {@link #doctor()} names each entry a killed process left
 *       behind in a child.</li>
 * </ul>
 *
 * <p>Capabilities are computed from the children (transactions, history, tombstones, {@link Capability#RESTORE} and
 * {@link Capability#FIELD_INDEX} as the storage's), and size limits are the strictest of all children's.
 *
 * <p>Routing, the outbox, several processes and settings: docs/providers/hybrid.md.
 */
public final class HybridMemoryProvider implements MemoryProvider {

    /** The name config selects this provider by. */
    public static final String NAME = "hybrid";

    private static final Logger LOG = LoggerFactory.getLogger(HybridMemoryProvider.class);

    private final ProviderContext context;
    private final OpenState state;
    private final Router router;
    private final MemoryProvider storage;
    private final Secondary search;
    private final Secondary relationships;
    private final EntryCache cache;
    private final Set<Capability> capabilities;
    private final Limits limits;
    private final SearchRouter searching;
    private final Optional<MemoryGraph> graph;
    private final Optional<Transactions> transactions;
    private final Optional<VersionHistory> history;
    private final Optional<Reindexing> reindexing;
    private final Optional<Restoring> restoring;
    private final Optional<FieldIndexing> fieldIndexing;

    private HybridMemoryProvider(ProviderContext context, HybridConfig config, MemoryProvider storage,
            Secondary.Opening search, Secondary.Opening relationships, EntryCache cache, Outbox outbox) {
        this.context = context;
        this.state = new OpenState();
        this.storage = storage;
        this.search = search == null ? null : secondary(Outbox.Child.SEARCH, config.search(), search, config);
        this.relationships = relationships == null ? null
                : secondary(Outbox.Child.RELATIONSHIPS, config.relationships(), relationships, config);
        this.cache = cache;
        this.router = new Router(context, storage, this.search, this.relationships, cache, outbox, state);
        this.capabilities = Collections.unmodifiableSet(computeCapabilities());
        this.limits = strictest();
        this.searching = this.search == null ? null
                : new SearchRouter(router, this.search, config.fusion().method(),
                        config.fusion().rrfK(), config.fusion().keywordWeight());
        this.graph = capabilities.contains(Capability.GRAPH) ? Optional.of(relationships != null
                ? new RelationsGraph(router, this.relationships) : storage.graph().orElseThrow()) : Optional.empty();
        this.transactions = capabilities.contains(Capability.TRANSACTIONS) ? Optional.of(this::begin) : Optional.empty();
        this.history = capabilities.contains(Capability.HISTORY) ? Optional.of(new RouterHistory(router))
                : Optional.empty();
        this.reindexing = capabilities.contains(Capability.REINDEX) ? Optional.of(new ChildReindex(router))
                : Optional.empty();
        this.restoring = capabilities.contains(Capability.RESTORE) ? Optional.of(Facets.restoring(this::restoreAll))
                : Optional.empty();
        // Queries are answered by the storage, so its indexes are the ones that matter; the cache holds no query results.
        this.fieldIndexing = capabilities.contains(Capability.FIELD_INDEX) ? Optional.of(field -> {
            state.checkOpen();
            storage.requireFieldIndexing().index(field);
        }) : Optional.empty();
    }

    private Secondary secondary(Outbox.Child role, Map<String, Object> settings, Secondary.Opening opening,
            HybridConfig config) {
        String roleName = Secondary.roleName(role);
        Set<String> secrets = context.config().child(roleName).map(ProviderConfig::secretValues).orElse(Set.of());
        return new Secondary(role, settings, (String) settings.get(HybridConfig.PROVIDER_KEY), secrets, opening,
                () -> openChild(context, context.config(), roleName, settings), config.outbox().retryInterval(), state);
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
            Secondary.Opening search = config.search() == null ? null
                    : openSecondary(context, block, "search", config.search(), opened);
            Secondary.Opening relationships = config.relationships() == null ? null
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
            provider.router.replay(false);
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
    private static Secondary.Opening openSecondary(ProviderContext context, ProviderConfig block, String role,
            Map<String, Object> settings, List<AutoCloseable> opened) {
        try {
            MemoryProvider child = openChild(context, block, role, settings);
            opened.add(child);
            return new Secondary.Opening(child, child.capabilities());
        } catch (BackendUnavailableException e) {
            String name = (String) settings.get(HybridConfig.PROVIDER_KEY);
            LOG.warn("The {} provider '{}' cannot be reached ({}); the hybrid provider opens without it: its updates"
                    + " wait in the outbox and it is opened when it answers", role, name, e.getMessage());
            return new Secondary.Opening(null, context.registry().factory(name).capabilities());
        }
    }

    private static MemoryProvider openChild(ProviderContext context, ProviderConfig block, String role,
            Map<String, Object> settings) {
        String name = (String) settings.get(HybridConfig.PROVIDER_KEY);
        Map<String, Object> own = new LinkedHashMap<>(settings);
        own.remove(HybridConfig.PROVIDER_KEY);
        // the secret paths go along: a child (its embedding model) keeps them out of what it says and records
        return childContext(context, role, block).open(name, ProviderConfig.of(own, block.source(),
                block.path() + "." + role).withSecretPaths(block.secretPaths()));
    }

    /**
     * The context a child opens in. The storage child keeps the user's forge home, so its GLOBAL entries are the ones a
     * plain provider of its kind shares with every project. A search or relationships child only holds copies, so its
     * GLOBAL copies go under {@code <forge home>/hybrid/<storage provider>/<role>}: shared by the routers of every
     * project over that kind of storage, and never written into another provider's GLOBAL store of the same kind
     * (a hybrid's sqlite search child must not rewrite the GLOBAL entries of a plain sqlite store).
     */
    static ProviderContext childContext(ProviderContext context, String role, ProviderConfig block) {
        if ("storage".equals(role)) {
            return context;
        }
        Object storage = block.values().get("storage") instanceof Map<?, ?> m ? m.get(HybridConfig.PROVIDER_KEY) : null;
        Path home = context.forgeHome().resolve("hybrid").resolve(String.valueOf(storage)).resolve(role);
        return context.toBuilder().forgeHome(home).build();
    }

    private Set<Capability> computeCapabilities() {
        Set<Capability> own = storage.capabilities();
        Set<Capability> found = EnumSet.noneOf(Capability.class);
        Set<Capability> searching = search == null ? Set.of() : search.capabilities();
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
                Capability.RESTORE, Capability.FIELD_INDEX)) {
            if (own.contains(kept)) {
                found.add(kept);
            }
        }
        if (!router.secondaries().isEmpty() || own.contains(Capability.REINDEX)) {
            found.add(Capability.REINDEX);
        }
        return found;
    }

    private Limits strictest() {
        Limits strict = storage.limits();
        for (Secondary child : router.secondaries()) {
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
        state.checkOpen();
        return router.pendingUpdates();
    }

    /**
     * Replays the outbox now: every update of this project, this session and the global scope that a child missed,
     * in order, including those that failed before for other reasons than an unreachable child.
     *
     * @return how many updates are still waiting (for this router's project and session)
     */
    public int replayOutbox() {
        state.checkOpen();
        router.retryNow();
        router.replay(true);
        return pendingUpdates();
    }

    // ------------------------------------------------------------------ entries

    @Override
    public Optional<MemoryEntry> get(String key, Scope scope) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(scope, "scope");
        state.checkOpen();
        return router.get(key, scope);
    }

    @Override
    public MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
        Objects.requireNonNull(tags, "tags");
        Objects.requireNonNull(metadata, "metadata");
        state.checkOpen();
        EntryWrite.validate(key, value, scope, tags, metadata, limits);
        return router.keyWrite(key, scope, Outbox.Op.SYNC, cached -> {
            MemoryEntry entry = storage.set(key, value, scope, tags, metadata);
            cache.put(cached, entry);
            return entry;
        }, (child, entry) -> child.provider().set(entry.key(), entry.value(), entry.scope(), entry.tags(), entry.metadata()));
    }

    @Override
    public boolean delete(String key, Scope scope) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(scope, "scope");
        state.checkOpen();
        // the children delete also when the storage had nothing: one may hold an orphan a crash left behind
        return router.keyWrite(key, scope, Outbox.Op.RESET, cached -> {
            boolean existed = storage.delete(key, scope);
            cache.invalidate(cached);
            return existed;
        }, (child, existed) -> child.provider().delete(key, scope));
    }

    /**
     * A restore of a batch of keys (one key for {@link Restoring#restore}): every chain checked against the strictest
     * limits of all children (a chain one child would refuse never reaches the storage, and a refused chain writes
     * nothing), then, holding the keys' locks, the storage restores the batch (in one transaction where it has them)
     * and the cache takes the current entries; then each child gets the batch at once ({@link Router#restoreAllInChild}).
     * A child that fails, or whose earlier updates still wait, gets a {@link Outbox.Op#RESTORE} record of each key.
     */
    private List<MemoryEntry> restoreAll(List<List<MemoryEntry>> chains) {
        Objects.requireNonNull(chains, "chains");
        state.checkOpen();
        List<List<MemoryEntry>> checked = chains.stream().map(chain -> EntryRules.checkChain(chain, limits)).toList();
        if (checked.isEmpty()) {
            return List.of();
        }
        List<EntryRef> refs = checked.stream().map(chain -> chain.get(chain.size() - 1).ref()).toList();
        return router.keysWrite(refs, Outbox.Op.RESTORE, cached -> {
            List<MemoryEntry> entries = storage.requireRestoring().restoreAll(checked);
            for (int i = 0; i < entries.size(); i++) {
                cache.put(cached.get(i), entries.get(i));
            }
            return entries;
        }, router::restoreAllInChild);
    }

    @Override
    public int clear(Scope scope) {
        Objects.requireNonNull(scope, "scope");
        state.checkOpen();
        return router.clearing(scope, () -> storage.clear(scope), child -> child.provider().clear(scope));
    }

    @Override
    public int endSession() {
        state.checkOpen();
        return router.clearing(Scope.SESSION, storage::endSession, child -> child.provider().endSession());
    }

    @Override
    public List<MemoryEntry> query(Query query) {
        Objects.requireNonNull(query, "query");
        state.checkOpen();
        return storage.query(query);
    }

    @Override
    public List<Hit> search(SearchRequest request) {
        Objects.requireNonNull(request, "request");
        state.checkOpen();
        Capability needed = request.mode().requiredCapability();
        if (!capabilities.contains(needed)) {
            throw new UnsupportedCapabilityException(NAME, needed);
        }
        if (search == null || !search.capabilities().contains(needed)) {
            return storage.search(request);
        }
        return searching.search(request);
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

    /** Present when the storage has field indexes: forwards to them. */
    @Override
    public Optional<FieldIndexing> fieldIndexing() {
        return fieldIndexing;
    }

    /** Present when the storage can restore; see {@link #restore}. */
    @Override
    public Optional<Restoring> restoring() {
        return restoring;
    }

    private MemoryTransaction begin() {
        state.checkOpen();
        return new RouterTransaction(router, storage.requireTransactions().begin(), limits);
    }

    // ------------------------------------------------------------------ the rest

    /**
     * The storage's problems, each child's (prefixed with its role) or that it cannot be reached, every entry whose
     * copy in a child is missing, older than the storage's or left over (see {@link ChildCopies}; the keys whose
     * updates wait in the outbox aside), and the updates that wait in the outbox or failed there.
     */
    @Override
    public List<StoreProblem> doctor() {
        state.checkOpen();
        return RouterDoctor.problems(router);
    }

    /** Closes the children and gives the cache and the outbox back. Idempotent. */
    @Override
    public void close() {
        if (!state.close()) {
            return;
        }
        RuntimeException failure = null;
        List<AutoCloseable> parts = new ArrayList<>();
        for (Secondary child : router.secondaries()) {
            parts.add(child::close);
        }
        parts.add(storage);
        router.outbox().ifPresent(outbox -> parts.add(outbox::close));
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
        return "HybridMemoryProvider[storage=" + storage.name() + (search == null ? "" : ", " + search.label())
                + (relationships == null ? "" : ", " + relationships.label()) + ", " + context + "]";
    }
}
