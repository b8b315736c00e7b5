package dev.forge.memory.benchmarks.mcp;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.benchmarks.Measure;
import dev.forge.memory.benchmarks.markdown.BenchStores;
import dev.forge.memory.benchmarks.vector.WordNetSentences;
import dev.forge.memory.config.Memories;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Tool-call latency (JMH's sample mode: the report shows p50 and p99) of our MCP server beside the official MCP memory
 * server, each a real child process on a store of {@code entries} memories, each driven over stdio by the MCP Java
 * SDK's own synchronous client, one call at a time, each answer awaited.
 *
 * <p><b>Ours</b>: {@code forge-memory --project DIR mcp} (the command's {@code Main} in a child JVM on the benchmarks
 * jar) serving the {@code hybrid} provider at its defaults: sqlite storage ({@code synchronous: full}: every write's
 * commit forced to the disk), a vector search child with the local {@code minilm} model (loaded once, when the server
 * opens the store), the in-process cache ({@code 1h}, 10,000 entries). The store is filled before the server starts,
 * untimed, the way a user moves a store in: the entries written through the {@code sqlite} provider on the same file
 * ({@code synchronous: normal}), then the hybrid router opened at its defaults and reindexed (its vector index built
 * from the storage in one pass: written one {@code set} at a time, each committed to the Lucene index, 10,000 entries
 * take about 15 minutes here). {@code get} reads a PROJECT key; {@code set} replaces the value of an existing key
 * (a new version in sqlite, a new vector: the text is embedded before the call returns); {@code set_new} stores a new
 * key; {@code search} is mode {@code hybrid}, top 10: the query embedded by the model, Lucene's HNSW ranking fused with
 * sqlite FTS5's bm25 ranking.
 *
 * <p><b>Baseline</b>: the official server ({@code @modelcontextprotocol/server-memory}, pinned in
 * {@code benchmarks/mcp}) on a graph of the same {@code entries} texts, one entity each (name the key, type
 * {@code note}, one observation the text), written as its JSON Lines file before it starts. It reads and parses the
 * whole file on every call and, on a write, writes the whole file again (to a temporary file renamed over it, never
 * forced to the disk). {@code get} is {@code open_nodes} of one name; {@code set} is {@code add_observations} of the
 * new text to an existing entity; {@code set_new} is {@code create_entities} of one entity; {@code search} is
 * {@code search_nodes}: a case-insensitive substring scan of every name, type and observation, returning every match
 * unranked and unbounded. Both sides get the same keys, texts and queries (a word of a WordNet example sentence that
 * is not in the store).
 *
 * <p>Without {@code node} or the installed package, the baselines are skipped as in {@link McpWriteBench}.
 */
@Fork(1)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
public class McpToolBench {

    /** The hybrid store of the server, as a user writes it in {@code .forge/config.yaml}. */
    static final String CONFIG = """
            memory:
              provider: hybrid
              config:
                storage: { provider: sqlite, path: .forge/memory.db }
                search:  { provider: vector, path: .forge/vectors, embedding: { model: minilm } }
            """;

    /** The same sqlite file as the hybrid's storage, opened on its own for the fill. */
    static final String FILL_CONFIG = """
            memory:
              provider: sqlite
              config: { path: .forge/memory.db, synchronous: normal }
            """;

    /** Memories in each store before timing. */
    @Param("10000")
    public int entries;

    String[] keys;
    String[] texts;
    String[] queries;
    int next;
    long written;

    /** The texts (WordNet sentences and definitions) and the held-out queries; the same for every fork. */
    @Setup(Level.Trial)
    public void setUp() {
        WordNetSentences sentences = WordNetSentences.load(QUERIES, entries);
        keys = new String[entries];
        texts = sentences.corpus().toArray(String[]::new);
        for (int i = 0; i < entries; i++) {
            keys[i] = BenchStores.key(i);
        }
        queries = sentences.queries().stream().map(McpToolBench::longestWord).toArray(String[]::new);
    }

    private static final int QUERIES = 200;

    /** The longest word of {@code sentence}, in lower case: what an agent passes to a keyword-style search. */
    static String longestWord(String sentence) {
        String longest = "";
        for (String word : sentence.toLowerCase(Locale.ROOT).split("[^\\p{L}]+")) {
            if (word.length() > longest.length()) {
                longest = word;
            }
        }
        return longest;
    }

    int nextIndex() {
        next = (int) ((next + 7919L) % entries);
        return next;
    }

    String revision(int i) {
        return texts[i] + " (revision " + ++written + ")";
    }

    /** Our server on the filled hybrid store. */
    @State(org.openjdk.jmh.annotations.Scope.Benchmark)
    public static class Ours {
        Path directory;
        McpStdioClient server;

        /** Fills the store through the provider, then starts the server on it. */
        @Setup(Level.Trial)
        public void setUp(McpToolBench bench) throws IOException {
            directory = BenchStores.newDirectory("mcp-tool-ours");
            Path project = Files.createDirectories(directory.resolve("project"));
            Path home = Files.createDirectories(directory.resolve("home"));
            Path config = Files.createDirectories(project.resolve(".forge")).resolve("config.yaml");
            Map<String, String> environment = Map.of(Memories.HOME_VARIABLE, home.toString());
            Files.writeString(config, FILL_CONFIG);
            try (MemoryProvider provider = Memories.builder().projectDirectory(project).environment(environment)
                    .plugins(false).open()) {
                for (int i = 0; i < bench.entries; i++) {
                    provider.set(bench.keys[i], bench.texts[i], Scope.PROJECT, List.of(BenchStores.TAG), Map.of());
                }
            }
            Files.writeString(config, CONFIG);
            try (MemoryProvider provider = Memories.builder().projectDirectory(project).environment(environment)
                    .plugins(false).open()) {
                long indexed = provider.requireReindexing().reindex().entries();
                if (indexed < bench.entries) {
                    throw new IllegalStateException("The reindex of the filled store indexed " + indexed + " entries of "
                            + bench.entries);
                }
            }
            server = McpStdioClient.start("forge-memory mcp", McpStdioClient.forgeMemoryMcp(project), environment);
        }

        /** Stops the server and removes the store. */
        @TearDown(Level.Trial)
        public void tearDown() {
            if (server != null) {
                server.close();
            }
            BenchStores.deleteTree(directory);
        }
    }

    /** The official server on a graph of the same memories. */
    @State(org.openjdk.jmh.annotations.Scope.Benchmark)
    public static class Official {
        Path directory;
        McpStdioClient server;

        /** Writes the graph file, then starts the server on it; or records why it cannot run and fails. */
        @Setup(Level.Trial)
        public void setUp(McpToolBench bench, BenchmarkParams params) throws IOException {
            McpMemoryServer.Found installation = McpWriteBench.installationOrSkip(params);
            directory = BenchStores.newDirectory("mcp-tool-official");
            Path graph = directory.resolve("memory.jsonl");
            writeGraph(graph, bench.keys, bench.texts);
            server = McpStdioClient.start("the official MCP memory server", McpStdioClient.official(installation),
                    Map.of(McpMemoryServer.MEMORY_FILE_VARIABLE, graph.toString()));
        }

        /** Stops the server and removes its graph. */
        @TearDown(Level.Trial)
        public void tearDown() {
            if (server != null) {
                server.close();
            }
            BenchStores.deleteTree(directory);
        }
    }

    /** The official server's JSON Lines graph: one entity per memory, as its {@code saveGraph} writes it. */
    static void writeGraph(Path file, String[] names, String[] observations) {
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        try (BufferedWriter writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 0; i < names.length; i++) {
                var entity = json.createObjectNode().put("type", "entity").put("name", names[i])
                        .put("entityType", BenchStores.TAG);
                entity.putArray("observations").add(observations[i]);
                writer.write(json.writeValueAsString(entity));
                writer.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the MCP memory server's graph " + file, e);
        }
    }

    /** {@code get} of an existing key. */
    @Benchmark
    @Measure(value = "MCP tool call get over stdio (hybrid: sqlite + minilm vectors) vs the official server's "
            + "open_nodes of one entity", target = 1)
    public String get_ours(McpToolBench bench, Ours ours) {
        return ours.server.call("get", Map.of("key", bench.keys[bench.nextIndex()]));
    }

    /** {@code open_nodes} of one existing entity. */
    @Benchmark
    public String get_baseline(McpToolBench bench, Official official) {
        return official.server.call("open_nodes", Map.of("names", List.of(bench.keys[bench.nextIndex()])));
    }

    /** {@code set} of an existing key: a new version, a new vector. */
    @Benchmark
    @Measure(value = "MCP tool call set of an existing key (fsync'd, re-embedded) vs the official server's "
            + "add_observations to an existing entity (whole file rewritten, no fsync)", target = 1)
    public String set_ours(McpToolBench bench, Ours ours) {
        int i = bench.nextIndex();
        return ours.server.call("set", Map.of("key", bench.keys[i], "value", bench.revision(i), "tags",
                List.of(BenchStores.TAG)));
    }

    /** {@code add_observations} of one new text to an existing entity. */
    @Benchmark
    public String set_baseline(McpToolBench bench, Official official) {
        int i = bench.nextIndex();
        return official.server.call("add_observations", Map.of("observations",
                List.of(Map.of("entityName", bench.keys[i], "contents", List.of(bench.revision(i))))));
    }

    /** {@code set} of a new key. */
    @Benchmark
    @Measure(value = "MCP tool call set of a new key (fsync'd, embedded) vs the official server's create_entities "
            + "of one entity (whole file rewritten, no fsync)", target = 1)
    public String set_new_ours(McpToolBench bench, Ours ours) {
        int i = bench.nextIndex();
        return ours.server.call("set", Map.of("key", "new-" + bench.written, "value", bench.revision(i), "tags",
                List.of(BenchStores.TAG)));
    }

    /** {@code create_entities} of one new entity. */
    @Benchmark
    public String set_new_baseline(McpToolBench bench, Official official) {
        int i = bench.nextIndex();
        String name = "new-" + bench.written;
        return official.server.call("create_entities", Map.of("entities", List.of(Map.of("name", name,
                "entityType", BenchStores.TAG, "observations", List.of(bench.revision(i))))));
    }

    /** {@code search} mode hybrid, top 10. */
    @Benchmark
    @Measure(value = "MCP tool call search mode hybrid, top 10 (query embedded, HNSW + FTS5 fused) vs the official "
            + "server's search_nodes (substring scan, every match)", target = 1)
    public String search_ours(McpToolBench bench, Ours ours) {
        return ours.server.call("search", Map.of("text", bench.queries[bench.nextIndex() % QUERIES], "mode", "hybrid"));
    }

    /** {@code search_nodes} of the same query. */
    @Benchmark
    public String search_baseline(McpToolBench bench, Official official) {
        return official.server.call("search_nodes", Map.of("query", bench.queries[bench.nextIndex() % QUERIES]));
    }
}
