package dev.forge.memory.graph;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilders;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.neo4j.Neo4jContainer;

import dev.forge.memory.graph.internal.Drivers;
import dev.forge.memory.support.TimeSpan;

/**
 * The one Neo4j server the tests of this JVM share, started on first use and stopped at JVM exit. In order of
 * preference: {@code NEO4J_URI} (with {@code NEO4J_USER}, {@code NEO4J_PASSWORD}) when set; a Testcontainers Neo4j
 * where a Docker engine answers; else an in-process server of {@code neo4j-harness}. All three are reached over Bolt.
 */
public final class TestNeo4j {

    /**
     * The {@code query_timeout} tests give the graph provider: sized for correctness on a busy machine (a 521-entry
     * reindex transaction ran past the 30 s default while other builds ran), not for speed.
     */
    public static final String QUERY_TIMEOUT = "10m";

    /**
     * The {@code connect_timeout} tests give the graph provider, which also bounds the wait for a pooled connection:
     * the default 5 s is a user's quick answer that the server is down, and a busy machine made a test that waits for a
     * connection from a live server fail with it ("Unable to acquire connection from the pool within 5000ms").
     */
    public static final String CONNECT_TIMEOUT = "2m";

    /** The image a container runs: the same release line as the harness. */
    public static final String IMAGE = "neo4j:5.26";

    /** Where a server is and how to log in; {@code username} empty when it has no authentication. */
    public record Server(String kind, URI uri, String username, String password, Duration startTime) {
    }

    private static Server server;
    private static Runnable stop = () -> { };

    private TestNeo4j() {
    }

    /**
     * The settings that reach the shared server, as a graph provider's config block holds them (url, login,
     * {@link #QUERY_TIMEOUT}, {@link #CONNECT_TIMEOUT}), in a new mutable map to add a store and the rest to.
     */
    public static Map<String, Object> connection() {
        Server server = server();
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("url", server.uri().toString());
        settings.put("username", server.username());
        settings.put("password", server.password());
        settings.put("query_timeout", QUERY_TIMEOUT);
        settings.put("connect_timeout", CONNECT_TIMEOUT);
        return settings;
    }

    /** The shared server, started on first call. */
    public static synchronized Server server() {
        if (server == null) {
            server = start();
        }
        return server;
    }

    /**
     * Starts the server and keeps one driver to it open until the JVM exits, so that the many providers the tests open
     * and close one after another share it (as the providers of one application do) instead of each connecting anew:
     * a driver's set-up and tear-down cost about 0.4 s, a third of the graph conformance run.
     */
    private static Server start() {
        Server started = startServer();
        GraphConfig defaults = GraphConfig.defaults();
        Drivers.Shared kept = Drivers.acquire(GraphMemoryProvider.driverSettings(new GraphConfig(started.uri().toString(),
                started.username(), started.password(), defaults.database(), defaults.poolSize(), TimeSpan.parse(CONNECT_TIMEOUT),
                defaults.queryTimeout(), defaults.store(), defaults.retryTime())));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            kept.release();
            stop.run();
        }, "neo4j-test-server-stop"));
        return started;
    }

    private static Server startServer() {
        long started = System.nanoTime();
        Optional<String> external = Optional.ofNullable(System.getenv("NEO4J_URI")).filter(s -> !s.isBlank());
        if (external.isPresent()) {
            return new Server("external", URI.create(external.get()), env("NEO4J_USER", "neo4j"), env("NEO4J_PASSWORD", ""),
                    Duration.ZERO);
        }
        if (dockerAvailable()) {
            Neo4jContainer container = new Neo4jContainer(IMAGE).withoutAuthentication();
            container.start();
            stop = container::stop;
            return new Server("testcontainers", URI.create(container.getBoltUrl()), "", "",
                    Duration.ofNanos(System.nanoTime() - started));
        }
        Neo4j harness = startHarness();
        stop = harness::close;
        return new Server("harness", harness.boltURI(), "", "", Duration.ofNanos(System.nanoTime() - started));
    }

    /**
     * An in-process server: Bolt only (no HTTP), and Netty's shutdown quiet period at zero, which takes closing from
     * about ten seconds down to a fraction of one.
     */
    static Neo4j startHarness() {
        return Neo4jBuilders.newInProcessBuilder()
                .withDisabledServer()
                .withConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 0)
                .withConfig(GraphDatabaseInternalSettings.cypher_replan_algorithm,
                        GraphDatabaseInternalSettings.CypherReplanAlgorithm.NONE)
                .withConfig(GraphDatabaseSettings.query_statistics_divergence_threshold, 1.0)
                .withConfig(GraphDatabaseSettings.cypher_min_replan_interval, Duration.ofHours(1))
                .build();
    }

    /** Whether a Docker engine answers; never throws. */
    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }
}
