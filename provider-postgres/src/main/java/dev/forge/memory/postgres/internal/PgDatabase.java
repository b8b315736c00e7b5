package dev.forge.memory.postgres.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.MemoryException;
import dev.forge.memory.StorageException;
import dev.forge.memory.postgres.PostgresConfig;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The connection pool (HikariCP) of one provider to one database and schema, and how a unit of work runs on it: reads
 * on an auto-commit connection, writes in one SQL transaction retried when PostgreSQL reports a serialization failure
 * or deadlock. Every {@link SQLException} leaves as a {@link MemoryException} naming the server, never the password.
 */
public final class PgDatabase implements AutoCloseable {

    /** Work on a connection. */
    @FunctionalInterface
    public interface Work<T> {
        /** Does the work. */
        T run(Connection connection) throws SQLException;
    }

    private static final AtomicInteger POOLS = new AtomicInteger();
    private static final int ATTEMPTS = 20;

    private final HikariDataSource pool;
    private final Endpoint endpoint;
    private final String schema;
    private final String user;
    private final String password;
    private final String ssl;
    private final Properties direct;

    private PgDatabase(HikariDataSource pool, Endpoint endpoint, String schema, String user, String password, String ssl,
            Properties direct) {
        this.ssl = ssl;
        this.direct = direct;
        this.pool = pool;
        this.endpoint = endpoint;
        this.schema = schema;
        this.user = user;
        this.password = password;
    }

    /**
     * A pool on the server, database and schema {@code config} names. Opens no connection yet: the first unit of work
     * (the schema migration) does, and fails if the server is down.
     */
    public static PgDatabase open(PostgresConfig config) {
        Endpoint endpoint = Endpoint.parse(config.url());
        String user = config.username() != null && !config.username().isBlank() ? config.username() : endpoint.user();
        String password = config.password() != null ? config.password() : endpoint.password();
        Properties properties = new Properties();
        properties.putAll(endpoint.parameters());
        properties.setProperty("sslmode", config.ssl().id());
        properties.setProperty("ApplicationName", "forge-memory");
        long timeout = config.connectTimeout().toMillis();
        properties.setProperty("connectTimeout", String.valueOf(Math.max(1, timeout / 1000)));
        properties.setProperty("loginTimeout", String.valueOf(Math.max(1, timeout / 1000)));
        properties.setProperty("currentSchema", config.schema());
        HikariConfig hikari = new HikariConfig();
        hikari.setPoolName("forge-memory-postgres-" + POOLS.incrementAndGet());
        hikari.setJdbcUrl(endpoint.jdbcUrl());
        hikari.setDriverClassName("org.postgresql.Driver");
        hikari.setDataSourceProperties(properties);
        if (user != null) {
            hikari.setUsername(user);
        }
        if (password != null) {
            hikari.setPassword(password);
        }
        hikari.setConnectionTimeout(timeout);
        hikari.setMaximumPoolSize(config.poolSize());
        // Connections are made when work needs them, so that many providers on one server hold few idle ones.
        hikari.setMinimumIdle(0);
        hikari.setInitializationFailTimeout(-1);
        Properties direct = new Properties();
        direct.putAll(properties);
        if (user != null) {
            direct.setProperty("user", user);
        }
        if (password != null) {
            direct.setProperty("password", password);
        }
        return new PgDatabase(new HikariDataSource(hikari), endpoint, config.schema(), user, password, config.ssl().id(),
                direct);
    }

    /** Where this database is: {@code host:port/database}. */
    public Endpoint endpoint() {
        return endpoint;
    }

    /** The schema the tables live in. */
    public String schema() {
        return schema;
    }

    /** {@code host:port/database, schema s}: for messages; never the password. */
    public String describe() {
        return endpoint + " (schema " + schema + ")";
    }

    /** Runs {@code work} on an auto-commit connection: each statement sees one snapshot. */
    public <T> T read(String what, Work<T> work) {
        try (Connection connection = pool.getConnection()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw error(what, e);
        }
    }

