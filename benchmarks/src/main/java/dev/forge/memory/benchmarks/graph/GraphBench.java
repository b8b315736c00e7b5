package dev.forge.memory.benchmarks.graph;

import dev.forge.memory.EntryRef;
import dev.forge.memory.GraphPath;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Relation;
import dev.forge.memory.Traversal;
import dev.forge.memory.benchmarks.Measure;
import dev.forge.memory.graph.GraphMemoryProviderFactory;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Config;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Logging;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.SessionConfig;
import org.neo4j.driver.TransactionConfig;
import org.neo4j.driver.types.Node;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilders;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The graph provider's {@code relate} and {@code traverse} beside the same Cypher statements the provider runs (read
 * from its {@code GraphStore}), sent directly through a Neo4j Java driver with the provider's driver settings, in a
 * managed transaction ({@code executeWrite} / {@code executeRead}) with the provider's default query timeout; and
 * 1,000 sets in one {@link MemoryTransaction} beside the same rows written by one {@code UNWIND ... MERGE} statement.
 *
 * <p>The server: {@code NEO4J_URI} (with {@code NEO4J_USER}, {@code NEO4J_PASSWORD}) when set, else an in-process
 * neo4j-harness server (Bolt only) started in the fork. Each trial writes its own store id, so runs on one server do not
 * see each other. The relate and traverse pairs run on a {@link Graph} of {@code entries} PROJECT entries, each with
 * three outgoing {@code LINKS} relations ({@code i -> i+1, 2i+1, 31i+7} mod {@code entries}); the write pairs start
 * from an empty store, as they create new keys only.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
public class GraphBench {

    static final String PROJECT = "bench-project";
    static final String SESSION = "bench-session";
    static final String LINKS = "LINKS";
    static final String RELATES = "BENCH_RELATES";
    /** The provider's default {@code query_timeout}, used for the baseline's transactions too. */
    static final Duration QUERY_TIMEOUT = Duration.ofSeconds(30);

    // The provider's statements (GraphStore.relate, GraphStore.traverse) with its parameter names.
    static final String END_FROM = "{store: $store, project: $fromproject, session: $fromsession, scope: $fromscope, key: $fromkey}";
    static final String END_TO = "{store: $store, project: $toproject, session: $tosession, scope: $toscope, key: $tokey}";
    static final String END_A = "{store: $store, project: $aproject, session: $asession, scope: $ascope, key: $akey}";
    static final String RELATE_CHECK = "OPTIONAL MATCH (a:Memory " + END_FROM + ") WHERE a.version > 0"
            + " OPTIONAL MATCH (b:Memory " + END_TO + ") WHERE b.version > 0"
            + " RETURN a IS NOT NULL AS a, b IS NOT NULL AS b";
    static final String RELATE_MERGE = "MATCH (a:Memory " + END_FROM + ") MATCH (b:Memory " + END_TO + ")"
            + " SET a.lock = true REMOVE a.lock SET b.lock = true REMOVE b.lock"
            + " MERGE (a)-[r:$($type)]->(b) ON CREATE SET r.createdAt = $now RETURN r.createdAt AS createdAt";
    static final String TRAVERSE_START = "MATCH (a:Memory " + END_A + ") WHERE a.version > 0 RETURN a.key";
    static final String VISIBLE = "[n.project, n.session, n.scope] IN $visible";

    static String traverseStatement(int depth) {
        return "MATCH p = (a:Memory " + END_A + ")-[rels*1.." + depth + "]->(b:Memory)"
                + " WHERE a.version > 0 AND all(n IN nodes(p) WHERE n:Memory AND n.store = $store AND n.version > 0"
                + " AND " + VISIBLE + ")"
                + " AND (size($types) = 0 OR all(x IN rels WHERE type(x) IN $types))"
                + " UNWIND rels AS r WITH DISTINCT r"
                + " RETURN startNode(r) AS f, type(r) AS type, endNode(r) AS t, r.createdAt AS createdAt";
    }

    private Neo4j harness;
    private Driver driver;
    private Path directory;
    private MemoryProvider provider;
    private MemoryGraph graph;
    private String store;
    private final TransactionConfig transactionConfig = TransactionConfig.builder().withTimeout(QUERY_TIMEOUT).build();
    private int next;

