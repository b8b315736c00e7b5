package dev.forge.memory.postgres;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * The one PostgreSQL server the tests of this JVM share, started on first use and stopped at JVM exit. In order of
 * preference: {@code PG_URL} (a {@code postgresql://host:port/db} or {@code jdbc:postgresql:} URL, with
 * {@code PG_USER}, {@code PG_PASSWORD}) when set; a Testcontainers {@value #IMAGE} where a Docker engine answers;
 * else a server started from the machine's PostgreSQL binaries ({@code pg_config --bindir}, else the newest
 * {@code /usr/lib/postgresql/<n>/bin}) in a temporary directory, on a free port, run as the {@code postgres} user when
 * this JVM runs as root (PostgreSQL refuses root). Where none of the three is possible, every test that needs a
 * server is skipped, naming what to install. Each test class takes a database of its own ({@link #newDatabase}).
 */
public final class TestPostgres {

    /** The image a container runs. */
    public static final String IMAGE = "postgres:15";

    /** The superuser of a server these tests start, and its password (so that password logins are what is tested). */
    static final String USER = "forge";
    static final String PASSWORD = "forge-test-secret";

    /** Waits on a busy machine: minutes, not seconds. */
    private static final Duration START_TIMEOUT = Duration.ofMinutes(5);

    /**
     * Where a server is and how to log in.
     *
     * @param kind      {@code external}, {@code testcontainers} or {@code binaries}
     * @param host      host name
     * @param port      TCP port
     * @param database  the database to connect to for administration (creating the tests' databases)
     * @param user      the login
     * @param password  its password
     */
    public record Server(String kind, String host, int port, String database, String user, String password) {

        /** The JDBC URL of database {@code name} on this server. */
        public String jdbcUrl(String name) {
            return "jdbc:postgresql://" + host + ":" + port + "/" + name;
        }
    }

    private static Server server;
    private static String unavailable;

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
        String url = System.getenv("PG_URL");
        if (url != null && !url.isBlank()) {
            return external(url.strip());
        }
        if (dockerAvailable()) {
            return container();
        }
        return binaries();
    }

    private static Server external(String url) {
        String rest = url.replaceFirst("^jdbc:", "").replaceFirst("^postgres(ql)?://", "");
        String hostPort = rest.contains("/") ? rest.substring(0, rest.indexOf('/')) : rest;
        if (hostPort.contains("@")) {
            hostPort = hostPort.substring(hostPort.lastIndexOf('@') + 1);
        }
        String database = rest.contains("/") ? rest.substring(rest.indexOf('/') + 1).replaceFirst("\\?.*", "") : "postgres";
        String host = hostPort.contains(":") ? hostPort.substring(0, hostPort.lastIndexOf(':')) : hostPort;
        int port = hostPort.contains(":") ? Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1)) : 5432;
        return new Server("external", host, port, database.isEmpty() ? "postgres" : database,
                env("PG_USER", "postgres"), env("PG_PASSWORD", ""));
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
                        .withStartupTimeout(START_TIMEOUT));
        container.start();
        Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "postgres-test-container-stop"));
        return new Server("testcontainers", container.getHost(), container.getMappedPort(5432), "postgres", USER, PASSWORD);
    }

    /** The directory of the machine's {@code initdb} and {@code pg_ctl}. */
    static Optional<Path> binDirectory() {
        List<Path> candidates = new ArrayList<>();
        try {
            Process process = new ProcessBuilder("pg_config", "--bindir").redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (process.waitFor(1, TimeUnit.MINUTES) && process.exitValue() == 0 && !out.isEmpty()) {
                candidates.add(Path.of(out));
            }
        } catch (IOException e) {
            // no pg_config on the PATH: look in Debian's place
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Path debian = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(debian)) {
            try (Stream<Path> versions = Files.list(debian)) {
                versions.map(v -> v.resolve("bin"))
                        .sorted(Comparator.comparingInt(TestPostgres::majorVersion).reversed())
                        .forEach(candidates::add);
            } catch (IOException e) {
                // unreadable: nothing found there
            }
        }
        return candidates.stream().filter(dir -> Files.isExecutable(dir.resolve("initdb"))
                && Files.isExecutable(dir.resolve("pg_ctl"))).findFirst();
    }

    private static int majorVersion(Path bin) {
        try {
            return Integer.parseInt(bin.getParent().getFileName().toString());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static Server binaries() throws Unavailable {
        Path bin = binDirectory().orElseThrow(() -> new Unavailable("no PG_URL, no Docker engine and no PostgreSQL "
                + "binaries (initdb, pg_ctl: neither 'pg_config --bindir' nor /usr/lib/postgresql/*/bin has them); "
                + "set PG_URL or install PostgreSQL 15 or newer (Debian: apt-get install postgresql)."));
        boolean root = "root".equals(System.getProperty("user.name"));
        try {
            Path home = Files.createTempDirectory("forge-pg-");
            Path data = home.resolve("data");
            Path password = home.resolve("password");
            Files.writeString(password, PASSWORD + "\n");
            if (root) {
                // PostgreSQL refuses to run as root: the directory, its data and the password file become postgres's
                run(List.of("chown", "-R", "postgres:postgres", home.toString()), "give " + home + " to the postgres user");
            } else {
                Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
            }
            run(as(root, bin.resolve("initdb").toString(), "-D", data.toString(), "-U", USER, "--pwfile=" + password,
                    "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"),
                    "initdb");
            int port = freePort();
            String options = "-p " + port + " -k " + home + " -c listen_addresses=127.0.0.1 -c fsync=off"
                    + " -c synchronous_commit=off -c full_page_writes=off -c max_connections=400";
            run(as(root, bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-o", options, "-l",
                    home.resolve("server.log").toString(), "-w", "-t", String.valueOf(START_TIMEOUT.toSeconds()), "start"),
                    "pg_ctl start");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(root, bin, data, home), "postgres-test-server-stop"));
            return new Server("binaries", "127.0.0.1", port, "postgres", USER, PASSWORD);
        } catch (IOException e) {
            throw new Unavailable("could not start a PostgreSQL server with " + bin + ": " + e.getMessage());
        }
    }

    private static void stop(boolean root, Path bin, Path data, Path home) {
        try {
            run(as(root, bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "-w", "stop"),
                    "pg_ctl stop");
        } catch (IOException e) {
            System.err.println("TestPostgres: " + e.getMessage());
        }
        try (Stream<Path> files = Files.walk(home)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            System.err.println("TestPostgres: cannot delete " + home + ": " + e.getMessage());
        }
    }

    private static List<String> as(boolean root, String... command) {
        List<String> full = new ArrayList<>();
        if (root) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(List.of(command));
        return full;
    }

    private static void run(List<String> command, String what) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(START_TIMEOUT.toMinutes() + 1, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IOException(what + " did not finish within " + START_TIMEOUT.toMinutes() + " minutes");
            }
            if (process.exitValue() != 0) {
                throw new IOException(what + " failed (exit " + process.exitValue() + "): " + out.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(what + " interrupted", e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
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
        return value == null || value.isEmpty() ? fallback : value;
    }
}
