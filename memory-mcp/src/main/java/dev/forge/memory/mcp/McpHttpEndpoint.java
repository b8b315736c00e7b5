package dev.forge.memory.mcp;

import dev.forge.memory.BackendUnavailableException;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.EnumSet;
import java.util.Objects;
import org.eclipse.jetty.ee11.servlet.FilterHolder;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * A running streamable HTTP endpoint of a {@link MemoryMcpServer}: an embedded Jetty on 127.0.0.1 only, every request
 * checked for the bearer token before the SDK's servlet sees it. Closing it stops Jetty and the MCP server; the
 * provider stays open (its owner closes it).
 */
public final class McpHttpEndpoint implements AutoCloseable {

    /** The path of the endpoint. */
    public static final String PATH = "/mcp";

    private final Server jetty;
    private final McpSyncServer server;
    private final URI uri;

    private McpHttpEndpoint(Server jetty, McpSyncServer server, URI uri) {
        this.jetty = jetty;
        this.server = server;
        this.uri = uri;
    }

    static McpHttpEndpoint start(HttpServletStreamableServerTransportProvider transport, McpSyncServer server, int port,
            String token) {
        Objects.requireNonNull(token, "token");
        if (token.isBlank()) {
            throw new IllegalArgumentException("The bearer token is empty.");
        }
        Server jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        context.addServlet(new ServletHolder(transport), PATH);
        context.addFilter(new FilterHolder(new BearerToken(token)), "/*", EnumSet.of(jakarta.servlet.DispatcherType.REQUEST));
        jetty.setHandler(context);
        try {
            jetty.start();
        } catch (Exception e) {
            server.close();
            throw new BackendUnavailableException("Cannot serve MCP over HTTP on 127.0.0.1:" + port + ": " + e.getMessage()
                    + ". Choose another port with --port.", e);
        }
        return new McpHttpEndpoint(jetty, server, URI.create("http://127.0.0.1:" + connector.getLocalPort() + PATH));
    }

    /** Where clients connect: {@code http://127.0.0.1:PORT/mcp}. */
    public URI uri() {
        return uri;
    }

    /** Blocks until the endpoint is closed. */
    public void await() {
        try {
            jetty.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops serving. */
    @Override
    public void close() {
        server.closeGracefully();
        try {
            jetty.stop();
        } catch (Exception e) {
            throw new BackendUnavailableException("Stopping the MCP HTTP endpoint failed: " + e.getMessage(), e);
        }
    }

    /** Refuses every request without {@code Authorization: Bearer TOKEN}: 401, one JSON line saying why. */
    private static final class BearerToken implements Filter {

        private final byte[] expected;

        BearerToken(String token) {
            this.expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            String given = ((HttpServletRequest) request).getHeader("Authorization");
            // Compared in constant time: the token is the only thing between another local user and the memories.
            if (given != null && MessageDigest.isEqual(expected, given.getBytes(StandardCharsets.UTF_8))) {
                chain.doFilter(request, response);
                return;
            }
            HttpServletResponse http = (HttpServletResponse) response;
            http.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
            http.setHeader("WWW-Authenticate", "Bearer");
            http.setContentType("application/json");
            http.getWriter().write("{\"error\":\"Send the server's token as 'Authorization: Bearer TOKEN' (forge-memory mcp "
                    + "--http prints it on stderr, or takes it from $FORGE_MCP_TOKEN).\"}");
        }
    }
}