    /** The filled graph of the relate and traverse pairs: a state of its own, so the write pairs do not fill it. */
    @State(Scope.Benchmark)
    public static class Graph {
        /** Entries in the graph. */
        @Param("10000")
        public int entries;

        String[] keys;
        EntryRef[] refs;
        List<List<String>> visible;

        @Setup(Level.Trial)
        public void setUp(GraphBench bench) {
            keys = new String[entries];
            refs = new EntryRef[entries];
            for (int i = 0; i < entries; i++) {
                keys[i] = key(i);
                refs[i] = EntryRef.of(keys[i], dev.forge.memory.Scope.PROJECT);
            }
            bench.fill(this);
            visible = List.of(List.of(PROJECT, SESSION, "session"), List.of(PROJECT, "", "project"), List.of("", "", "global"));
        }
    }

    static String key(int i) {
        return String.format("bench:node-%06d", i);
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        Optional<String> external = Optional.ofNullable(System.getenv("NEO4J_URI")).filter(s -> !s.isBlank());
        String uri;
        String user;
        String password;
        if (external.isPresent()) {
            uri = external.get();
            user = Optional.ofNullable(System.getenv("NEO4J_USER")).orElse("neo4j");
            password = Optional.ofNullable(System.getenv("NEO4J_PASSWORD")).orElse("");
        } else {
            // Bolt only, and Netty's shutdown quiet period at zero (closing in a fraction of a second), as the tests do.
            harness = Neo4jBuilders.newInProcessBuilder()
                    .withDisabledServer()
                    .withConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 0)
                    .build();
            uri = harness.boltURI().toString();
            user = "";
            password = "";
        }
        store = "bench-" + UUID.randomUUID();
        directory = Files.createTempDirectory("forge-bench-graph");
        provider = new GraphMemoryProviderFactory().open(ProviderContext.builder()
                .projectId(PROJECT)
                .sessionId(SESSION)
                .baseDirectory(directory)
                .forgeHome(directory.resolve("forge-home"))
                .registry(ProviderRegistry.of())
                .config(ProviderConfig.of(Map.of("url", uri, "username", user, "password", password, "store", store),
                        "benchmark", "memory.config"))
                .build());
        graph = provider.graph().orElseThrow();
        // The provider's driver settings (Drivers.connect) at the config defaults.
        driver = GraphDatabase.driver(uri, user.isEmpty() && password.isEmpty() ? AuthTokens.none() : AuthTokens.basic(user, password),
                Config.builder()
                        .withMaxConnectionPoolSize(16)
                        .withConnectionTimeout(5, TimeUnit.SECONDS)
                        .withConnectionAcquisitionTimeout(5, TimeUnit.SECONDS)
                        .withMaxTransactionRetryTime(30, TimeUnit.SECONDS)
                        .withLogging(Logging.slf4j())
                        .withUserAgent("forge-memory-bench")
                        .build());
        driver.verifyConnectivity();
    }

    /** Entries through the provider (a transaction per 500), relations with the provider's MERGE, unwound. */
    void fill(Graph g) {
        int entries = g.entries;
        String[] keys = g.keys;
        for (int from = 0; from < entries; from += 500) {
            try (MemoryTransaction tx = provider.transactions().orElseThrow().begin()) {
                for (int i = from; i < Math.min(entries, from + 500); i++) {
                    tx.set(keys[i], "Node " + i + " of the benchmark graph.", dev.forge.memory.Scope.PROJECT,
                            List.of("bench"), Map.of("n", i));
                }
                tx.commit();
            }
        }
        List<List<String>> pairs = new ArrayList<>();
        for (int i = 0; i < entries; i++) {
            for (long to : new long[] {i + 1L, 2L * i + 1, 31L * i + 7}) {
                int target = (int) (to % entries);
                if (target != i) {
                    pairs.add(List.of(keys[i], keys[target]));
                }
            }
        }
        try (Session session = driver.session(SessionConfig.defaultConfig())) {
            for (int from = 0; from < pairs.size(); from += 5000) {
                Map<String, Object> params = Map.of("store", store, "project", PROJECT, "type", LINKS,
                        "now", System.currentTimeMillis(), "pairs", pairs.subList(from, Math.min(pairs.size(), from + 5000)));
                session.executeWrite(tx -> tx.run("UNWIND $pairs AS p"
                        + " MATCH (a:Memory {store: $store, project: $project, session: '', scope: 'project', key: p[0]})"
                        + " MATCH (b:Memory {store: $store, project: $project, session: '', scope: 'project', key: p[1]})"
                        + " MERGE (a)-[r:$($type)]->(b) ON CREATE SET r.createdAt = $now", params).consume());
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        try {
            if (harness == null && driver != null) {
                try (Session session = driver.session(SessionConfig.defaultConfig())) {
                    session.run("MATCH (n) WHERE (n:Memory OR n:MemoryVersion OR n:ForgeMemoryStore) AND n.store = $store"
                            + " CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS", Map.of("store", store)).consume();
                }
            }
        } finally {
            if (driver != null) {
                driver.close();
            }
            if (provider != null) {
                provider.close();
            }
            if (harness != null) {
                harness.close();
            }
            deleteDirectory();
        }
    }

    private void deleteDirectory() throws IOException {
        if (directory == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    /** The next pair of distinct entries: the same sequence on both sides. */
    private int[] nextPair(Graph g) {
        int k = next++;
        int from = Math.floorMod(k, g.entries);
        int to = (int) ((k * 7919L + 13) % g.entries);
        if (to == from) {
            to = (to + 1) % g.entries;
        }
        return new int[] {from, to};
    }

    private Map<String, Object> end(Graph g, String prefix, int i, Map<String, Object> into) {
        into.put(prefix + "project", PROJECT);
        into.put(prefix + "session", "");
        into.put(prefix + "scope", "project");
        into.put(prefix + "key", g.keys[i]);
        into.put("store", store);
        return into;
    }

    // ------------------------------------------------------------------ relate

    /** Relates two entries through the provider. */
    @Benchmark
    @Measure(value = "graph relate vs the provider's Cypher (check + MERGE) sent through the driver", target = 0)
    public Relation relate_ours(Graph g) {
        int[] pair = nextPair(g);
        return graph.relate(g.refs[pair[0]], g.refs[pair[1]], RELATES);
    }

    /** The provider's two statements for relate, in one managed write transaction. */
    @Benchmark
    public long relate_baseline(Graph g) {
        int[] pair = nextPair(g);
        Map<String, Object> params = end(g, "to", pair[1], end(g, "from", pair[0], new HashMap<>()));
        params.put("type", RELATES);
        params.put("now", System.currentTimeMillis());
        try (Session session = driver.session(SessionConfig.defaultConfig())) {
            return session.executeWrite(tx -> {
                Record ends = tx.run(RELATE_CHECK, params).single();
                if (!ends.get("a").asBoolean() || !ends.get("b").asBoolean()) {
                    throw new IllegalStateException("missing end " + params);
                }
                return tx.run(RELATE_MERGE, params).single().get("createdAt").asLong();
            }, transactionConfig);
        }
    }

    // ------------------------------------------------------------------ 1,000 sets in one transaction

    /** Writes per transaction in the write pair. */
    static final int WRITES = 1000;

    /** The statement the write pair's baseline sends: every row in one UNWIND, on the provider's key constraint. */
    static final String WRITE_UNWIND = "UNWIND $rows AS r"
            + " MERGE (m:Memory {store: $store, project: $project, session: '', scope: 'project', key: r.key})"
            + " SET m.value = r.value, m.tags = r.tags, m.tagText = r.tagText, m.metadata = r.metadata,"
            + " m.searchText = r.searchText, m.createdAt = $now, m.updatedAt = $now, m.version = 1";

    /** New keys for each write operation (the same on both sides), so that every operation creates 1,000 entries. */
    private String writeKey(long op, int i) {
        return "bench:write-" + op + "-" + i;
    }

    /**
     * 1,000 new PROJECT entries (value, one tag, one metadata field) in one {@link MemoryTransaction}, handed over in
     * one {@link MemoryTransaction#setAll}: one read of all the keys (versions, conflict check), the commit writes them.
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Measure(value = "graph: 1,000 sets in one transaction (setAll) vs the same rows sent by the driver with one UNWIND",
            target = 0.5)
    public void setMany_ours() {
        long op = next++;
        List<MemoryTransaction.Write> writes = new ArrayList<>(WRITES);
        for (int i = 0; i < WRITES; i++) {
            writes.add(new MemoryTransaction.Write(writeKey(op, i), "Write " + i + " of the benchmark.",
                    dev.forge.memory.Scope.PROJECT, List.of("bench"), Map.of("n", i)));
        }
        try (MemoryTransaction tx = provider.transactions().orElseThrow().begin()) {
            tx.setAll(writes);
            tx.commit();
        }
    }

    /** The same rows as one UNWIND statement in one managed write transaction. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public void setMany_baseline() {
        unwind(next++);
    }

    /** As {@link #setMany_ours}, one {@code tx.set} per entry: each reads its key, a round trip per set. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Measure(value = "graph: 1,000 tx.set calls in one transaction vs the same rows sent by the driver with one UNWIND")
    public void setManyEach_ours() {
        long op = next++;
        try (MemoryTransaction tx = provider.transactions().orElseThrow().begin()) {
            for (int i = 0; i < WRITES; i++) {
                tx.set(writeKey(op, i), "Write " + i + " of the benchmark.", dev.forge.memory.Scope.PROJECT,
                        List.of("bench"), Map.of("n", i));
            }
            tx.commit();
        }
    }

    /** {@link #setMany_baseline} again, the pair of {@link #setManyEach_ours}. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public void setManyEach_baseline() {
        unwind(next++);
    }

    private void unwind(long op) {
        List<Map<String, Object>> rows = new ArrayList<>(WRITES);
        for (int i = 0; i < WRITES; i++) {
            String key = writeKey(op, i);
            String value = "Write " + i + " of the benchmark.";
            // searchText: what the provider's full-text index reads (key, tags and value), so both sides index alike
            rows.add(Map.of("key", key, "value", value, "tags", List.of("bench"), "tagText", "bench",
                    "searchText", key + "\nbench\n" + value, "metadata", "{\"n\":" + i + "}"));
        }
        Map<String, Object> params = Map.of("store", store, "project", PROJECT, "now", System.currentTimeMillis(), "rows", rows);
        try (Session session = driver.session(SessionConfig.defaultConfig())) {
            session.executeWrite(tx -> tx.run(WRITE_UNWIND, params).consume(), transactionConfig);
        }
    }

    // ------------------------------------------------------------------ traverse

    /** The traversal's maximum depth: a state of the traverse pair only, so relate does not run once per depth. */
    @State(Scope.Benchmark)
    public static class Depth {
        /** How deep the walk goes. */
        @Param({"2", "3"})
        public int depth;

        Traversal traversal;
        String statement;

        @Setup(Level.Trial)
        public void setUp() {
            traversal = Traversal.outgoing(depth);
            statement = traverseStatement(depth);
        }
    }

    /** Walks from the next entry, outgoing, to {@code depth}. */
    @Benchmark
    @Measure(value = "graph traverse (depth 2-3) vs the provider's Cypher sent through the driver", target = 0)
    public List<GraphPath> traverse_ours(Graph g, Depth depth) {
        return graph.traverse(g.refs[Math.floorMod(next++, g.entries)], depth.traversal);
    }

    /** The provider's two statements for traverse, in one managed read transaction; each relation's ends read. */
    @Benchmark
    public void traverse_baseline(Graph g, Depth depth, Blackhole blackhole) {
        Map<String, Object> params = end(g, "a", Math.floorMod(next++, g.entries), new HashMap<>());
        params.put("visible", g.visible);
        params.put("types", List.of());
        try (Session session = driver.session(SessionConfig.defaultConfig())) {
            session.executeRead(tx -> {
                if (tx.run(TRAVERSE_START, params).list().isEmpty()) {
                    return 0;
                }
                tx.run(depth.statement, params).forEachRemaining(row -> {
                    Node f = row.get("f").asNode();
                    Node t = row.get("t").asNode();
                    blackhole.consume(f.get("key").asString());
                    blackhole.consume(f.get("scope").asString());
                    blackhole.consume(row.get("type").asString());
                    blackhole.consume(t.get("key").asString());
                    blackhole.consume(t.get("scope").asString());
                    blackhole.consume(row.get("createdAt").asLong(0));
                });
                return 0;
            }, transactionConfig);
        }
    }
}
