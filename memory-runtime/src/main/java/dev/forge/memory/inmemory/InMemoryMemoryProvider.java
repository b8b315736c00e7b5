package dev.forge.memory.inmemory;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Capability;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.GraphPath;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.Query;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.Traversal;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.forge.memory.VersionHistory;
import dev.forge.memory.inmemory.InMemoryStore.Edge;
import dev.forge.memory.inmemory.InMemoryStore.Namespace;
import dev.forge.memory.inmemory.InMemoryStore.NodeId;
import dev.forge.memory.EntryRules;
import dev.forge.memory.support.EntryWrite;
import dev.forge.memory.support.FacetedMemoryProvider;
import dev.forge.memory.support.Facets;
import dev.forge.memory.support.tx.Change;
import dev.forge.memory.support.tx.Commit;
import dev.forge.memory.support.tx.OptimisticTransaction;
import dev.forge.memory.support.tx.Snapshot;
import dev.forge.memory.support.tx.TransactionBackend;
import dev.forge.memory.support.GraphWalker;
import dev.forge.memory.Keys;
import dev.forge.memory.support.KeywordScorer;
import dev.forge.memory.support.SearchText;
import dev.forge.memory.support.SemanticScorer;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.Reindexing;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
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
 * commit fails with {@link dev.forge.memory.ConflictException} (applying nothing) if a key the transaction touched was changed
 * by someone else since it first touched it. Not shared between processes.
 */
public final class InMemoryMemoryProvider extends FacetedMemoryProvider {

    /** The name this provider is selected by. */
    public static final String NAME = "in-memory";

    static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(
            Capability.KEYWORD_SEARCH, Capability.GRAPH, Capability.TRANSACTIONS, Capability.HISTORY, Capability.RESTORE));

    private static final Set<Capability> WITH_TOMBSTONES = Set.copyOf(EnumSet.of(Capability.KEYWORD_SEARCH,
            Capability.GRAPH, Capability.TRANSACTIONS, Capability.HISTORY, Capability.TOMBSTONES, Capability.RESTORE));

    private final InMemoryStore store;
    private final ProviderContext context;
    private volatile boolean closed;
    private final EmbeddingModel model;
    private final SearchText text;
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
        this(store, context, model, SearchText.DEFAULT);
    }

    /**
     * As {@link #InMemoryMemoryProvider(InMemoryStore, ProviderContext, Optional)}, searching (and embedding) the
     * {@code text} of each entry: the value and the configured {@code search_fields}.
     */
    public InMemoryMemoryProvider(InMemoryStore store, ProviderContext context, Optional<EmbeddingModel> model,
            SearchText text) {
        this.store = Objects.requireNonNull(store, "store");
        this.context = Objects.requireNonNull(context, "context");
        this.model = Objects.requireNonNull(model, "model").orElse(null);
        this.text = Objects.requireNonNull(text, "text");
        offerGraph(new Graph());
        offerHistory(new History());
        TransactionStore backend = new TransactionStore();
        offerTransactions(() -> OptimisticTransaction.begin(backend));
        offerRestoring(Facets.restoring(this::restoreAll));
        if (this.model != null) {
            // A reindex embeds every current entry of the store again, replacing cached vectors.
            offerReindexing(this::reindex);
        }
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
            MemoryEntry entry = write.toEntry(Optional.ofNullable(store.current(id)), store.lastVersion(id),
                    context.clock().instant());
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
            return read(() -> KeywordScorer.rank(request, candidates(request.scopes()), text));
        }
        if (model == null) {
            throw new UnsupportedCapabilityException(NAME, request.mode().requiredCapability());
        }
        List<MemoryEntry> candidates = read(() -> candidates(request.scopes()));
        return SemanticScorer.rank(request, candidates, model,
                entry -> vectors.computeIfAbsent(entry, e -> model.embed(text.text(e))), text);
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

    /** Every chain checked first, then all written under one hold of the write lock: a batch is all-or-nothing. */
    private List<MemoryEntry> restoreAll(List<List<MemoryEntry>> chains) {
        checkOpen();
        List<List<MemoryEntry>> checked = chains.stream().map(chain -> EntryRules.checkChain(chain, limits())).toList();
        List<NodeId> ids = checked.stream().map(chain -> node(chain.get(chain.size() - 1).ref())).toList();
        return write(() -> {
            List<MemoryEntry> current = new ArrayList<>(checked.size());
            for (int i = 0; i < checked.size(); i++) {
                store.replace(ids.get(i), checked.get(i));
                current.add(checked.get(i).get(checked.get(i).size() - 1));
            }
            return List.copyOf(current);
        });
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
                List<float[]> embedded = model.embed(slice.stream().map(text::text).toList());
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

        @Override
        public List<String> deletedKeys(Scope scope) {
            Namespace namespace = namespace(scope);
            return read(() -> store.deletedKeys(namespace));
        }
    }

    private final class Graph implements MemoryGraph {

        @Override
        public Relation relate(EntryRef from, EntryRef to, String type) {
            EntryRules.checkRelationType(type);
            return relate(from, to, type, null);
        }

        @Override
        public Relation restore(Relation relation) {
            EntryRules.checkRelationTime(relation);
            return relate(relation.from(), relation.to(), relation.type(), relation.createdAt());
        }

        /** Relates at {@code createdAt}, replacing an existing relation's time, or at the clock's time when null. */
        private Relation relate(EntryRef from, EntryRef to, String type, Instant createdAt) {
            NodeId source = node(from);
            NodeId target = node(to);
            return write(() -> {
                requireExists(source);
                requireExists(target);
                Edge existing = store.findEdge(source, type, target);
                if (existing != null && (createdAt == null || existing.createdAt().equals(createdAt))) {
                    return existing.toRelation();
                }
                if (existing != null) {
                    store.removeEdge(existing);
                }
                Edge edge = new Edge(source, type, target, createdAt != null ? createdAt : context.clock().instant());
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

    /**
     * The store side of this provider's transactions. A key's revision is the entry object first seen, compared by
     * identity (entries are immutable and every write stores a new object), so a delete and re-create in between is a
     * conflict too. A commit checks and applies under the write lock.
     */
    private final class TransactionStore extends TransactionBackend<MemoryEntry> {

        TransactionStore() {
            super(InMemoryMemoryProvider.this::checkOpen, () -> closed, InMemoryMemoryProvider.this.limits(),
                    context.clock(), store.tombstones());
        }

        @Override
        public Snapshot<MemoryEntry> read(EntryRef ref) {
            NodeId id = node(ref);
            return InMemoryMemoryProvider.this.read(() -> {
                MemoryEntry stored = store.current(id);
                return Snapshot.of(Optional.ofNullable(stored), store.lastVersion(id), stored);
            });
        }

        @Override
        public void commit(Commit<MemoryEntry> commit) {
            write(() -> {
                commit.verify(ref -> store.current(node(ref)), (seen, now) -> seen == now);
                for (Change change : commit.changes()) {
                    NodeId id = node(change.ref());
                    if (change.isDelete()) {
                        store.remove(id);
                    } else {
                        store.append(id, change.entry().get());
                    }
                }
                return null;
            });
        }
    }
}
