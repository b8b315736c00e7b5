package dev.forge.memory.postgres;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.forge.memory.postgres.testserver.LocalPostgres;
import dev.forge.memory.postgres.testserver.LocalPostgres.Server;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * The one PostgreSQL server the tests of this JVM share, started on first use and stopped at JVM exit. In order of
 * preference: {@code PG_URL} (a {@code postgresql://host:port/db} or {@code jdbc:postgresql:} URL, with
 * {@code PG_USER}, {@code PG_PASSWORD}) when set; a Testcontainers {@value #IMAGE} where a Docker engine answers;
 * else a server started from the machine's PostgreSQL binaries by {@link LocalPostgres} (which the benchmarks use too,
 * having no JUnit or Testcontainers). Where none of the three is possible, every test that needs a
 * server is skipped, naming what to install. Each test class takes a database of its own ({@link #newDatabase}).
 */
public final class TestPostgres {

    /** The image a container runs: PostgreSQL 16 with pgvector, so that the semantic search suite runs wherever Docker does. */
    public static final String IMAGE = "pgvector/pgvector:pg16";

    /** The superuser of a server these tests start, and its password (so that password logins are what is tested). */
    static final String USER = LocalPostgres.USER;
    static final String PASSWORD = LocalPostgres.PASSWORD;

    private static Server server;
    private static String unavailable;
    private static String pgvector;

    private TestPostgres() {
    }

    /** The shared server, started on first call; skips the calling test (an assumption) where none can run. */
    public static synchronized Server server() {
        if (server == null && unavailable == null) {
            try {
                server = start();
            } catch (Unavailable e) {
                unavailable = e.getMessage();
            }
        }
        assumeTrue(server != null, () -> "No PostgreSQL server for this test: " + unavailable);
        return server;
    }

    /**
     * A new, empty database on the shared server, for one test class, so that classes never see each other's data.
     *
     * @return its name
     */
    public static String newDatabase() {
        Server s = server();
        String name = "forge_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        try (Connection connection = DriverManager.getConnection(s.jdbcUrl(s.database()), s.user(), s.password());
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + name + " TEMPLATE template0 ENCODING 'UTF8'");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create a test database on " + s.host() + ":" + s.port() + ": " + e, e);
        }
        return name;
    }

    /**
     * Skips the calling test (an assumption) unless the shared server offers the pgvector extension, saying where the
     * suite runs instead.
     */
    public static void assumePgvector() {
        assumeTrue(hasPgvector(), () -> "The PostgreSQL server (" + server().host() + ":" + server().port() + ") has no "
                + "pgvector extension: install it on the server (the machine's binaries: build pgvector against "
                + "pg_config), set PG_URL to a server with it, or run where Docker runs (" + IMAGE + ").");
    }

    /** Whether the shared server offers the pgvector extension ({@code vector} in {@code pg_available_extensions}). */
    public static synchronized boolean hasPgvector() {
        if (pgvector == null) {
            Server s = server();
            try (Connection connection = DriverManager.getConnection(s.jdbcUrl(s.database()), s.user(), s.password());
                 Statement statement = connection.createStatement();
                 java.sql.ResultSet rows = statement.executeQuery(
                         "SELECT coalesce(max(default_version), '') FROM pg_available_extensions WHERE name = 'vector'")) {
                rows.next();
                pgvector = rows.getString(1);
            } catch (SQLException e) {
                throw new IllegalStateException("cannot ask " + s.host() + ":" + s.port() + " for its extensions: " + e, e);
            }
        }
        return !pgvector.isEmpty();
    }

    /**
     * The settings of a postgres provider on database {@code name} of the shared server (url, username, password and
     * a generous {@code connect_timeout}), in a new mutable map to add a schema and the rest to.
     */
    public static Map<String, Object> connection(String name) {
        Server s = server();
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("url", "postgresql://" + s.host() + ":" + s.port() + "/" + name);
        settings.put("username", s.user());
        settings.put("password", s.password());
        settings.put("connect_timeout", "2m");
        settings.put("pool_size", 4);
        return settings;
    }

    private static final class Unavailable extends Exception {
        Unavailable(String message) {
            super(message);
        }
    }

    private static Server start() throws Unavailable {
        Optional<Server> external = LocalPostgres.external();
        if (external.isPresent()) {
            return external.get();
        }
        if (dockerAvailable()) {
            return container();
        }
        try {
            return LocalPostgres.startFromBinaries();
        } catch (LocalPostgres.Unavailable e) {
            throw new Unavailable("no PG_URL, no Docker engine and " + e.getMessage());
        }
    }

    @SuppressWarnings("resource") // stopped by the shutdown hook
    private static Server container() {
        GenericContainer<?> container = new GenericContainer<>(IMAGE)
                .withEnv("POSTGRES_USER", USER)
                .withEnv("POSTGRES_PASSWORD", PASSWORD)
                .withEnv("POSTGRES_DB", "postgres")
                .withExposedPorts(5432)
                .withCommand("postgres", "-c", "fsync=off", "-c", "max_connections=400")
                .waitingFor(Wait.forLogMessage(".*database system is ready to accept connections.*", 2)
                        .withStartupTimeout(LocalPostgres.START_TIMEOUT));
        container.start();
        Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "postgres-test-container-stop"));
        return new Server("testcontainers", container.getHost(), container.getMappedPort(5432), "postgres", USER, PASSWORD);
    }

    /** Whether a Docker engine answers; never throws. */
    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }
}
