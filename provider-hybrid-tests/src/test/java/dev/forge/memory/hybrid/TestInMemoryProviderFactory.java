package dev.forge.memory.hybrid;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Capability;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.GraphPath;
import dev.forge.memory.Hit;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Reindexing;
import dev.forge.memory.Relation;
import dev.forge.memory.Restoring;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.Transactions;
import dev.forge.memory.Traversal;
import dev.forge.memory.VersionHistory;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.support.EmbeddingModels;
import dev.forge.memory.inmemory.InMemoryMemoryProvider;
import dev.forge.memory.inmemory.InMemoryStore;
import dev.forge.memory.spi.MemoryProviderFactory;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A provider the tests' class path offers to the router's discovery, {@value #NAME}: memory-api's in-memory provider,
 * which restores, on a store kept per test directory and {@code store} name, so that a reopen, or a router of another
 * project on the same directory, sees what was written (memory-api's own {@code in-memory} factory opens an empty
 * store every time, which the conformance suite's reopen and isolation tests cannot use).
 *
 * <p>Settings: {@code store} (required: which store of the test directory), {@code restore} (default true; false
 * leaves out {@link Capability#RESTORE}, as a child that cannot restore has it), {@code tombstones} and
 * {@code embedding} (as the in-memory provider's). A store can be taken down with {@link #down}: every call of its
 * providers, and every open, then fails with {@link BackendUnavailableException}, as with an unreachable server.
 */
public final class TestInMemoryProviderFactory implements MemoryProviderFactory {

    /** The name the router's config selects this provider by. */
    public static final String NAME = "test-in-memory";

    // One test JVM runs every test class: stores are found by their test directory, which JUnit makes unique.
    private static final Map<String, InMemoryStore> STORES = new ConcurrentHashMap<>();
    private static final Set<String> DOWN = ConcurrentHashMap.newKeySet();

    /** Does nothing; see {@link #open}. */
    public TestInMemoryProviderFactory() {
    }

    /**
     * The settings.
     *
     * @param store      the store's name within the test directory
     * @param restore    whether RESTORE is offered; default true
     * @param tombstones whether deletions keep the history; default false
     */
    record Settings(String store, Boolean restore, Boolean tombstones) {
    }

    /** Takes the store {@code store} of the test directory {@code baseDirectory} down, or brings it back. */
    static void down(Path baseDirectory, String store, boolean down) {
        if (down) {
            DOWN.add(id(baseDirectory, store));
        } else {
            DOWN.remove(id(baseDirectory, store));
        }
    }

    private static String id(Path baseDirectory, String store) {
        return baseDirectory.toAbsolutePath().normalize() + "|" + store;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Tests only: the in-memory provider on a store kept per test directory, which can be taken down.";
    }

    @Override
    public Set<Capability> capabilities() {
        return Set.copyOf(EnumSet.of(Capability.KEYWORD_SEARCH, Capability.GRAPH, Capability.TRANSACTIONS,
                Capability.HISTORY, Capability.RESTORE));
    }

    @Override
    public MemoryProvider open(ProviderContext context) {
        ProviderConfig config = context.config();
        Settings settings = config.without("embedding").bind(Settings.class);
        if (settings.store() == null) {
            throw new ConfigurationException("test-in-memory needs a 'store' setting");
        }
        String id = id(context.baseDirectory(), settings.store());
        Outage outage = new Outage(id);
        outage.check();
        boolean tombstones = Boolean.TRUE.equals(settings.tombstones());
        InMemoryStore store = STORES.computeIfAbsent(id, i -> new InMemoryStore(tombstones));
        Optional<EmbeddingModel> model = config.child("embedding").map(block -> EmbeddingModels.load().open(block));
        return new Reachable(new InMemoryMemoryProvider(store, context, model), outage,
                !Boolean.FALSE.equals(settings.restore()));
    }

    /** Whether a store is up. */
    private record Outage(String id) {
        void check() {
            if (DOWN.contains(id)) {
                throw new BackendUnavailableException("The test store " + id + " is down.");
            }
        }

        <T> T call(Supplier<T> work) {
            check();
            return work.get();
        }
    }

    /** The in-memory provider, failing while its store is down, with or without its restoring facet. */
    private static final class Reachable implements MemoryProvider {
        private final InMemoryMemoryProvider inner;
        private final Outage outage;
        private final boolean restore;
        private final Set<Capability> capabilities;

        Reachable(InMemoryMemoryProvider inner, Outage outage, boolean restore) {
            this.inner = inner;
            this.outage = outage;
            this.restore = restore;
            Set<Capability> own = EnumSet.noneOf(Capability.class);
            own.addAll(inner.capabilities());
            if (!restore) {
                own.remove(Capability.RESTORE);
            }
            this.capabilities = Set.copyOf(own);
        }

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Optional<MemoryEntry> get(String key, Scope scope) {
            return outage.call(() -> inner.get(key, scope));
        }

        @Override
        public MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
            return outage.call(() -> inner.set(key, value, scope, tags, metadata));
        }

        @Override
        public List<MemoryEntry> query(Query query) {
            return outage.call(() -> inner.query(query));
        }

        @Override
        public List<Hit> search(SearchRequest request) {
            return outage.call(() -> inner.search(request));
        }

        @Override
        public boolean delete(String key, Scope scope) {
            return outage.call(() -> inner.delete(key, scope));
        }

        @Override
        public int clear(Scope scope) {
            return outage.call(() -> inner.clear(scope));
        }

        @Override
        public int endSession() {
            return outage.call(inner::endSession);
        }

        @Override
        public Set<Capability> capabilities() {
            return capabilities;
        }

        @Override
        public Limits limits() {
            return inner.limits();
        }

        @Override
        public Optional<MemoryGraph> graph() {
            return inner.graph().map(Graph::new);
        }

        @Override
        public Optional<Transactions> transactions() {
            return inner.transactions().map(t -> () -> outage.call(t::begin));
        }

        @Override
        public Optional<VersionHistory> history() {
            return inner.history().map(History::new);
        }

        @Override
        public Optional<Reindexing> reindexing() {
            return inner.reindexing().map(r -> progress -> outage.call(() -> r.reindex(progress)));
        }

        @Override
        public Optional<Restoring> restoring() {
            return restore ? inner.restoring().map(r -> versions -> outage.call(() -> r.restore(versions))) : Optional.empty();
        }

        @Override
        public List<StoreProblem> doctor() {
            return outage.call(inner::doctor);
        }

        @Override
        public void close() {
            inner.close();
        }

        private final class Graph implements MemoryGraph {
            private final MemoryGraph graph;

            Graph(MemoryGraph graph) {
                this.graph = graph;
            }

            @Override
            public Relation relate(EntryRef from, EntryRef to, String type) {
                return outage.call(() -> graph.relate(from, to, type));
            }

            @Override
            public Relation restore(Relation relation) {
                return outage.call(() -> graph.restore(relation));
            }

            @Override
            public boolean unrelate(EntryRef from, EntryRef to, String type) {
                return outage.call(() -> graph.unrelate(from, to, type));
            }

            @Override
            public List<Relation> relations(EntryRef entry, Direction direction) {
                return outage.call(() -> graph.relations(entry, direction));
            }

            @Override
            public List<GraphPath> traverse(EntryRef start, Traversal traversal) {
                return outage.call(() -> graph.traverse(start, traversal));
            }
        }

        private final class History implements VersionHistory {
            private final VersionHistory history;

            History(VersionHistory history) {
                this.history = history;
            }

            @Override
            public List<MemoryEntry> versions(String key, Scope scope) {
                return outage.call(() -> history.versions(key, scope));
            }

            @Override
            public boolean purge(String key, Scope scope) {
                return outage.call(() -> history.purge(key, scope));
            }

            @Override
            public int purge(Scope scope) {
                return outage.call(() -> history.purge(scope));
            }

            @Override
            public List<String> deletedKeys(Scope scope) {
                return outage.call(() -> history.deletedKeys(scope));
            }
        }
    }
}
