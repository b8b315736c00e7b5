package dev.forge.memory.lifecycle.internal;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.lifecycle.MemoryDocument;
import dev.forge.memory.lifecycle.QualityChecks;
import dev.forge.memory.lifecycle.QualityChecks.GrowthRate;
import dev.forge.memory.lifecycle.SizeLimits;
import dev.forge.memory.lifecycle.Staleness;
import dev.forge.memory.lifecycle.ValidationResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The adapter's quality checks (quality_guidance): completeness of a project overview, specificity of claims,
 * growth over versions, and the suggestions that follow from them.
 */
public final class QualityRules {

    /** The file type whose completeness is checked. */
    public static final String OVERVIEW = "project_overview";
    /** At most this share of claims (in percent) may be vague. */
    public static final int MAX_VAGUE_PERCENT = 30;
    /** Writes without growth after which a document is stagnant. */
    public static final int STAGNANT_WRITES = 5;
    /** Every this many versions, the accuracy spot-check is suggested. */
    public static final int ACCURACY_EVERY = 5;

    private static final Map<String, Pattern> TOPICS = new LinkedHashMap<>();

    static {
        TOPICS.put("language", Pattern.compile("\\blanguages?\\b", Pattern.CASE_INSENSITIVE));
        TOPICS.put("framework", Pattern.compile("\\bframeworks?\\b", Pattern.CASE_INSENSITIVE));
        TOPICS.put("architecture", Pattern.compile("\\barchitect(?:ure|ural)\\b", Pattern.CASE_INSENSITIVE));
        TOPICS.put("conventions", Pattern.compile("\\b(?:conventions?|naming)\\b", Pattern.CASE_INSENSITIVE));
        TOPICS.put("testing", Pattern.compile("\\btest(?:s|ing)?\\b", Pattern.CASE_INSENSITIVE));
    }

    private static final Pattern CLAIM = Pattern.compile("\\s*(?:[-*+]|\\d+[.)])\\s+\\S.*");
    private static final Pattern SPECIFIC = Pattern.compile(
            "`[^`]+`"                                   // a code span
            + "|\\w[\\w.-]*/[\\w./-]*\\w"               // a path with a slash
            + "|\\b[\\w-]{2,}\\.[A-Za-z]{1,5}\\b"       // a file name with an extension
            + "|:\\d+\\b"                               // a line number
            + "|\\b\\w+\\(\\)");                        // a function name

    private QualityRules() {
    }

    /** The topics a project overview must cover, in the order they are reported. */
    public static List<String> topics() {
        return List.copyOf(TOPICS.keySet());
    }

    /**
     * Runs every check on {@code document}.
     *
     * @param versions the document's versions, oldest first, when the provider keeps history
     */
    public static ValidationResult validate(MemoryDocument document, Optional<List<MemoryEntry>> versions) {
        String body = document.body();
        boolean overview = document.key().fileType().equals(OVERVIEW);
        List<String> missing = overview
                ? TOPICS.entrySet().stream().filter(t -> !t.getValue().matcher(body).find()).map(Map.Entry::getKey).toList()
                : List.of();
        List<String> claims = Sections.lines(body).stream().map(Sections::strip).filter(l -> CLAIM.matcher(l).matches()).toList();
        List<String> vague = claims.stream().filter(l -> !SPECIFIC.matcher(l).find()).toList();
        boolean specific = vague.size() * 100 <= claims.size() * MAX_VAGUE_PERCENT;
        GrowthRate growth = versions.map(QualityRules::growth).orElse(GrowthRate.UNKNOWN);
        QualityChecks checks = new QualityChecks(missing.isEmpty(), missing, specific, claims.size(), vague.size(), growth);

        List<String> suggestions = new ArrayList<>();
        if (!missing.isEmpty()) {
            suggestions.add("Incomplete project overview: add " + String.join(", ", missing) + ".");
        }
        if (!specific) {
            suggestions.add(vague.size() + " of " + claims.size() + " claims name no file path, line number or function (e.g. \""
                    + vague.get(0).trim() + "\"): make them specific, like \"Custom JWT auth in `app/auth/middleware.py`\".");
        }
        if (growth == GrowthRate.STAGNANT) {
            suggestions.add("No growth in the last " + STAGNANT_WRITES + " writes: consolidate it or check it is still used.");
        }
        if (versions.isEmpty()) {
            suggestions.add("Growth is unknown: this provider keeps no version history.");
        }
        if (document.entry().version() % ACCURACY_EVERY == 0) {
            suggestions.add("Accuracy spot-check (every " + ACCURACY_EVERY + "th version): verify that 2-3 file paths and "
                    + "conventions it mentions still match the code, and that its known issues are current.");
        }
        if (document.lastUpdated().isEmpty()) {
            suggestions.add("No '<!-- Last Updated: YYYY-MM-DD -->' first line: it counts as stale; update it through PluginMemory to stamp it.");
        } else if (document.staleness() != Staleness.FRESH) {
            suggestions.add(document.staleness() == Staleness.STALE
                    ? Staleness.STALE_ADVISORY + " Last updated " + document.daysSinceUpdate().getAsLong() + " days ago: verify it before relying on it."
                    : "Aging: last updated " + document.daysSinceUpdate().getAsLong() + " days ago; verify critical claims.");
        }
        document.sizeWarning().ifPresent(suggestions::add);
        return new ValidationResult(document.key(), checks, suggestions);
    }

    /**
     * HEALTHY when the newest version has more lines than the one {@value #STAGNANT_WRITES} writes before it (or the
     * oldest, with fewer versions); STAGNANT when {@value #STAGNANT_WRITES} writes went by without that; else UNKNOWN.
     */
    static GrowthRate growth(List<MemoryEntry> versions) {
        if (versions.size() < 2) {
            return GrowthRate.UNKNOWN;
        }
        int window = Math.min(versions.size(), STAGNANT_WRITES + 1);
        int newest = SizeLimits.lineCount(versions.get(versions.size() - 1).value());
        int base = SizeLimits.lineCount(versions.get(versions.size() - window).value());
        if (newest > base) {
            return GrowthRate.HEALTHY;
        }
        return window == STAGNANT_WRITES + 1 ? GrowthRate.STAGNANT : GrowthRate.UNKNOWN;
    }
}
