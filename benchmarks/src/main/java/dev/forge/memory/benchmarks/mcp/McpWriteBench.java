package dev.forge.memory.benchmarks.mcp;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.benchmarks.Extras;
import dev.forge.memory.benchmarks.Measure;
import dev.forge.memory.benchmarks.markdown.BenchStores;
import dev.forge.memory.config.Memories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Writing {@code items} memories one call each, as an agent does, into an empty store: the markdown and the file
 * provider at their default settings ({@code fsync: true}: each write forced to the disk) against the official MCP
 * memory server ({@code @modelcontextprotocol/server-memory}, pinned in {@code benchmarks/mcp/package.json}), driven
 * over stdio with one {@code create_entities} call per memory (one entity, one observation), each answer awaited.
 * The server writes its whole graph (a JSON Lines file, not forced to the disk) on every call. Starting the server
 * and its {@code initialize} handshake, like opening a provider, are not timed. One invocation per iteration, each
 * on a fresh store.
 *
 * <p>{@code serverWrites} compares server to server: our MCP server ({@code forge-memory mcp} in a child JVM, the
 * default markdown provider at its defaults, {@code fsync: true}) taking one {@code set} tool call per memory, against
 * the official server taking one {@code create_entities} call per memory, both driven over stdio by the MCP Java SDK's
 * own client ({@link McpStdioClient}), both servers started on an empty store per iteration, untimed.
 *
 * <p>Without {@code node} or the installed package, every benchmark of this class is skipped: its setup records an
 * {@link Extras} line {@code mcp.skipped} (params {@code benchmark} and {@code reason}) and fails with the reason, so
 * neither side of a pair has a result.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
// One fork and a few invocations: at 5,000 items one invocation of the baseline takes tens of seconds (its whole-file
// rewrite per call makes it quadratic), and JMH's defaults (5 forks x 10 invocations x 6 benchmarks) would take hours.
@Fork(1)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
public class McpWriteBench {

    /** The name of the {@link Extras} line recorded when the server cannot run. */
    public static final String SKIPPED = "mcp.skipped";

    /** Memories written per invocation. */
    @Param("5000")
    public int items;

    McpMemoryServer.Found installation;
    Path root;

