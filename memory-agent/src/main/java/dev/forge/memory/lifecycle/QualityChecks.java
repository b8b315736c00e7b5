package dev.forge.memory.lifecycle;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The adapter's quality checks of one document.
 *
 * @param completeness  for {@code project_overview}: whether it covers language, framework, architecture, conventions
 *                      and testing; true for other file types, where the check does not apply
 * @param missingTopics the topics a {@code project_overview} lacks, in that order; empty otherwise
 * @param specificity   whether at most 30% of the claims (list items) lack a specific reference
 * @param claims        the number of claims (list items) looked at
 * @param vagueClaims   the claims without a file path, line number, function name or code span
 * @param growthRate    how the document's line count developed over its versions
 */
public record QualityChecks(boolean completeness, List<String> missingTopics, boolean specificity, int claims,
                            int vagueClaims, GrowthRate growthRate) {

    /** Line count growth over the last writes, from the provider's version history. */
    public enum GrowthRate {
        /** The newest version has more lines than the one five writes before (or the oldest kept, if fewer). */
        HEALTHY,
        /** Five writes without the line count growing. */
        STAGNANT,
        /** Not enough history: the provider keeps none, or fewer than six versions without growth. */
        UNKNOWN;

        /** The adapter's lower-case name. */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Copies the list. */
    public QualityChecks {
        missingTopics = List.copyOf(missingTopics);
        Objects.requireNonNull(growthRate, "growthRate");
    }
}
