package dev.forge.memory.inmemory;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Capability;
import dev.forge.memory.ConflictException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.GraphPath;
import dev.forge.memory.Hit;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Query;
import dev.forge.memory.Reindexing;
import dev.forge.memory.Restoring;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.Transactions;
import dev.forge.memory.Traversal;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.forge.memory.VersionHistory;
import dev.forge.memory.inmemory.InMemoryStore.Edge;
import dev.forge.memory.inmemory.InMemoryStore.Namespace;
import dev.forge.memory.inmemory.InMemoryStore.NodeId;
import dev.forge.memory.EntryRules;
import dev.forge.memory.support.EntryWrite;
import dev.forge.memory.support.GraphWalker;
import dev.forge.memory.Keys;
import dev.forge.memory.support.KeywordScorer;
import dev.forge.memory.support.SemanticScorer;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.spi.ProviderContext;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.Lock;

/**
 * The reference provider: keeps everything in an {@link InMemoryStore}; has every capability, semantic search and
 * reindexing only when opened with an embedding model.
 *
 * <p>Thread-safe: one read-write lock per store. Transactions are optimistic: writes are buffered, and
 * commit fails with {@link ConflictException} (applying nothing) if a key the transaction touched was changed
 * by someone else since it first touched it. Not shared between processes.
 */
public final class InMemoryMemoryProvider implements MemoryProvider {

    /** The name this provider is selected by. */
    public static final String NAME = "in-memory";