    /** Finds the server, or records why every benchmark here is skipped and fails with that reason. */
    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        installation = installationOrSkip(params);
        root = BenchStores.newDirectory("mcp");
    }

    /**
     * The installed official server; or, when it cannot run, records an {@link Extras} line {@link #SKIPPED} naming
     * the benchmark and the reason, and fails the trial with that reason.
     */
    static McpMemoryServer.Found installationOrSkip(BenchmarkParams params) {
        McpMemoryServer.Installation found = McpMemoryServer.locate();
        if (found instanceof McpMemoryServer.Missing missing) {
            Extras.record(SKIPPED, 0, 0, "skipped", 0, 0,
                    Map.of("benchmark", params.getBenchmark(), "reason", missing.reason()));
            throw new IllegalStateException("Skipped: " + missing.reason());
        }
        return (McpMemoryServer.Found) found;
    }

    /** Removes the stores. */
    @TearDown(Level.Trial)
    public void tearDown() {
        BenchStores.deleteTree(root);
    }

    /** A fresh, empty store of one provider per iteration. */
    public abstract static class Store {
        MemoryProvider provider;
        Path directory;

        abstract BenchStores.Backend backend();

        /** Opens the provider on a new directory. */
        @Setup(Level.Iteration)
        public void setUp(McpWriteBench bench) {
            directory = BenchStores.newDirectory("mcp-store");
            provider = backend().open(directory, true);
        }

        /** Closes the provider and removes its directory. */
        @TearDown(Level.Iteration)
        public void tearDown() {
            provider.close();
            BenchStores.deleteTree(directory);
        }
    }

    /** The markdown provider, defaults ({@code fsync: true}). */
    @State(Scope.Benchmark)
    public static class MarkdownStore extends Store {
        @Override
        BenchStores.Backend backend() {
            return BenchStores.Backend.MARKDOWN;
        }
    }

    /** The file provider, defaults ({@code fsync: true}). */
    @State(Scope.Benchmark)
    public static class FileStore extends Store {
        @Override
        BenchStores.Backend backend() {
            return BenchStores.Backend.FILE;
        }
    }

    /** The MCP memory server, started on an empty graph file per iteration. */
    @State(Scope.Benchmark)
    public static class Server {
        McpMemoryServer server;
        Path directory;

        /** Starts the server and completes the handshake. */
        @Setup(Level.Iteration)
        public void setUp(McpWriteBench bench) throws IOException {
            directory = BenchStores.newDirectory("mcp-server");
            server = McpMemoryServer.start(bench.installation, directory.resolve("memory.jsonl"));
        }

        /** Stops the server and removes its graph. */
        @TearDown(Level.Iteration)
        public void tearDown() {
            server.close();
            BenchStores.deleteTree(directory);
        }
    }

    /** Our MCP server ({@code forge-memory mcp}, markdown at its defaults) on an empty store, per iteration. */
    @State(Scope.Benchmark)
    public static class OurServer {
        McpStdioClient server;
        Path directory;

        /** Starts the server on an empty project and completes the handshake. */
        @Setup(Level.Iteration)
        public void setUp() throws IOException {
            directory = BenchStores.newDirectory("mcp-our-server");
            Path project = Files.createDirectories(directory.resolve("project"));
            Path home = Files.createDirectories(directory.resolve("home"));
            server = McpStdioClient.start("forge-memory mcp", McpStdioClient.forgeMemoryMcp(project),
                    Map.of(Memories.HOME_VARIABLE, home.toString()));
        }

        /** Stops the server and removes its store. */
        @TearDown(Level.Iteration)
        public void tearDown() {
            server.close();
            BenchStores.deleteTree(directory);
        }
    }

    /** The official server, started on an empty graph file per iteration and driven by the SDK's client. */
    @State(Scope.Benchmark)
    public static class OfficialServer {
        McpStdioClient server;
        Path directory;

        /** Starts the server and completes the handshake. */
        @Setup(Level.Iteration)
        public void setUp(McpWriteBench bench) {
            directory = BenchStores.newDirectory("mcp-official-server");
            server = McpStdioClient.start("the official MCP memory server", McpStdioClient.official(bench.installation),
                    Map.of(McpMemoryServer.MEMORY_FILE_VARIABLE, directory.resolve("memory.jsonl").toString()));
        }

        /** Stops the server and removes its graph. */
        @TearDown(Level.Iteration)
        public void tearDown() {
            server.close();
            BenchStores.deleteTree(directory);
        }
    }

    /** {@code items} {@code set} tool calls to our server. */
    @Benchmark
    @Measure(value = "our MCP server's set x items over stdio (markdown, defaults: fsync) vs the official MCP memory "
            + "server's create_entities x items, both through the MCP SDK's client", target = 20)
    public int serverWrites_ours(OurServer server) {
        for (int i = 0; i < items; i++) {
            server.server.call("set", Map.of("key", BenchStores.key(i), "value", BenchStores.value(i),
                    "tags", List.of(BenchStores.TAG)));
        }
        return items;
    }

    /** {@code items} {@code create_entities} calls to the official server, through the same client. */
    @Benchmark
    public int serverWrites_baseline(OfficialServer server) {
        for (int i = 0; i < items; i++) {
            server.server.call("create_entities", Map.of("entities", List.of(Map.of("name", BenchStores.key(i),
                    "entityType", BenchStores.TAG, "observations", List.of(BenchStores.value(i))))));
        }
        return items;
    }

    /** {@code items} markdown {@code set}s. */
    @Benchmark
    @Measure(value = "markdown set x items vs the official MCP memory server's create_entities x items over stdio",
            target = 20)
    public int markdownWrites_ours(MarkdownStore store) {
        return writeAll(store.provider);
    }

    /** {@code items} {@code create_entities} calls to the MCP memory server. */
    @Benchmark
    public int markdownWrites_baseline(Server server) throws IOException {
        return writeAll(server.server);
    }

    /** {@code items} file {@code set}s. */
    @Benchmark
    @Measure(value = "file set x items vs the official MCP memory server's create_entities x items over stdio",
            target = 20)
    public int fileWrites_ours(FileStore store) {
        return writeAll(store.provider);
    }

    /** {@code items} {@code create_entities} calls to the MCP memory server. */
    @Benchmark
    public int fileWrites_baseline(Server server) throws IOException {
        return writeAll(server.server);
    }

    private int writeAll(MemoryProvider provider) {
        int versions = 0;
        for (int i = 0; i < items; i++) {
            BenchStores.write(provider, i);
            versions++;
        }
        return versions;
    }

    private int writeAll(McpMemoryServer server) throws IOException {
        int created = 0;
        for (int i = 0; i < items; i++) {
            created += server.createEntity(BenchStores.key(i), BenchStores.TAG, BenchStores.value(i))
                    .path("structuredContent").path("entities").size();
        }
        if (created != items) {
            throw new IllegalStateException("The MCP memory server created " + created + " of " + items + " entities");
        }
        return created;
    }
}
