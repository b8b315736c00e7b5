package dev.forge.memory.support;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.forge.memory.ConfigurationException;

/**
 * How HYBRID search fuses a keyword and a semantic ranking ({@link SemanticScorer#fuse(dev.forge.memory.SearchRequest,
 * java.util.List, java.util.List, FusionMethod, int, double)}); the config form is the lower-case name.
 */
public enum FusionMethod {
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
    public static final FusionMethod DEFAULT = CLIPPED_ZSCORE;
    /** The keyword ranking's weight unless configured: equal weights, the semantic ranking weighing 1. */
    public static final double DEFAULT_KEYWORD_WEIGHT = 1.0;
    /** The rank constant of {@link #RRF} unless configured: the usual 60. */
    public static final int DEFAULT_RRF_K = SemanticScorer.RRF_K;

    /**
     * Parses the config form, ignoring case: {@code clipped_zscore}, {@code zscore} or {@code rrf}.
     *
     * @throws ConfigurationException for any other text, listing the allowed values
     */
    @JsonCreator
    public static FusionMethod parse(String text) {
        return ConfigValues.parse(FusionMethod.class, "fusion", text);
    }

    /** The lower-case name config uses. */
    @JsonValue
    public String id() {
        return ConfigValues.id(this);
    }
}
