package dev.forge.memory.vector;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.support.ConfigValues;

/**
 * Whether KEYWORD search (and the keyword side of HYBRID) expands its query with pseudo-relevance feedback; the config
 * form ({@code keyword_feedback}) is the lower-case name.
 */
public enum KeywordFeedback {
    /** The query's own terms only. */
    NONE,
    /**
     * RM3 (Abdul-Jaleel et al., UMass at TREC 2004) with the parameters Anserini ships as defaults: the ten best
     * first-pass hits are taken as relevant, the ten terms most likely under their relevance model are added, and
     * the query's own terms keep half the weight. See {@link Rm3}.
     */
    RM3;

    /**
     * Parses the config form, ignoring case: {@code none} or {@code rm3}.
     *
     * @throws ConfigurationException for any other text, listing the allowed values
     */
    @JsonCreator
    public static KeywordFeedback parse(String text) {
        return ConfigValues.parse(KeywordFeedback.class, "keyword_feedback", text);
    }

    /** The lower-case name config uses. */
    @JsonValue
    public String id() {
        return ConfigValues.id(this);
    }
}
