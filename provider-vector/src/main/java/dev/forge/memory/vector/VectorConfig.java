package dev.forge.memory.vector;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.support.ConfigValues;
import dev.forge.memory.support.EmbeddingModels;
import dev.forge.memory.support.FusionMethod;
import dev.forge.memory.support.SearchText;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.Setting;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The settings of the {@code vector} provider, bound from its config block with
 * {@link dev.forge.memory.spi.ProviderConfig#bind}. Keys are written in {@code snake_case}; a missing key takes its
 * default, an unknown key is rejected with the list of known keys.
 *
 * <p>The keys, their defaults and an example: docs/providers/vector.md.
 *
 * @param path       the index directory of PROJECT and SESSION entries; relative paths resolve against the context's
 *                   base directory, {@code ~} against the home directory
 * @param globalPath the index directory of GLOBAL entries, shared by every project of the user; resolved like
 *                   {@code path}; {@code null} for {@code $FORGE_HOME/vectors} (see
 *                   {@link dev.forge.memory.spi.ProviderContext#forgeHome()}); when it names the directory of
 *                   {@code path}, one index holds all three scopes
 * @param embedding  the {@code embedding} block: {@code model} names an
 *                   {@link dev.forge.memory.embedding.EmbeddingModel} and the other keys are its settings; without
 *                   {@code model}, the model the index records (see {@link #openModel}), else {@value #DEFAULT_MODEL}
 * @param fusion     how HYBRID search fuses its keyword and semantic rankings; default {@code max_zscore} (see
 *                   {@link FusionMethod#DEFAULT})
 * @param rrfK       the rank constant {@code k} of reciprocal rank fusion when {@code fusion} is {@code rrf}, at least 1;
 *                   default 60
 * @param keywordWeight the weight of the keyword ranking in HYBRID search's fusion, in (0, 1], the semantic ranking
 *                   weighing 1; default 1
 * @param overfetch  how many times the limit HNSW is asked for (more neighbours, better recall), 1 to 100; default 4
 * @param exactLimit when the filter of a SEMANTIC search leaves at most this many entries, they are scored exactly
 *                   (brute-force cosine) instead of through the HNSW graph; 0 to 1,000,000; default 10,000
 * @param searchFields what is indexed besides the value, for keyword search and embedding alike; default
 *                   {@code [key, tags]}; a change asks for a reindex
 */
public record VectorConfig(String path, String globalPath, Map<String, Object> embedding, FusionMethod fusion, Integer rrfK, Double keywordWeight, Integer overfetch,
        Integer exactLimit, SearchText searchFields) {

    /** The default {@code path}: {@code .forge/vectors} under the project directory. */
    public static final String DEFAULT_PATH = ".forge/vectors";
    /** The GLOBAL index directory under the forge home when {@code global_path} is left out. */
    public static final String DEFAULT_GLOBAL_DIRECTORY = "vectors";
    /**
     * What {@code global_path} means when it is left out, written so that setting it to this changes nothing:
     * {@code $FORGE_HOME/vectors}, else {@code ~/.forge/vectors}.
     */
    public static final String DEFAULT_GLOBAL_PATH = "${FORGE_HOME:-~/.forge}/" + DEFAULT_GLOBAL_DIRECTORY;
    /** The embedding model of a new index whose config names none; an index keeps the model it records. */
    public static final String DEFAULT_MODEL = "e5-small";
    /** The default {@code rrf_k}: the usual 60, as {@link FusionMethod#DEFAULT_RRF_K}. */
    public static final int DEFAULT_RRF_K = FusionMethod.DEFAULT_RRF_K;
    /** The default {@code keyword_weight}: equal weights, as {@link FusionMethod#DEFAULT_KEYWORD_WEIGHT}. */
    public static final double DEFAULT_KEYWORD_WEIGHT = FusionMethod.DEFAULT_KEYWORD_WEIGHT;
    /** The default {@code overfetch}. */
    public static final int DEFAULT_OVERFETCH = 4;
    /** The default {@code exact_limit}. */
    public static final int DEFAULT_EXACT_LIMIT = 10_000;

    /** Fills in the default of every missing setting and rejects values out of range. */
    public VectorConfig {
        if (path == null) {
            path = DEFAULT_PATH;
        } else if (path.isBlank()) {
            throw new ConfigurationException("'path' must not be blank: leave it out to use the project's " + DEFAULT_PATH + ".");
        }
        if (globalPath != null && globalPath.isBlank()) {
            throw new ConfigurationException("'global_path' must not be blank: leave it out to use $FORGE_HOME/"
                    + DEFAULT_GLOBAL_DIRECTORY + ".");
        }
        embedding = embedding == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(embedding));
        if (fusion == null) {
            fusion = FusionMethod.DEFAULT;
        }
        rrfK = FusionMethod.rrfK(rrfK, "rrf_k");
        keywordWeight = FusionMethod.keywordWeight(keywordWeight, "keyword_weight");
        if (overfetch == null) {
            overfetch = DEFAULT_OVERFETCH;
        } else if (overfetch < 1 || overfetch > 100) {
            throw new ConfigurationException("'overfetch' must be 1 to 100, not " + overfetch + ".");
        }
        if (exactLimit == null) {
            exactLimit = DEFAULT_EXACT_LIMIT;
        } else if (exactLimit < 0 || exactLimit > 1_000_000) {
            throw new ConfigurationException("'exact_limit' must be 0 to 1000000, not " + exactLimit + ".");
        }
        if (searchFields == null) {
            searchFields = SearchText.DEFAULT;
        }
    }

    /** Whether the {@code embedding} block names its model. */
    boolean namesModel() {
        return embedding.containsKey(EmbeddingModels.MODEL_KEY);
    }

    /**
     * Opens the model of the {@code embedding} block, as configured in {@code raw} (this provider's block as read):
     * its secret paths go along, so that the model keeps a secret {@code url} or {@code remote_model} out of its
     * messages and fingerprint. A block that names no model gets {@code recorded} (the model an existing index was
     * built by, so that it keeps working with no reindex), else {@value #DEFAULT_MODEL}.
     */
    EmbeddingModel openModel(ProviderConfig raw, Optional<String> recorded) {
        Map<String, Object> block = new LinkedHashMap<>(embedding);
        block.putIfAbsent(EmbeddingModels.MODEL_KEY, recorded.orElse(DEFAULT_MODEL));
        return EmbeddingModels.load().open(ProviderConfig.of(block, raw.source(), raw.path() + ".embedding")
                .withSecretPaths(raw.secretPaths()));
    }

    /** Every setting at its default. */
    public static VectorConfig defaults() {
        return new VectorConfig(null, null, null, null, null, null, null, null, null);
    }

    /** The keys of this record, described for templates, at their defaults. */
    static List<Setting> settings() {
        VectorConfig defaults = defaults();
        return List.of(
                Setting.of("path", "path", defaults.path(),
                        "the Lucene index of PROJECT and SESSION memories; relative to the project directory; one "
                        + "process at a time"),
                Setting.of("global_path", "path", DEFAULT_GLOBAL_PATH, "the Lucene index of GLOBAL memories, shared "
                        + "by every project and process: $FORGE_HOME/" + DEFAULT_GLOBAL_DIRECTORY + ", else ~/.forge/"
                        + DEFAULT_GLOBAL_DIRECTORY),
                Setting.of("embedding", "map", "", "the embedding model and its "
                        + "settings: e5-small, bge-small, minilm (local), hashing (lexical), openai (url, remote_model, api_key); after a "
                        + "change run 'forge-memory reindex'"),
                Setting.of("embedding." + EmbeddingModels.MODEL_KEY, "string", DEFAULT_MODEL,
                        "the model's name; its own settings go beside it; left out, an existing index keeps the model "
                        + "it was built by"),
                Setting.of("fusion", ConfigValues.choices(FusionMethod.class), defaults.fusion().id(),
                        "hybrid search: max_zscore, clipped_zscore or zscore (score-normalised), or rrf (reciprocal rank"
                                + " fusion)"),
                Setting.of("rrf_k", "integer", String.valueOf(defaults.rrfK()), "the rank constant of rrf fusion"),
                Setting.of("keyword_weight", "number", String.valueOf(defaults.keywordWeight()),
                        "the keyword ranking's weight in hybrid fusion (semantic: 1)"),
                Setting.of("overfetch", "integer", String.valueOf(defaults.overfetch()),
                        "HNSW is asked for limit x overfetch neighbours"),
                Setting.of("exact_limit", "integer", String.valueOf(defaults.exactLimit()),
                        "at most this many filtered candidates are scored exactly instead of through HNSW"),
                SearchText.setting());
    }
}
