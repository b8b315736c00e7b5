package dev.forge.memory.support;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.spi.Setting;
import java.util.List;

/**
 * How HYBRID search fuses a keyword and a semantic ranking ({@link SemanticScorer#fuse(dev.forge.memory.SearchRequest,
 * java.util.List, java.util.List, FusionMethod, int, double)}); the config form is the lower-case name.
 */
public enum FusionMethod {
    /**
     * Score-normalised fusion by the stronger evidence: each ranking's evidence for an entry is its z-score clipped at 0
     * as for {@link #CLIPPED_ZSCORE}, and the entry's is the stronger of the two (the keyword one weighted), not their
     * sum: two rankings that each put an entry a little above their means (a common word matched, read by both) do not
     * outweigh one ranking's clear hit. Entries above the mean in neither ranking follow, ordered as {@link #ZSCORE}
     * orders them.
     */
    MAX_ZSCORE,
    /**
     * Score-normalised fusion counting only evidence: each ranking's scores become z-scores as for {@link #ZSCORE},
     * but a z-score below 0 (an entry below that ranking's mean) counts as 0, as does absence from a ranking, and the
     * weighted mean of the two is the fused value. A ranking speaks for the entries it scores above its own average
     * and never against the others, so a weak ranking (common words matched) cannot push the other ranking's clear
     * hits down. Entries above the mean in neither ranking follow, ordered as {@link #ZSCORE} orders them.
     */
    CLIPPED_ZSCORE,
    /**
     * Score-normalised fusion: each ranking's scores become z-scores (distance from that ranking's mean in its standard
     * deviations), an entry missing from a ranking gets that ranking's lowest z-score, and the weighted mean of the two
     * is the fused score. Uses how far apart the scores are, not only their order.
     */
    ZSCORE,
    /** Weighted reciprocal rank fusion: {@code keyword_weight / (k + keyword rank) + 1 / (k + semantic rank)}. */
    RRF;

    /** The fusion of HYBRID search in the {@code vector} and {@code hybrid} providers unless configured. */
    public static final FusionMethod DEFAULT = MAX_ZSCORE;
    /** The keyword ranking's weight unless configured: equal weights, the semantic ranking weighing 1. */
    public static final double DEFAULT_KEYWORD_WEIGHT = 1.0;
    /** The rank constant of {@link #RRF} unless configured: the usual 60. */
    public static final int DEFAULT_RRF_K = SemanticScorer.RRF_K;

    /**
     * Parses the config form, ignoring case: {@code max_zscore}, {@code clipped_zscore}, {@code zscore} or {@code rrf}.
     *
     * @throws ConfigurationException for any other text, listing the allowed values
     */
    @JsonCreator
    public static FusionMethod parse(String text) {
        return ConfigValues.parse(FusionMethod.class, "fusion", text);
    }

    /**
     * The configured rank constant of {@link #RRF}, or {@link #DEFAULT_RRF_K} when left out.
     *
     * @param key the setting's name for the message, such as {@code rrf_k}
     * @throws ConfigurationException below 1
     */
    public static int rrfK(Integer configured, String key) {
        if (configured == null) {
            return DEFAULT_RRF_K;
        }
        if (configured < 1) {
            throw new ConfigurationException("'" + key + "' must be at least 1, not " + configured + "; " + DEFAULT_RRF_K
                    + " is the default.");
        }
        return configured;
    }

    /**
     * The configured weight of the keyword ranking, or {@link #DEFAULT_KEYWORD_WEIGHT} when left out.
     *
     * @param key the setting's name for the message, such as {@code keyword_weight}
     * @throws ConfigurationException unless more than 0 and at most 1
     */
    public static double keywordWeight(Double configured, String key) {
        if (configured == null) {
            return DEFAULT_KEYWORD_WEIGHT;
        }
        if (!(configured > 0 && configured <= 1)) {
            throw new ConfigurationException("'" + key + "' must be more than 0 and at most 1, not " + configured
                    + "; 1 weighs both rankings equally.");
        }
        return configured;
    }

    /**
     * The template descriptions of a provider's flat fusion settings ({@code fusion}, {@code rrf_k},
     * {@code keyword_weight}) at their defaults.
     */
    public static List<Setting> settings() {
        return List.of(
                Setting.of("fusion", ConfigValues.choices(FusionMethod.class), DEFAULT.id(),
                        "hybrid search: max_zscore, clipped_zscore or zscore (score-normalised), or rrf (reciprocal rank"
                                + " fusion)"),
                Setting.of("rrf_k", "integer", String.valueOf(DEFAULT_RRF_K), "the rank constant of rrf fusion"),
                Setting.of("keyword_weight", "number", String.valueOf(DEFAULT_KEYWORD_WEIGHT),
                        "the keyword ranking's weight in hybrid fusion (semantic: 1)"));
    }

    /** The lower-case name config uses. */
    @JsonValue
    public String id() {
        return ConfigValues.id(this);
    }
}
