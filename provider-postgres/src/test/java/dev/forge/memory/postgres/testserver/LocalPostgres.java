package dev.forge.memory.postgres.testserver;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL server to run against, without JUnit or Testcontainers, so that the tests' {@code TestPostgres} and the
 * benchmarks ({@code PostgresBench}) start it the same way: {@link #external} reads {@code PG_URL} (a
 * {@code postgresql://host:port/db} or {@code jdbc:postgresql:} URL, with {@code PG_USER}, {@code PG_PASSWORD});
 * {@link #startFromBinaries} runs the machine's {@code initdb} and {@code pg_ctl} ({@code pg_config --bindir}, else the
 * newest {@code /usr/lib/postgresql/<n>/bin}) in a temporary directory on a free port, as the {@code postgres} user when
 * this JVM runs as root (PostgreSQL refuses root), and stops it at JVM exit.
 */
public final class LocalPostgres {

    /** The superuser of a server started here, and its password (so that password logins are what is tested). */
    public static final String USER = "forge";
    public static final String PASSWORD = "forge-test-secret";

    /** Waits on a busy machine: minutes, not seconds. */
    public static final Duration START_TIMEOUT = Duration.ofMinutes(5);

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

        /** The {@code postgresql://host:port/name} URL of database {@code name}, as the provider's {@code url} setting. */
        public String url(String name) {
            return "postgresql://" + host + ":" + port + "/" + name;
        }
    }

    /** No server can be had; the message is one sentence saying what to set or install. */
    public static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        Unavailable(String message) {
            super(message);
        }
    }

    private LocalPostgres() {
    }

    /** The server named by {@code PG_URL} (with {@code PG_USER}, {@code PG_PASSWORD}), when that is set. */
    public static Optional<Server> external() {
        String url = System.getenv("PG_URL");
        return url == null || url.isBlank() ? Optional.empty() : Optional.of(external(url.strip()));
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

    /** The directory of the machine's {@code initdb} and {@code pg_ctl}. */
    public static Optional<Path> binDirectory() {
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
                        .sorted(Comparator.comparingInt(LocalPostgres::majorVersion).reversed())
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

    /**
     * Starts a server from the machine's binaries, stopped and deleted at JVM exit.
     *
     * @throws Unavailable where there are no binaries, or they fail to start a server
     */
    public static Server startFromBinaries() throws Unavailable {
        return startInstance().server();
    }

    /**
     * Starts a server of its own from the machine's binaries, which the caller may stop and start again (a test of a
     * server going down); closed (stopped and deleted) by {@link Instance#close()} or at JVM exit.
     *
     * @throws Unavailable where there are no binaries, or they fail to start a server
     */
    public static Instance startInstance() throws Unavailable {
        Path bin = binDirectory().orElseThrow(() -> new Unavailable("no PostgreSQL binaries (initdb, pg_ctl: neither "
                + "'pg_config --bindir' nor /usr/lib/postgresql/*/bin has them); set PG_URL=postgresql://host:port/db "
                + "or install PostgreSQL 15 or newer (Debian: apt-get install postgresql)."));
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
            Instance instance = new Instance(root, bin, home, freePort());
            instance.start();
            Runtime.getRuntime().addShutdownHook(new Thread(instance::close, "postgres-local-server-stop"));
            return instance;
        } catch (IOException e) {
            throw new Unavailable("could not start a PostgreSQL server with " + bin + ": " + e.getMessage());
        }
    }

    /** A server started from the binaries in a directory of its own, on a port that stays its own across restarts. */
    public static final class Instance implements AutoCloseable {

        private final boolean root;
        private final Path bin;
        private final Path home;
        private final int port;
        private boolean running;
        private boolean closed;

        private Instance(boolean root, Path bin, Path home, int port) {
            this.root = root;
            this.bin = bin;
            this.home = home;
            this.port = port;
        }

        /** Where it listens and how to log in. */
        public Server server() {
            return new Server("binaries", "127.0.0.1", port, "postgres", USER, PASSWORD);
        }

        /** Starts the server (again), waiting until it accepts connections. */
        public synchronized void start() throws IOException {
            if (closed) {
                throw new IllegalStateException("this server was closed");
            }
            String options = "-p " + port + " -k " + home + " -c listen_addresses=127.0.0.1 -c fsync=off"
                    + " -c synchronous_commit=off -c full_page_writes=off -c max_connections=400";
            run(as(root, bin.resolve("pg_ctl").toString(), "-D", home.resolve("data").toString(), "-o", options, "-l",
                    home.resolve("server.log").toString(), "-w", "-t", String.valueOf(START_TIMEOUT.toSeconds()), "start"),
                    "pg_ctl start");
            running = true;
        }

        /**
         * Stops the server: {@code fast} ends the sessions and shuts down cleanly, else {@code immediate} (as a crash
         * would: no shutdown checkpoint, recovery at the next start).
         */
        public synchronized void stop(boolean fast) throws IOException {
            if (running) {
                running = false;
                run(as(root, bin.resolve("pg_ctl").toString(), "-D", home.resolve("data").toString(), "-m",
                        fast ? "fast" : "immediate", "-w", "stop"), "pg_ctl stop");
            }
        }

        /** Stops the server and deletes its directory. Idempotent. */
        @Override
        public synchronized void close() {
            if (closed) {
                return;
            }
            try {
                stop(false);
            } catch (IOException e) {
                System.err.println("LocalPostgres: " + e.getMessage());
            }
            closed = true;
            try (Stream<Path> files = Files.walk(home)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (IOException e) {
                System.err.println("LocalPostgres: cannot delete " + home + ": " + e.getMessage());
            }
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

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? fallback : value;
    }
}
