package dev.forge.memory.graph;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.spi.Setting;
import dev.forge.memory.support.FusionMethod;
import dev.forge.memory.support.SearchText;
import dev.forge.memory.support.TimeSpan;

/**
 * The settings of the {@code graph} provider, bound from its config block with
 * {@link dev.forge.memory.spi.ProviderConfig#bind}. Keys are {@code snake_case}; a missing key takes its default, an
 * unknown key is rejected. The {@value #EMBEDDING} block is not part of this record: the factory reads it beside it.
 *
 * <p>The keys, their defaults and an example: docs/providers/graph.md.
 *
 * @param url            the server's Bolt address
 * @param username       the user; empty (with an empty password) for no authentication
 * @param password       the password
 * @param database       the database; empty for the server's default one
 * @param poolSize       the most connections the provider's driver opens
 * @param connectTimeout how long connecting may take before the provider fails with
 *                       {@link dev.forge.memory.BackendUnavailableException}
 * @param queryTimeout   how long one transaction may run on the server
 * @param retryTime      how long the driver retries a transaction that failed on a transient error (the server went
 *                       away, a leader changed, a deadlock) before the provider fails with
 *                       {@link dev.forge.memory.BackendUnavailableException}; 0 fails at the first error
 * @param store          the store id written on every node: one database holds many stores side by side, and only
 *                       providers with the same store id see each other's entries (GLOBAL entries included)
 * @param fusion         how HYBRID search fuses its keyword and semantic rankings; default {@code max_zscore}, as
 *                       in the {@code vector} and {@code hybrid} providers ({@link FusionMethod#DEFAULT})
 * @param rrfK           the rank constant of {@code rrf} fusion, at least 1; default 60
 * @param keywordWeight  the keyword ranking's weight in HYBRID fusion, in (0, 1], the semantic ranking weighing 1;
 *                       default 1
 * @param searchFields   what keyword search indexes besides the value ({@code search_fields}); default
 *                       {@link SearchText#DEFAULT}, key and tags
 */
