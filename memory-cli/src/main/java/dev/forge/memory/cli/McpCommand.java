package dev.forge.memory.cli;

import dev.forge.memory.MemoryException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.mcp.KnowledgeGraphTools;
import dev.forge.memory.mcp.McpHttpEndpoint;
import dev.forge.memory.mcp.MemoryMcpServer;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code mcp [--http [--port N]]}: serves the configured provider to MCP clients. */
@Command(name = "mcp", mixinStandardHelpOptions = true,
        description = {"Serve the configured provider as an MCP server: tools set, get, query, search, delete, relate, "
                + "traverse, history and context, and memories as memory:// resources. The provider is opened once, "
                + "for the whole session.",
            "Over stdio (default) until the client closes stdin: stdout carries only the protocol, logs go to stderr "
                    + "(everything with --verbose).",
            "With --http, over streamable HTTP at http://127.0.0.1:PORT/mcp until stopped (Ctrl-C, SIGTERM); every "
                    + "request must carry 'Authorization: Bearer TOKEN', the token taken from $" + McpCommand.TOKEN_VARIABLE
                    + " or generated and printed on stderr.",
            "SESSION memories belong to the server's own session, removed when it stops (the client closes stdin, "
                    + "SIGTERM, Ctrl-C), unless --session or $" + ForgeMemoryCommand.SESSION_VARIABLE + " names one: "
                    + "a named session is left for later calls.",
            "Client configuration: docs/mcp.md."})
final class McpCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(McpCommand.class);

    /** The environment variable holding the bearer token of {@code --http}. */
    static final String TOKEN_VARIABLE = "FORGE_MCP_TOKEN";
    /** The default port of {@code --http}. */
    static final int DEFAULT_PORT = 8765;

    @ParentCommand
    ForgeMemoryCommand cli;

    /** Counted down once the provider is closed: a shutdown hook waits for it before the JVM exits. */
    private final CountDownLatch closed = new CountDownLatch(1);

    @Option(names = "--http", description = "Serve streamable HTTP on 127.0.0.1 instead of stdio.")
    boolean http;

    /** Which tools the server offers. */
    enum Tools {
        /** set, get, query, search, delete, relate, traverse, history, context. */
        NATIVE,
        /** The official MCP memory server's nine tools, over the GLOBAL scope. */
        OFFICIAL,
        /** Both sets. */
        ALL
    }

    @Option(names = "--tools", paramLabel = "SET", defaultValue = "native", converter = ToolsConverter.class,
            description = "native (default): set, get, query, search, delete, relate, traverse, history, context; "
                    + "official: the official MCP memory server's tools (create_entities, read_graph, ...) over the "
                    + "GLOBAL scope, for its users (docs/mcp-compatibility.md); all: both.")
    Tools tools;

    @Option(names = "--port", paramLabel = "N", description = "With --http: the port, 0 for any free one (default: "
            + DEFAULT_PORT + ").")
    Integer port;

    @Override
    public Integer call() {
        if (port != null && !http) {
            throw new UsageException("--port only goes with --http.");
        }
        if (port != null && (port < 0 || port > 65_535)) {
            throw new UsageException("--port must be from 0 to 65535; got " + port + ".");
        }
        // Unnamed, the session is this server's own (seed 004: SESSION is cleared when the session ends), not the
        // 'cli' session the shell's commands share; a named one may outlive the server, so the server leaves it.
        boolean ownSession = !cli.sessionNamed();
        String session = ownSession ? "mcp-" + UUID.randomUUID() : cli.sessionId();
        // The protocol owns the process's stdout: anything else a library prints there goes to stderr instead.
        OutputStream protocol = new FileOutputStream(FileDescriptor.out);
        PrintStream stdout = System.out;
        System.setOut(System.err);
        try (MemoryProvider memory = cli.memories().sessionId(session).open()) {
            String version = ForgeMemoryCommand.class.getPackage().getImplementationVersion();
            MemoryMcpServer server = MemoryMcpServer.builder(memory)
                    .version(version == null ? "development" : version)
                    .nativeTools(tools != Tools.OFFICIAL)
                    .tools(tools == Tools.NATIVE ? List.of() : KnowledgeGraphTools.of(memory, Scope.GLOBAL))
                    .build();
            try {
                if (http) {
                    serveHttp(server);
                } else {
                    Thread hook = onShutdown(server::stopStdio);
                    try {
                        server.serveStdio(cli.stdin(), protocol);
                    } finally {
                        removeHook(hook);
                    }
                }
            } finally {
                if (ownSession) {
                    endSession(memory, session);
                }
            }
        } finally {
            System.setOut(stdout);
            closed.countDown();
        }
        return ExitCodes.OK;
    }

    /** Removes the server's own session's SESSION memories; a failure is logged, never the end of the shutdown. */
    private static void endSession(MemoryProvider memory, String session) {
        try {
            int removed = memory.endSession();
            LOG.info("Session {} ended: {} SESSION memories removed.", session, removed);
        } catch (MemoryException e) {
            LOG.warn("The SESSION memories of session {} were not removed ({}); remove them with 'forge-memory clear "
                    + "--scope session --session {} --yes'.", session, e.getMessage(), session);
        }
    }

    private void serveHttp(MemoryMcpServer server) {
        String token = cli.environment(TOKEN_VARIABLE);
        boolean generated = token == null || token.isBlank();
        if (generated) {
            byte[] random = new byte[32];
            new SecureRandom().nextBytes(random);
            token = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        }
        McpHttpEndpoint endpoint = server.serveHttp(port == null ? DEFAULT_PORT : port, token);
        onShutdown(endpoint::close);
        cli.err().println("Serving MCP on " + endpoint.uri() + (generated ? " with the bearer token " + token
                + " (set $" + TOKEN_VARIABLE + " to choose it)." : " with the bearer token from $" + TOKEN_VARIABLE + "."));
        cli.err().flush();
        endpoint.await();
    }

    /**
     * On Ctrl-C or SIGTERM (which MCP clients send after closing a stdio server's input): {@code stop} serving, and
     * let the serving thread end the session and close the provider before the JVM exits.
     */
    private Thread onShutdown(Runnable stop) {
        Thread hook = new Thread(() -> {
            stop.run();
            try {
                closed.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "forge-memory-mcp-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        return hook;
    }

    /** Removes a hook no longer needed (a server run in-process, as tests do, must not leave one per run). */
    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running or about to: it stops nothing more and waits for the provider to close.
        }
    }

    /** Reads {@code --tools} in any case, naming the sets on a typo. */
    static final class ToolsConverter implements picocli.CommandLine.ITypeConverter<Tools> {
        @Override
        public Tools convert(String value) {
            for (Tools set : Tools.values()) {
                if (set.name().equalsIgnoreCase(value.trim())) {
                    return set;
                }
            }
            throw new picocli.CommandLine.TypeConversionException("'" + value
                    + "' is not a tool set: use native, official or all.");
        }
    }
}
