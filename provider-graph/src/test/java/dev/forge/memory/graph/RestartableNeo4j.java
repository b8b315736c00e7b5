package dev.forge.memory.graph;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;

/**
 * A Neo4j server of this JVM on a fixed home directory and a fixed Bolt port, which the fault and crash tests stop and
 * start again on the same data: unlike {@link TestNeo4j}'s shared server, its store outlives {@link #stop()} and a
 * killed process. Bolt only, without authentication or TLS, a small page cache, and Netty's shutdown quiet period at
 * zero, so that a stop takes a fraction of a second.
 */
public final class RestartableNeo4j implements AutoCloseable {

    private final Path home;
    private final int port;
    private DatabaseManagementService dbms;
    private Duration lastStartTime = Duration.ZERO;

    /** A server (not started) on {@code home} and {@code port}. */
    public RestartableNeo4j(Path home, int port) {
        this.home = home;
        this.port = port;
    }

    /** A server (not started) on {@code home} and a port free right now. */
    public static RestartableNeo4j onFreePort(Path home) {
        return new RestartableNeo4j(home, freePort());
    }

    /** A loopback TCP port nobody listens on right now. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts the server on its home and port (the store recovers from its transaction log if it was killed). */
    public synchronized RestartableNeo4j start() {
        if (dbms != null) {
            throw new IllegalStateException("the Neo4j server on " + home + " runs already");
        }
        long started = System.nanoTime();
        dbms = new DatabaseManagementServiceBuilder(home)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
                .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
                .setConfig(HttpConnector.enabled, false)
                .setConfig(HttpsConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.auth_enabled, false)
                .setConfig(GraphDatabaseSettings.pagecache_memory, 16L * 1024 * 1024)
                .setConfig(GraphDatabaseSettings.preallocate_logical_logs, false)
                .setConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 0)
                .build();
        lastStartTime = Duration.ofNanos(System.nanoTime() - started);
        return this;
    }

    /** Shuts the server down cleanly: open Bolt connections are closed, the store is checkpointed. */
    public synchronized void stop() {
        if (dbms != null) {
            try {
                dbms.shutdown();
            } finally {
                dbms = null;
            }
        }
    }

    /** Whether the server runs. */
    public synchronized boolean running() {
        return dbms != null;
    }

    /** The Bolt URL, {@code bolt://127.0.0.1:<port>}. */
    public URI uri() {
        return URI.create("bolt://127.0.0.1:" + port);
    }

    /** The Bolt port. */
    public int port() {
        return port;
    }

    /** The home directory (data, transaction logs, logs). */
    public Path home() {
        return home;
    }

    /** How long the last {@link #start()} took. */
    public Duration lastStartTime() {
        return lastStartTime;
    }

    @Override
    public void close() {
        stop();
    }
}
