package dev.forge.memory.postgres;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.Setting;
import dev.forge.memory.support.ConfigValues;
import dev.forge.memory.support.EmbeddingModels;
import dev.forge.memory.support.FusionMethod;
import dev.forge.memory.support.SearchText;
import dev.forge.memory.support.TimeSpan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The settings of the {@code postgres} provider, bound from its config block with
 * {@link dev.forge.memory.spi.ProviderConfig#bind}. Keys are written in {@code snake_case}; a missing key takes its
 * default, an unknown key is rejected.
 *
 * <pre>{@code
 * memory:
 *   provider: postgres          # or: relational, with a postgresql:// url
 *   config:
 *     url: postgresql://user:${PG_PASSWORD}@localhost:5432/forge   # or jdbc:postgresql://localhost:5432/forge
 *     pool_size: 10             # connections of this process; the default
 *     ssl: prefer               # disable, allow, prefer (default), require, verify-ca, verify-full
 *     schema: forge_memory      # the schema holding the tables; the default
 *     language: english         # the text search configuration of keyword search; the default
 *     embedding: {model: e5-small}   # optional: semantic and hybrid search through pgvector
 * }</pre>
 *
 * @param url            the server and database: {@code postgresql://[user[:password]@]host[:port]/database} (also
 *                       {@code postgres://}) or {@code jdbc:postgresql://host[:port]/database}
 * @param username       the login, instead of the one in the URL
 * @param password       its password, instead of the one in the URL; masked in every message
 * @param schema         the schema the tables live in, created when missing: one database holds several stores side
 *                       by side, one per schema
 * @param poolSize       the most connections this provider holds open
 * @param ssl            how the connection is encrypted (the driver's {@code sslmode})
 * @param connectTimeout how long opening a connection, or waiting for a free one in the pool, may take before
 *                       {@link dev.forge.memory.BackendUnavailableException}
 * @param language       the PostgreSQL text search configuration keyword search stems and drops stop words with
 * @param searchFields   what keyword search finds besides the value ({@link SearchText}); default {@code [key, tags]}
 * @param embedding      the {@code embedding} block: present, the provider stores a vector of every entry with the
 *                       pgvector extension and offers semantic and hybrid search; {@code model} names the
 *                       {@link EmbeddingModel} ({@value #DEFAULT_MODEL} when left out), the other keys are its settings.
 *                       Left out (empty), no vectors and no semantic search
 * @param fusion         how HYBRID search fuses its keyword and semantic rankings; default {@code clipped_zscore}
 * @param rrfK           the rank constant of {@code rrf} fusion, at least 1; default 60
 * @param keywordWeight  the keyword ranking's weight in HYBRID fusion, in (0, 1], the semantic ranking weighing 1;
 *                       default 1
 */
public record PostgresConfig(String url, String username, String password, String schema, Integer poolSize, Ssl ssl,
        TimeSpan connectTimeout, String language, SearchText searchFields, Map<String, Object> embedding,
        FusionMethod fusion, Integer rrfK, Double keywordWeight) {

    /** The default {@code url}: a database {@code forge} on this machine's server. */
    public static final String DEFAULT_URL = "postgresql://localhost:5432/forge";
    /** The default {@code schema}. */
    public static final String DEFAULT_SCHEMA = "forge_memory";
    /** The default {@code pool_size}. */
    public static final int DEFAULT_POOL_SIZE = 10;
    /** The default {@code connect_timeout}. */
    public static final TimeSpan DEFAULT_CONNECT_TIMEOUT = new TimeSpan(Duration.ofSeconds(10));
    /** The default {@code language}. */
    public static final String DEFAULT_LANGUAGE = "english";
    /** The embedding model of an {@code embedding} block that names none: the {@code vector} provider's default. */
    public static final String DEFAULT_MODEL = "e5-small";
    /** The config key of the embedding block. */
    public static final String EMBEDDING = "embedding";

    /** What a schema name may be: a lower-case SQL identifier, so that it never needs quoting. */
    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    /** What a text search configuration name may be (checked against the server when the provider opens). */
    private static final Pattern LANGUAGE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}(\\.[A-Za-z_][A-Za-z0-9_]{0,62})?");

    /** Fills in the default of every missing setting and rejects values that cannot work. */
    public PostgresConfig {
        if (url == null) {
            url = DEFAULT_URL;
        } else if (url.isBlank()) {
            throw new ConfigurationException("'url' must not be blank: leave it out for " + DEFAULT_URL + ".");
        }
        if (schema == null) {
            schema = DEFAULT_SCHEMA;
        } else if (!IDENTIFIER.matcher(schema).matches()) {
            throw new ConfigurationException("'schema' must be a lower-case SQL identifier (letters a-z, digits and _, "
                    + "not starting with a digit, at most 63 characters); it is '" + schema + "'.");
        }
        if (poolSize == null) {
            poolSize = DEFAULT_POOL_SIZE;
        } else if (poolSize < 1 || poolSize > 1000) {
            throw new ConfigurationException("'pool_size' must be between 1 and 1000; it is " + poolSize + ".");
        }
        if (ssl == null) {
            ssl = Ssl.PREFER;
        }
        if (connectTimeout == null) {
            connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        } else if (connectTimeout.toMillis() < 250) {
            throw new ConfigurationException("'connect_timeout' must be at least 250ms (the pool's smallest wait); it is "
                    + connectTimeout + ".");
        }
        if (language == null) {
            language = DEFAULT_LANGUAGE;
        } else if (!LANGUAGE.matcher(language).matches()) {
            throw new ConfigurationException("'language' must name a PostgreSQL text search configuration (such as "
                    + "english, simple, german); it is '" + language + "'.");
        }
        if (searchFields == null) {
            searchFields = SearchText.DEFAULT;
        }
        embedding = embedding == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(embedding));
        fusion = fusion == null ? FusionMethod.DEFAULT : fusion;
        rrfK = FusionMethod.rrfK(rrfK, "rrf_k");
        keywordWeight = FusionMethod.keywordWeight(keywordWeight, "keyword_weight");
    }

    /** The settings before semantic search, without an embedding block and with fusion at its defaults. */
    public PostgresConfig(String url, String username, String password, String schema, Integer poolSize, Ssl ssl,
            TimeSpan connectTimeout, String language, SearchText searchFields) {
        this(url, username, password, schema, poolSize, ssl, connectTimeout, language, searchFields, null, null, null, null);
    }

    /** Every setting at its default. */
    public static PostgresConfig defaults() {
        return new PostgresConfig(null, null, null, null, null, null, null, null, null);
    }

    /** These settings on another {@code schema}. */
    public PostgresConfig withSchema(String schema) {
        return new PostgresConfig(url, username, password, schema, poolSize, ssl, connectTimeout, language, searchFields,
                embedding, fusion, rrfK, keywordWeight);
    }

    /**
     * Opens the model of the {@code embedding} block, as configured in {@code raw} (this provider's block as read, so
     * that secret settings of the model stay out of its messages and fingerprint); empty without the block.
     *
     * @throws ConfigurationException for an unknown model or bad model settings
     */
    Optional<EmbeddingModel> openModel(ProviderConfig raw) {
        if (!raw.child(EMBEDDING).isPresent() && embedding.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Object> block = new LinkedHashMap<>(embedding);
        block.putIfAbsent(EmbeddingModels.MODEL_KEY, DEFAULT_MODEL);
        return Optional.of(EmbeddingModels.load().open(ProviderConfig.of(block, raw.source(), raw.path() + "." + EMBEDDING)
                .withSecretPaths(raw.secretPaths())));
    }

    /** The keys of this record, described for templates, at their defaults. */
    static List<Setting> settings() {
        PostgresConfig defaults = defaults();
        List<Setting> settings = List.of(
                Setting.of("url", "string", DEFAULT_URL, "the server and database: postgresql://user:password@host:port/db "
                        + "or jdbc:postgresql://host:port/db"),
                Setting.of("username", "string", "", "the login, instead of the URL's"),
                Setting.of("password", "secret", "", "its password, instead of the URL's; write ${PG_PASSWORD}"),
                Setting.of("schema", "string", DEFAULT_SCHEMA, "the schema holding the tables: one store per schema"),
                Setting.of("pool_size", "integer", String.valueOf(DEFAULT_POOL_SIZE), "the most connections this process holds"),
                Setting.of("ssl", ConfigValues.choices(Ssl.class), defaults.ssl().id(), "the driver's sslmode"),
                Setting.of("connect_timeout", "duration", DEFAULT_CONNECT_TIMEOUT.toString(),
                        "how long a connection may take before the server counts as unavailable"),
                Setting.of("language", "string", DEFAULT_LANGUAGE, "the text search configuration of keyword search"),
                SearchText.setting(),
                Setting.of(EMBEDDING, "map", "", "semantic and hybrid search through pgvector (the server needs the "
                        + "extension): the embedding model and its settings; leave out for keyword search only"),
                Setting.of(EMBEDDING + "." + EmbeddingModels.MODEL_KEY, "string", DEFAULT_MODEL,
                        "the model's name; its own settings go beside it; after a change run 'forge-memory reindex'"));
        List<Setting> all = new ArrayList<>(settings);
        all.addAll(FusionMethod.settings());
        return List.copyOf(all);
    }

    /** Never shows the password. */
    @Override
    public String toString() {
        return "PostgresConfig[url=" + dev.forge.memory.postgres.internal.Endpoint.mask(url) + ", username=" + username + ", password="
                + (password == null ? "null" : "****") + ", schema=" + schema + ", poolSize=" + poolSize + ", ssl="
                + ssl.id() + ", connectTimeout=" + connectTimeout + ", language=" + language + ", searchFields="
                + searchFields + ", embedding=" + (embedding.isEmpty() ? "none" : embedding.getOrDefault(EmbeddingModels.MODEL_KEY,
                DEFAULT_MODEL)) + ", fusion=" + fusion.id() + ", rrfK=" + rrfK + ", keywordWeight=" + keywordWeight + "]";
    }

    /** The driver's {@code sslmode}. */
    public enum Ssl {
        /** No encryption. */
        DISABLE,
        /** Encryption if the server insists. */
        ALLOW,
        /** Encryption if the server offers it: the driver's default. */
        PREFER,
        /** Encryption always, without checking the server's certificate. */
        REQUIRE,
        /** Encryption, with the certificate checked against the trusted authorities. */
        VERIFY_CA,
        /** As {@link #VERIFY_CA}, and the certificate's host name checked too. */
        VERIFY_FULL;

        /**
         * Parses the config form, ignoring case: {@code disable} ... {@code verify-full} (or {@code verify_full}).
         *
         * @throws ConfigurationException for any other text, listing the allowed values
         */
        @JsonCreator
        public static Ssl parse(String text) {
            return ConfigValues.parse(Ssl.class, "ssl", text == null ? null : text.replace('-', '_'));
        }

        /** The lower-case name config and the driver use. */
        @JsonValue
        public String id() {
            return ConfigValues.id(this).replace('_', '-');
        }
    }
}