    /**
     * Runs {@code work} in one transaction on a connection of its own, outside the pool: the pool waits up to
     * {@code connect_timeout} for a connection whatever the reason it cannot get one, and a refused login or a missing
     * database should say so at once.
     */
    public <T> T writeDirectly(String what, Work<T> work) {
        try (Connection connection = new org.postgresql.Driver().connect(endpoint.jdbcUrl(), direct)) {
            return inTransaction(connection, work);
        } catch (SQLException e) {
            throw error(what, e);
        }
    }

    /**
     * Runs {@code work} in one transaction and commits it; rolls back and runs it again when PostgreSQL reports a
     * serialization failure or a deadlock; a {@link MemoryException} the work throws rolls back and leaves as it is.
     */
    public <T> T write(String what, Work<T> work) {
        for (int attempt = 1; ; attempt++) {
            try (Connection connection = pool.getConnection()) {
                return inTransaction(connection, work);
            } catch (SQLException e) {
                if (attempt < ATTEMPTS && retryable(e)) {
                    continue;
                }
                throw error(what, e);
            }
        }
    }

    /** Runs {@code work} in a transaction on {@code connection}: committed when it returns, rolled back when it throws. */
    private static <T> T inTransaction(Connection connection, Work<T> work) throws SQLException {
        connection.setAutoCommit(false);
        try {
            T result = work.run(connection);
            connection.commit();
            return result;
        } catch (SQLException | RuntimeException | Error e) {
            rollback(connection, e);
            throw e;
        }
    }

    private static void rollback(Connection connection, Throwable cause) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    private static boolean retryable(SQLException e) {
        String state = e.getSQLState();
        return "40001".equals(state) || "40P01".equals(state);
    }

    /** The {@link MemoryException} for {@code e}, raised while trying to {@code what}. */
    public MemoryException error(String what, SQLException e) {
        // The pool's timeout wraps the driver's last error, which says why (login, SSL, refused connection).
        SQLException cause = e;
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                cause = sql;
            }
        }
        String state = cause.getSQLState() == null ? "" : cause.getSQLState();
        String detail = mask(cause == e ? e.getMessage() : cause.getMessage());
        if (state.startsWith("28")) {
            return new ConfigurationException("PostgreSQL at " + endpoint.address() + " refused the login"
                    + (user == null ? "" : " of user '" + user + "'") + " (" + detail + "): correct 'username' and "
                    + "'password' (or those of 'url').", null, "url", e);
        }
        if ("3D000".equals(state)) {
            return new ConfigurationException("PostgreSQL at " + endpoint.address() + " has no database '"
                    + endpoint.database() + "': create it (CREATE DATABASE " + endpoint.database()
                    + ") or correct 'url'.", null, "url", e);
        }
        if ("3F000".equals(state) || "42501".equals(state)) {
            return new ConfigurationException("PostgreSQL at " + describe() + " refused to " + what + " (" + detail
                    + "): grant the login the rights to create and use schema '" + schema + "', or name another 'schema'.",
                    null, "schema", e);
        }
        if (detail.contains("does not support SSL")) {
            return new ConfigurationException("PostgreSQL at " + endpoint.address() + " does not accept SSL connections, "
                    + "and 'ssl' is " + ssl + ": set 'ssl: prefer' (or disable), or enable SSL on the server.", null, "ssl", e);
        }
        if (unreachable(e)) {
            return new BackendUnavailableException("PostgreSQL at " + endpoint.address() + " is not reachable, so "
                    + "the postgres provider could not " + what + " (" + detail + "). Start the server, or correct "
                    + "'url' (host, port) and 'ssl'; 'connect_timeout' sets how long to wait.", e);
        }
        return new StorageException("PostgreSQL at " + describe() + " failed to " + what + ": " + detail, e);
    }

    private static boolean unreachable(SQLException e) {
        if (e instanceof SQLTransientConnectionException) {
            return true;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof UnknownHostException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P"))) {
                return true;
            }
        }
        return false;
    }

    /** {@code text} without the password, wherever it appears. */
    public String mask(String text) {
        String masked = Endpoint.mask(String.valueOf(text));
        return password == null || password.length() < 3 ? masked : masked.replace(password, "****");
    }

    /** Whether the pool is closed. */
    public boolean isClosed() {
        return pool.isClosed();
    }

    /** Closes the pool and every connection in it. */
    @Override
    public void close() {
        pool.close();
    }
}
