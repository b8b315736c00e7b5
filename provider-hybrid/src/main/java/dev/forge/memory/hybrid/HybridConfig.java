package dev.forge.memory.hybrid;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.spi.Setting;
import dev.forge.memory.support.ConfigValues;
import dev.forge.memory.support.FusionMethod;
import dev.forge.memory.support.SearchText;
import dev.forge.memory.support.SemanticScorer;
import dev.forge.memory.support.TimeSpan;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The settings of the {@code hybrid} provider, bound from its config block with
 * {@link dev.forge.memory.spi.ProviderConfig#bind}. Keys are written in {@code snake_case}; a missing key takes its
 * default, an unknown key is rejected with the list of known keys. Each child block names a provider with
 * {@code provider}; its other keys are that provider's own settings and are checked by it when it is opened.
 *
 * <p>The keys, their defaults and an example: docs/providers/hybrid.md.
 *
 * @param cache         the read cache; default {@code {provider: in-memory, ttl: 1h, max_entries: 10000}}
 * @param storage       the storage child, the source of truth for entries; required
 * @param search        the search child, which serves searches it has the mode for; optional
 * @param relationships the relationships child, which holds relations; optional (then the storage's graph, if any)
 * @param outbox        where missed updates of the search and relationships children wait; default
 *                      {@code {path: .forge/outbox, retry_interval: 5s}}
 * @param fusion        how HYBRID search fuses the semantic and the keyword ranking; default
 *                      {@code {method: max_zscore, rrf_k: 60, keyword_weight: 1}}
 * @param searchFields  {@code search_fields} for the storage and search children that do not set their own (each child
 *                      indexes its own text); {@code null} leaves them at theirs
 */
public record HybridConfig(Cache cache, Map<String, Object> storage, Map<String, Object> search,
        Map<String, Object> relationships, Outbox outbox, Fusion fusion, SearchText searchFields) {

    /** The key of a child block that names its provider. */
    public static final String PROVIDER_KEY = "provider";

    /** Fills in defaults and checks that the storage child is there and every child names its provider. */
    public HybridConfig {
        cache = cache == null ? Cache.defaults() : cache;
        outbox = outbox == null ? Outbox.defaults() : outbox;
        fusion = fusion == null ? Fusion.defaults() : fusion;
        if (storage == null) {
            throw new ConfigurationException("the hybrid provider needs a 'storage' block naming the provider that holds"
                    + " the entries, for example storage: {provider: sqlite}.");
        }
        storage = child("storage", withFields(storage, searchFields));
        search = search == null ? null : child("search", withFields(search, searchFields));
        relationships = relationships == null ? null : child("relationships", relationships);
    }

    /** {@code block} with {@code fields} as its {@code search_fields} unless it sets its own. */
    private static Map<String, Object> withFields(Map<String, Object> block, SearchText fields) {
        if (fields == null || block.containsKey(SearchText.SETTING)) {
            return block;
        }
        Map<String, Object> with = new LinkedHashMap<>(block);
        with.put(SearchText.SETTING, fields.fields());
        return with;
    }

    private static Map<String, Object> child(String role, Map<String, Object> block) {
        Object name = block.get(PROVIDER_KEY);
        if (!(name instanceof String text) || text.isBlank()) {
            throw new ConfigurationException("'" + role + "' must name its provider with 'provider', for example "
                    + role + ": {provider: " + ("storage".equals(role) ? "sqlite" : "search".equals(role) ? "vector" : "graph")
                    + "}.");
        }
        return Collections.unmodifiableMap(new LinkedHashMap<>(block));
    }

    /**
     * The keys of this record, described for templates: the child blocks with an example each (sqlite storage, graph
     * relationships), the optional blocks at their defaults.
     */
    static List<Setting> settings() {
        Cache cache = Cache.defaults();
        Outbox outbox = Outbox.defaults();
        Fusion fusion = Fusion.defaults();
        return List.of(
                Setting.required("storage", "map", "{ provider: sqlite }",
                        "the provider that holds the entries; its settings go beside 'provider'"),
                Setting.of("search", "map", "{ provider: vector }", "serves the searches it has the mode for (vector: "
                        + "the local MiniLM model); none when left out"),
                Setting.of("relationships", "map", "{ provider: graph, url: \"bolt://localhost:7687\", username: neo4j, "
                        + "password: \"${NEO4J_PASSWORD}\" }", "holds relations; when left out, the storage's graph if any"),
                Setting.of("cache", "map", "", "the read cache, in the process; a ttl or max_entries of 0 turns it off"),
                Setting.of("cache.provider", "one of: in-memory, file", cache.provider(),
                        "file (seed 004's name) means the same in-process cache"),
                Setting.of("cache.ttl", "duration", cache.ttl().toString(),
                        "how long an entry stays cached; a plain number is seconds"),
                Setting.of("cache.max_entries", "integer", String.valueOf(cache.maxEntries()), "the most entries cached"),
                Setting.of("outbox", "map", "", "where updates a child missed wait"),
                Setting.of("outbox.path", "path", outbox.path(), "the outbox directory, relative to the project directory"),
                Setting.of("outbox.retry_interval", "duration", outbox.retryInterval().toString(),
                        "how long the router waits before it tries a failed child again"),
                Setting.of("fusion", "map", "", "HYBRID search: how the keyword and semantic rankings are fused"),
                Setting.of("fusion.method", ConfigValues.choices(FusionMethod.class), fusion.method().id(),
                        "max_zscore, clipped_zscore or zscore (score-normalised), or rrf (reciprocal rank fusion)"),
                Setting.of("fusion.rrf_k", "integer", String.valueOf(fusion.rrfK()), "the rank constant of rrf"),
                Setting.of("fusion.keyword_weight", "number", String.valueOf(fusion.keywordWeight()),
                        "the keyword ranking's weight (semantic: 1)"),
                Setting.of(SearchText.SETTING, "list", "[key, tags]", "search_fields for the storage and search "
                        + "children that do not set their own: key, tags, metadata.<name>"));
    }

    /** The search child's block, if configured. */
    public Optional<Map<String, Object>> searchBlock() {
        return Optional.ofNullable(search);
    }

    /** The relationships child's block, if configured. */
    public Optional<Map<String, Object>> relationshipsBlock() {
        return Optional.ofNullable(relationships);
    }

    /**
     * The read cache: always in the process, in front of the storage. Seed 004 writes {@code cache: {provider: file,
     * ttl: 3600}}; {@code file} is taken as the name of this cache, not as a second store: the storage child already
     * keeps every entry on disk, and a cache on disk would outlive the writes of other processes it never sees.
     *
     * @param provider   the kind of cache: {@value #IN_MEMORY} (default) or {@value #FILE}, seed 004's name for it
     * @param ttl        how long an entry stays cached after it was loaded or written; default 1h; 0 turns the cache off
     * @param maxEntries how many entries the cache holds at most; default 10,000; 0 turns the cache off
     */
    public record Cache(String provider, TimeSpan ttl, Integer maxEntries) {
        /** The default {@code provider}: the in-process cache. */
        public static final String IN_MEMORY = "in-memory";
        /** Seed 004's name for the cache, accepted as {@value #IN_MEMORY}. */
        public static final String FILE = "file";
        /** The default {@code ttl}. */
        public static final TimeSpan DEFAULT_TTL = new TimeSpan(Duration.ofHours(1));
        /** The default {@code max_entries}. */
        public static final int DEFAULT_MAX_ENTRIES = 10_000;

        /** Fills in defaults; rejects negative sizes and caches the router does not have. */
        public Cache {
            provider = provider == null ? IN_MEMORY : provider.strip().toLowerCase(java.util.Locale.ROOT);
            if (!provider.equals(IN_MEMORY) && !provider.equals(FILE)) {
                throw new ConfigurationException("'cache.provider' cannot be '" + provider + "': the hybrid provider's "
                        + "cache is in the process, in front of the storage; write " + IN_MEMORY + " (or " + FILE
                        + ", seed 004's name for it), and to keep entries in another provider name it as the storage.");
            }
            ttl = ttl == null ? DEFAULT_TTL : ttl;
            if (maxEntries == null) {
                maxEntries = DEFAULT_MAX_ENTRIES;
            } else if (maxEntries < 0) {
                throw new ConfigurationException("'max_entries' must be 0 (no cache) or more, not " + maxEntries + ".");
            }
        }

        /** Every setting at its default. */
        public static Cache defaults() {
            return new Cache(null, null, null);
        }

        /** Whether entries are cached at all. */
        public boolean enabled() {
            return maxEntries > 0 && !ttl.duration().isZero();
        }
    }

    /**
     * The outbox.
     *
     * @param path          the directory of the outbox; relative paths resolve against the context's base directory;
     *                      default {@code .forge/outbox}
     * @param retryInterval after a child failed, how long the router waits before it tries that child again; default
     *                      5s
     */
    public record Outbox(String path, TimeSpan retryInterval) {
        /** The default {@code path}. */
        public static final String DEFAULT_PATH = ".forge/outbox";
        /** The default {@code retry_interval}. */
        public static final TimeSpan DEFAULT_RETRY_INTERVAL = new TimeSpan(Duration.ofSeconds(5));

        /** Fills in defaults. */
        public Outbox {
            if (path == null) {
                path = DEFAULT_PATH;
            } else if (path.isBlank()) {
                throw new ConfigurationException("'outbox.path' must not be blank: leave it out to use " + DEFAULT_PATH + ".");
            }
            retryInterval = retryInterval == null ? DEFAULT_RETRY_INTERVAL : retryInterval;
        }

        /** Every setting at its default. */
        public static Outbox defaults() {
            return new Outbox(null, null);
        }
    }

    /**
     * HYBRID search: the fusion of the search child's semantic ranking and the storage's keyword ranking
     * ({@link SemanticScorer#fuse(dev.forge.memory.SearchRequest, java.util.List, java.util.List, FusionMethod, int,
     * double)}), with the same defaults as the {@code vector} provider's.
     *
     * @param method        {@code clipped_zscore} or {@code zscore} (score-normalised), or {@code rrf} (reciprocal
     *                      rank fusion); default
     *                      {@link FusionMethod#DEFAULT}
     * @param rrfK          the rank constant of {@code rrf}, at least 1; default 60
     * @param keywordWeight the keyword ranking's weight in (0, 1], the semantic ranking weighing 1; default 1
     */
    public record Fusion(FusionMethod method, Integer rrfK, Double keywordWeight) {

        /** Fills in defaults; rejects values out of range. */
        public Fusion {
            if (method == null) {
                method = FusionMethod.DEFAULT;
            }
            rrfK = FusionMethod.rrfK(rrfK, "fusion.rrf_k");
            keywordWeight = FusionMethod.keywordWeight(keywordWeight, "fusion.keyword_weight");
        }

        /** Every setting at its default. */
        public static Fusion defaults() {
            return new Fusion(null, null, null);
        }
    }
}