public record GraphConfig(String url, String username, String password, String database, Integer poolSize,
                          TimeSpan connectTimeout, TimeSpan queryTimeout, String store, TimeSpan retryTime,
                          FusionMethod fusion, Integer rrfK, Double keywordWeight, SearchText searchFields) {

    /**
     * The config key of the optional embedding block, read beside these settings: {@code embedding: {model: hashing}}
     * names an {@link dev.forge.memory.embedding.EmbeddingModel} (with its own settings) and turns on semantic search.
     */
    public static final String EMBEDDING = "embedding";

    /** The default {@code url}. */
    public static final String DEFAULT_URL = "bolt://localhost:7687";
    /** The default {@code username}. */
    public static final String DEFAULT_USERNAME = "neo4j";
    /** The default {@code store}. */
    public static final String DEFAULT_STORE = "default";
    /** The default {@code pool_size}. */
    public static final int DEFAULT_POOL_SIZE = 16;
    /** The default {@code connect_timeout}. */
    public static final TimeSpan DEFAULT_CONNECT_TIMEOUT = new TimeSpan(Duration.ofSeconds(5));
    /** The default {@code retry_time}: the Neo4j driver's own default. */
    public static final TimeSpan DEFAULT_RETRY_TIME = new TimeSpan(Duration.ofSeconds(30));
    /** The default {@code query_timeout}. */
    public static final TimeSpan DEFAULT_QUERY_TIMEOUT = new TimeSpan(Duration.ofSeconds(30));

    private static final Set<String> SCHEMES = Set.of("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc");

    /** Fills in defaults and rejects a URL that is not a Bolt address, a pool below one and zero timeouts. */
    public GraphConfig {
        url = url == null ? DEFAULT_URL : url.trim();
        try {
            URI uri = new URI(url);
            if (uri.getRawUserInfo() != null) {
                // The URL appears in messages and logs; credentials in it would leak there.
                throw new ConfigurationException("'url' must not hold a user name or password: put them in 'username' "
                        + "and 'password' (e.g. password: \"${NEO4J_PASSWORD}\").");
            }
            if (uri.getScheme() == null || !SCHEMES.contains(uri.getScheme()) || uri.getHost() == null) {
                throw new ConfigurationException("'url' must be a Bolt address such as " + DEFAULT_URL
                        + " (schemes bolt, bolt+s, neo4j, neo4j+s); it is '" + url + "'.");
            }
        } catch (URISyntaxException e) {
            throw new ConfigurationException("'url' is not a valid URI: '" + url + "' (" + e.getReason() + ").");
        }
        username = username == null ? DEFAULT_USERNAME : username;
        password = password == null ? "" : password;
        database = database == null ? "" : database.trim();
        if (poolSize == null) {
            poolSize = DEFAULT_POOL_SIZE;
        } else if (poolSize < 1) {
            throw new ConfigurationException("'pool_size' must be at least 1; it is " + poolSize + ".");
        }
        connectTimeout = positive(connectTimeout, DEFAULT_CONNECT_TIMEOUT, "connect_timeout");
        queryTimeout = positive(queryTimeout, DEFAULT_QUERY_TIMEOUT, "query_timeout");
        if (retryTime == null) {
            retryTime = DEFAULT_RETRY_TIME;
        } else if (retryTime.toMillis() > Integer.MAX_VALUE) {
            throw new ConfigurationException("'retry_time' must be at most about 24 days; it is " + retryTime + ".");
        }
        if (store == null) {
            store = DEFAULT_STORE;
        } else if (store.isBlank()) {
            throw new ConfigurationException("'store' must not be blank: leave it out to use '" + DEFAULT_STORE + "'.");
        }
        fusion = fusion == null ? FusionMethod.DEFAULT : fusion;
        rrfK = FusionMethod.rrfK(rrfK, "rrf_k");
        keywordWeight = FusionMethod.keywordWeight(keywordWeight, "keyword_weight");
        searchFields = searchFields == null ? SearchText.DEFAULT : searchFields;
    }

    /** The settings before {@code search_fields}, indexing key and tags; kept for callers of that form. */
    public GraphConfig(String url, String username, String password, String database, Integer poolSize,
                       TimeSpan connectTimeout, TimeSpan queryTimeout, String store, TimeSpan retryTime,
                       FusionMethod fusion, Integer rrfK, Double keywordWeight) {
        this(url, username, password, database, poolSize, connectTimeout, queryTimeout, store, retryTime, fusion, rrfK,
                keywordWeight, null);
    }

    /** The settings before HYBRID fusion was configurable, fusion at its defaults; kept for callers of that form. */
    public GraphConfig(String url, String username, String password, String database, Integer poolSize,
                       TimeSpan connectTimeout, TimeSpan queryTimeout, String store, TimeSpan retryTime) {
        this(url, username, password, database, poolSize, connectTimeout, queryTimeout, store, retryTime, null, null, null,
                null);
    }

    private static TimeSpan positive(TimeSpan value, TimeSpan fallback, String name) {
        if (value == null) {
            return fallback;
        }
        if (value.toMillis() <= 0 || value.toMillis() > Integer.MAX_VALUE) {
            throw new ConfigurationException("'" + name + "' must be between 1ms and about 24 days; it is " + value + ".");
        }
        return value;
    }

    /** Every setting at its default. */
    public static GraphConfig defaults() {
        return new GraphConfig(null, null, null, null, null, null, null, null, null, null, null, null, null);
    }

    /** The keys of this record and the embedding block, described for templates, at their defaults. */
    static List<Setting> settings() {
        GraphConfig defaults = defaults();
        List<Setting> settings = new java.util.ArrayList<>(List.of(
                Setting.of("url", "string", defaults.url(), "the server's Bolt address: bolt://, bolt+s://, neo4j:// or neo4j+s://"),
                Setting.of("username", "string", defaults.username(), "empty, with an empty password, for no authentication"),
                Setting.of("password", "string", quoted(defaults.password()), "write \"${NEO4J_PASSWORD}\" to read it from the environment"),
                Setting.of("database", "string", quoted(defaults.database()), "empty: the server's default database"),
                Setting.of("pool_size", "integer", String.valueOf(defaults.poolSize()), "the most connections the driver opens"),
                Setting.of("connect_timeout", "duration", defaults.connectTimeout().toString(),
                        "an unreachable server fails within it"),
                Setting.of("query_timeout", "duration", defaults.queryTimeout().toString(),
                        "the longest a single transaction may run"),
                Setting.of("retry_time", "duration", defaults.retryTime().toString(),
                        "how long a transaction failed on a transient error is retried; 0: not retried"),
                Setting.of("store", "string", defaults.store(), "which store of the database this is: only providers "
                        + "with one store id see each other's entries"),
                Setting.of(EMBEDDING, "map", "{ model: hashing }", "semantic and hybrid search with this embedding "
                        + "model, its settings beside 'model'; none when left out")));
        settings.addAll(FusionMethod.settings());
        settings.add(SearchText.setting());
        return List.copyOf(settings);
    }

    private static String quoted(String text) {
        return "\"" + text + "\"";
    }

    /** Hides the password. */
    @Override
    public String toString() {
        return "GraphConfig[url=" + url + ", username=" + username + ", password=" + (password.isEmpty() ? "" : "***")
                + ", database=" + database + ", poolSize=" + poolSize + ", connectTimeout=" + connectTimeout
                + ", queryTimeout=" + queryTimeout + ", retryTime=" + retryTime + ", store=" + store + ", fusion=" + fusion
                + ", rrfK=" + rrfK + ", keywordWeight=" + keywordWeight + ", searchFields=" + searchFields.fields() + "]";
    }
}