    static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(
            Capability.KEYWORD_SEARCH, Capability.GRAPH, Capability.TRANSACTIONS, Capability.HISTORY, Capability.RESTORE));

    private static final Set<Capability> WITH_TOMBSTONES = Set.copyOf(EnumSet.of(Capability.KEYWORD_SEARCH,
            Capability.GRAPH, Capability.TRANSACTIONS, Capability.HISTORY, Capability.TOMBSTONES, Capability.RESTORE));

    private final InMemoryStore store;
    private final ProviderContext context;
    private final Graph graph = new Graph();
    private final Transactions transactions = this::begin;
    private final VersionHistory history = new History();
    private final Reindexing reindexing = this::reindex;
    private final Restoring restoring = this::restore;
    private volatile boolean closed;
    private final EmbeddingModel model;
    // Vectors of the entries searched so far; entries are immutable, and a replaced one is collected with its vector.
    private final Map<MemoryEntry, float[]> vectors = java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    /** A provider over {@code store}, serving the project and session of {@code context}. */
    public InMemoryMemoryProvider(InMemoryStore store, ProviderContext context) {
        this(store, context, Optional.empty());
    }

    /**
     * A provider over {@code store}, serving the project and session of {@code context}, with semantic and hybrid
     * search by brute-force cosine similarity when a model is given (see {@link SemanticScorer}). The provider closes
     * the model when it is closed.
     */
    public InMemoryMemoryProvider(InMemoryStore store, ProviderContext context, Optional<EmbeddingModel> model) {
        this.store = Objects.requireNonNull(store, "store");
        this.context = Objects.requireNonNull(context, "context");
        this.model = Objects.requireNonNull(model, "model").orElse(null);
    }

    @Override
    public String name() {
        return NAME;
    }

    private Namespace namespace(Scope scope) {
        Objects.requireNonNull(scope, "scope");
        return switch (scope) {
            case SESSION -> new Namespace(scope, context.projectId() + "\u0000" + context.sessionId());
            case PROJECT -> new Namespace(scope, context.projectId());
            case GLOBAL -> new Namespace(scope, "");
        };
    }

    private NodeId node(EntryRef ref) {
        Keys.validate(ref.key());
        return new NodeId(namespace(ref.scope()), ref.key());
    }

    private boolean visible(NodeId id) {
        return namespace(id.namespace().scope()).equals(id.namespace());
    }

    private void checkOpen() {
        if (closed) {
            throw new BackendUnavailableException("This in-memory provider is closed; open a new one.");
        }
    }

    private <T> T read(java.util.function.Supplier<T> work) {
        checkOpen();
        Lock lock = store.lock.readLock();
        lock.lock();
        try {
            return work.get();
        } finally {
            lock.unlock();
        }
    }

    private <T> T write(java.util.function.Supplier<T> work) {
        checkOpen();
        Lock lock = store.lock.writeLock();
        lock.lock();
        try {
            return work.get();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Optional<MemoryEntry> get(String key, Scope scope) {
        NodeId id = node(new EntryRef(Keys.validate(key), scope));
        return read(() -> Optional.ofNullable(store.current(id)));
    }

    @Override
    public MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
        checkOpen();
        EntryWrite write = EntryWrite.validate(key, value, scope, tags, metadata, limits());
        NodeId id = node(new EntryRef(key, scope));
        return write(() -> {
            MemoryEntry entry = stamp(write, id, Optional.ofNullable(store.current(id)), null);
            store.append(id, entry);
            return entry;
        });
    }

    private List<MemoryEntry> candidates(Set<Scope> scopes) {
        List<MemoryEntry> all = new ArrayList<>();
        for (Scope scope : scopes) {
            store.currentEntries(namespace(scope)).forEach(all::add);
        }
        return all;
    }

    @Override
    public List<MemoryEntry> query(Query query) {
        Objects.requireNonNull(query, "query");
        return read(() -> query.apply(candidates(query.scopes())));
    }

    @Override
    public List<Hit> search(SearchRequest request) {
        Objects.requireNonNull(request, "request");
        checkOpen();
        if (request.mode() == SearchMode.KEYWORD) {
            return read(() -> KeywordScorer.rank(request, candidates(request.scopes())));
        }
        if (model == null) {
            throw new UnsupportedCapabilityException(NAME, request.mode().requiredCapability());
        }
        List<MemoryEntry> candidates = read(() -> candidates(request.scopes()));
        return SemanticScorer.rank(request, candidates, model,
                entry -> vectors.computeIfAbsent(entry, e -> model.embed(SemanticScorer.embeddingText(e))));
    }

    @Override
    public boolean delete(String key, Scope scope) {
        NodeId id = node(new EntryRef(Keys.validate(key), scope));
        return write(() -> store.remove(id));
    }

    @Override
    public int clear(Scope scope) {
        Namespace namespace = namespace(scope);
        return write(() -> store.clear(namespace));
    }

    /**
     * The entry {@code write} stores over {@code previous}: see {@link EntryWrite#toEntry}, except that with
     * tombstones a key without a current entry continues its numbering after the tombstone.
     *
     * @param deletedVersion the version of the entry a transaction deleted before this write, or null if none
     */
    private MemoryEntry stamp(EntryWrite write, NodeId id, Optional<MemoryEntry> previous, Long deletedVersion) {
        MemoryEntry entry = write.toEntry(previous, context.clock().instant());
        if (previous.isPresent()) {
            return entry;
        }
        long version = store.firstVersion(id, deletedVersion != null, deletedVersion == null ? 0 : deletedVersion);
        return version == entry.version() ? entry : new MemoryEntry(entry.key(), entry.value(), entry.scope(),
                entry.tags(), entry.metadata(), entry.createdAt(), entry.updatedAt(), version);
    }

    @Override
    public Set<Capability> capabilities() {
        Set<Capability> capabilities = store.tombstones() ? WITH_TOMBSTONES : CAPABILITIES;
        if (model == null) {
            return capabilities;
        }
        EnumSet<Capability> semantic = EnumSet.copyOf(capabilities);
        semantic.add(Capability.SEMANTIC_SEARCH);
        semantic.add(Capability.REINDEX);
        return Set.copyOf(semantic);
    }

    @Override
    public Optional<MemoryGraph> graph() {
        return Optional.of(graph);
    }

    @Override
    public Optional<Transactions> transactions() {
        return Optional.of(transactions);
    }

    @Override
    public Optional<VersionHistory> history() {
        return Optional.of(history);
    }

    @Override
    public Optional<Restoring> restoring() {
        return Optional.of(restoring);
    }

    private MemoryEntry restore(List<MemoryEntry> versions) {
        checkOpen();
        List<MemoryEntry> chain = EntryRules.checkChain(versions, limits());
        MemoryEntry current = chain.get(chain.size() - 1);
        NodeId id = node(current.ref());
        return write(() -> {
            store.replace(id, chain);
            return current;
        });
    }

    /** Present with a model: a reindex embeds every current entry of the store again, replacing cached vectors. */
    @Override
    public Optional<Reindexing> reindexing() {
        return model == null ? Optional.empty() : Optional.of(reindexing);
    }

    private Reindexing.ReindexResult reindex(Reindexing.Progress progress) {
        Objects.requireNonNull(progress, "progress");
        long started = System.nanoTime();
        return write(() -> {
            List<MemoryEntry> entries = store.allCurrentEntries();
            progress.update(0, entries.size());
            int batch = 64;
            for (int from = 0; from < entries.size(); from += batch) {
                List<MemoryEntry> slice = entries.subList(from, Math.min(entries.size(), from + batch));
                List<float[]> embedded = model.embed(slice.stream().map(SemanticScorer::embeddingText).toList());
                for (int i = 0; i < slice.size(); i++) {
                    vectors.put(slice.get(i), embedded.get(i));
                }
                progress.update(from + slice.size(), entries.size());
            }
            return new Reindexing.ReindexResult(entries.size(), model.fingerprint(),
                    java.time.Duration.ofNanos(System.nanoTime() - started));
        });
    }

    @Override
    public void close() {
        closed = true;
        if (model != null) {
            model.close();
        }
    }

    private final class History implements VersionHistory {

        @Override
        public List<MemoryEntry> versions(String key, Scope scope) {
            NodeId id = node(new EntryRef(Keys.validate(key), scope));
            return read(() -> store.history(id));
        }

        @Override
        public boolean purge(String key, Scope scope) {
            NodeId id = node(new EntryRef(Keys.validate(key), scope));
            return write(() -> store.purge(id));
        }

        @Override
        public int purge(Scope scope) {
            Namespace namespace = namespace(scope);
            return write(() -> store.purge(namespace));
        }
    }

    private final class Graph implements MemoryGraph {

        @Override
        public Relation relate(EntryRef from, EntryRef to, String type) {
            EntryRules.checkRelationType(type);
            NodeId source = node(from);
            NodeId target = node(to);
            return write(() -> {
                requireExists(source);
                requireExists(target);
                Edge existing = store.findEdge(source, type, target);
                if (existing != null) {
                    return existing.toRelation();
                }
                Edge edge = new Edge(source, type, target, context.clock().instant());
                store.addEdge(edge);
                return edge.toRelation();
            });
        }

        private void requireExists(NodeId id) {
            if (store.current(id) == null) {
                throw new EntryNotFoundException("Cannot relate " + id.ref() + ": no such entry. Store it first.");
            }
        }

        @Override
        public boolean unrelate(EntryRef from, EntryRef to, String type) {
            EntryRules.checkRelationType(type);
            NodeId source = node(from);
            NodeId target = node(to);
            return write(() -> {
                Edge existing = store.findEdge(source, type, target);
                return existing != null && store.removeEdge(existing);
            });
        }

        @Override
        public List<Relation> relations(EntryRef entry, Direction direction) {
            Objects.requireNonNull(direction, "direction");
            NodeId id = node(entry);
            return read(() -> relationsOf(id, direction));
        }

        private List<Relation> relationsOf(NodeId id, Direction direction) {
            List<Relation> relations = new ArrayList<>();
            if (direction != Direction.INCOMING) {
                for (Edge edge : store.outgoing(id)) {
                    if (visible(edge.to())) {
                        relations.add(edge.toRelation());
                    }
                }
            }
            if (direction != Direction.OUTGOING) {
                for (Edge edge : store.incoming(id)) {
                    if (visible(edge.from()) && !(direction == Direction.BOTH && edge.from().equals(edge.to()))) {
                        relations.add(edge.toRelation());
                    }
                }
            }
            relations.sort(null);
            return List.copyOf(relations);
        }

        @Override
        public List<GraphPath> traverse(EntryRef start, Traversal traversal) {
            Objects.requireNonNull(traversal, "traversal");
            NodeId id = node(start);
            return read(() -> store.current(id) == null ? List.of()
                    : GraphWalker.traverse(start, traversal, (ref, direction) -> relationsOf(node(ref), direction)));
        }
    }

    private MemoryTransaction begin() {
        checkOpen();
        return new Transaction();
    }

    /** One buffered write of a transaction: an entry to append, or a delete when {@code entry} is null. */
    private record Operation(NodeId id, MemoryEntry entry) {
    }

    /**
     * Buffers operations; applies them all under the write lock at commit, or none. Conflicts are detected by
     * identity: the entry object a transaction first saw must still be the stored one (entries are immutable and
     * every write stores a new object), so a delete and re-create in between is a conflict too.
     */
    private final class Transaction implements MemoryTransaction {
        private final List<Operation> operations = new ArrayList<>();
        private final Map<NodeId, Optional<MemoryEntry>> view = new HashMap<>();
        private final Map<NodeId, MemoryEntry> observed = new HashMap<>();
        // The version of the entry this transaction deleted last, per key, while no later set of it is buffered.
        private final Map<NodeId, Long> deletedVersions = new HashMap<>();
        private boolean active = true;

        private void checkActive() {
            checkOpen();
            if (!active) {
                throw new InvalidRequestException("This transaction is already committed or rolled back; begin a new one.");
            }
        }

        private Optional<MemoryEntry> current(NodeId id) {
            Optional<MemoryEntry> seen = view.get(id);
            if (seen != null) {
                return seen;
            }
            MemoryEntry stored = read(() -> store.current(id));
            if (!observed.containsKey(id)) {
                observed.put(id, stored);
            }
            return Optional.ofNullable(stored);
        }

        @Override
        public Optional<MemoryEntry> get(String key, Scope scope) {
            checkActive();
            return current(node(new EntryRef(Keys.validate(key), scope)));
        }

        @Override
        public MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
            checkActive();
            EntryWrite write = EntryWrite.validate(key, value, scope, tags, metadata, limits());
            NodeId id = node(new EntryRef(key, scope));
            MemoryEntry entry = stamp(write, id, current(id), deletedVersions.remove(id));
            view.put(id, Optional.of(entry));
            operations.add(new Operation(id, entry));
            return entry;
        }

        @Override
        public boolean delete(String key, Scope scope) {
            checkActive();
            NodeId id = node(new EntryRef(Keys.validate(key), scope));
            Optional<MemoryEntry> existing = current(id);
            view.put(id, Optional.empty());
            existing.ifPresent(entry -> deletedVersions.put(id, entry.version()));
            operations.add(new Operation(id, null));
            return existing.isPresent();
        }

        @Override
        public void commit() {
            checkActive();
            active = false;
            write(() -> {
                for (Map.Entry<NodeId, MemoryEntry> seen : observed.entrySet()) {
                    if (store.current(seen.getKey()) != seen.getValue()) {
                        throw new ConflictException("Transaction not committed: " + seen.getKey().ref()
                                + " was changed by another writer since this transaction read it. Retry the transaction.");
                    }
                }
                for (Operation operation : operations) {
                    if (operation.entry() == null) {
                        store.remove(operation.id());
                    } else {
                        store.append(operation.id(), operation.entry());
                    }
                }
                return null;
            });
        }

        @Override
        public void rollback() {
            checkActive();
            active = false;
        }

        @Override
        public boolean isActive() {
            return active && !closed;
        }

        @Override
        public void close() {
            active = false;
        }
    }
}
