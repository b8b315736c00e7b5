package dev.forge.memory.graph.internal;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.neo4j.driver.AuthToken;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Config;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Logging;
import org.neo4j.driver.SessionConfig;
import org.neo4j.driver.exceptions.Neo4jException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConfigurationException;

/**
 * The drivers of this JVM, one per server, login and settings, shared by every provider that uses them and closed with
 * the last. The schema (constraints and indexes) is created, idempotently, when a driver is first opened.
 */
public final class Drivers {

    private static final Logger LOG = LoggerFactory.getLogger(Drivers.class);

    /** What identifies a shared driver. */
    public record Settings(String url, String username, String password, String database, int poolSize,
                           long connectTimeoutMillis, long retryMillis) {

        @Override
        public String toString() {
            return url + (database.isEmpty() ? "" : " (database " + database + ")");
        }
    }

    /** One shared driver and how many providers use it. */
    public static final class Shared {
        private final Settings settings;
        private final Driver driver;
        private final Set<Integer> vectorIndexes = ConcurrentHashMap.newKeySet();
        private int users;

        private Shared(Settings settings, Driver driver) {
            this.settings = settings;
            this.driver = driver;
        }

        /** The driver. */
        public Driver driver() {
            return driver;
        }

        /** The settings it was opened with. */
        public Settings settings() {
            return settings;
        }

        /** A session on the configured database. */
        public SessionConfig sessionConfig() {
            return settings.database().isEmpty() ? SessionConfig.defaultConfig()
                    : SessionConfig.forDatabase(settings.database());
        }

        /** Whether the vector index was found or made with {@code dimension} through this driver already. */
        boolean hasVectorIndex(int dimension) {
            return vectorIndexes.contains(dimension);
        }

        /** Records that the vector index has {@code dimension}, so later providers skip the check. */
        void vectorIndexReady(int dimension) {
            vectorIndexes.add(dimension);
        }

        /** Gives the driver back; the last user closes it. */
        public void release() {
            synchronized (Drivers.class) {
                if (--users == 0) {
                    OPEN.remove(settings);
                    driver.close();
                }
            }
        }
    }

    private static final Map<Settings, Shared> OPEN = new HashMap<>();

    private Drivers() {
    }

    /**
     * The shared driver for {@code settings}, opened, checked to reach the server and given the schema on first use.
     *
     * @throws BackendUnavailableException if the server cannot be reached within the connect timeout
     */
    public static Shared acquire(Settings settings) {
        synchronized (Drivers.class) {
            Shared shared = OPEN.get(settings);
            if (shared == null) {
                shared = new Shared(settings, connect(settings));
                OPEN.put(settings, shared);
            }
            shared.users++;
            return shared;
        }
    }

    private static Driver connect(Settings settings) {
        AuthToken auth = settings.username().isEmpty() && settings.password().isEmpty() ? AuthTokens.none()
                : AuthTokens.basic(settings.username(), settings.password());
        Config config = Config.builder()
                .withMaxConnectionPoolSize(settings.poolSize())
                .withConnectionTimeout(settings.connectTimeoutMillis(), TimeUnit.MILLISECONDS)
                .withConnectionAcquisitionTimeout(Math.max(settings.connectTimeoutMillis(), 1000), TimeUnit.MILLISECONDS)
                .withMaxTransactionRetryTime(settings.retryMillis(), TimeUnit.MILLISECONDS)
                .withLogging(Logging.slf4j())
                .withUserAgent("forge-memory")
                .build();
        Driver driver;
        try {
            driver = GraphDatabase.driver(settings.url(), auth, config);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException("'url' cannot be used by the Neo4j driver: " + settings.url() + " (" + e.getMessage() + ").");
        }
        try {
            driver.verifyConnectivity();
            Schema.create(driver, SessionConfigs.of(settings.database()));
            return driver;
        } catch (Neo4jException | IllegalStateException e) {
            driver.close();
            throw new BackendUnavailableException("Cannot reach the Neo4j server at " + settings + " within "
                    + settings.connectTimeoutMillis() + " ms: " + e.getMessage()
                    + " Check that it is running and the url, username and password are right.", e);
        } catch (RuntimeException e) {
            driver.close();
            throw e;
        }
    }

    /** Session configs for a database name, empty meaning the server's default. */
    static final class SessionConfigs {
        private SessionConfigs() {
        }

        static SessionConfig of(String database) {
            return database.isEmpty() ? SessionConfig.defaultConfig() : SessionConfig.forDatabase(database);
        }
    }

    /** The constraints and indexes every store needs; each created only when missing. */
    static final class Schema {

        /**
         * Keyword search's full-text index, over the text {@code search_fields} makes. It replaced
         * {@code forge_memory_text} (over key, value and tags), which a database written by an earlier version keeps
         * for that version's processes: drop it when none is left.
         */
        static final String FULLTEXT_INDEX = "forge_memory_search";

        static final List<String> STATEMENTS = List.of(
                "CREATE CONSTRAINT forge_memory_key IF NOT EXISTS FOR (m:Memory)"
                        + " REQUIRE (m.store, m.project, m.session, m.scope, m.key) IS UNIQUE",
                "CREATE CONSTRAINT forge_memory_store IF NOT EXISTS FOR (s:ForgeMemoryStore) REQUIRE s.store IS UNIQUE",
                "CREATE INDEX forge_memory_version_key IF NOT EXISTS FOR (v:MemoryVersion)"
                        + " ON (v.store, v.project, v.session, v.scope, v.key)",
                "CREATE FULLTEXT INDEX " + FULLTEXT_INDEX + " IF NOT EXISTS FOR (m:Memory) ON EACH [m.searchText]");

        private Schema() {
        }

        static void create(Driver driver, SessionConfig sessionConfig) {
            try (var session = driver.session(sessionConfig)) {
                for (String statement : STATEMENTS) {
                    session.run(statement).consume();
                }
                session.run("CALL db.awaitIndexes(60)").consume();
            }
            LOG.debug("Schema of forge-memory present");
        }
    }
}
