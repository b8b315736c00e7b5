package dev.forge.memory.consolidation;

import dev.forge.memory.MemoryEntry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Merges exact and near duplicates without any service; the same input always gives the same plan.
 *
 * <ul>
 *   <li><b>Exact duplicates</b>: values equal after lower-casing and collapsing white space.</li>
 *   <li><b>Near duplicates</b>: values whose {@link #similarity word-shingle Jaccard similarity} is at least the
 *       threshold (default {@value #DEFAULT_THRESHOLD}).</li>
 *   <li>Groups form around the newest memory: memories are taken newest first (ties by key), and each joins the first
 *       group whose newest memory it duplicates, or starts a group. So there is no chaining (A like B like C does not put
 *       A with C unless A is like C) and the kept memory is always the newest of its group, its value unchanged.</li>
 *   <li>Memories with a blank value are left alone.</li>
 * </ul>
 */
public final class DeterministicConsolidator implements Consolidator {

    /** The default near-duplicate threshold. */
    public static final double DEFAULT_THRESHOLD = 0.8;
    /** The default shingle size, in words. */
    public static final int DEFAULT_SHINGLE = 3;

    private static final Comparator<MemoryEntry> NEWEST_FIRST =
            Comparator.comparing(MemoryEntry::updatedAt).reversed().thenComparing(MemoryEntry::key);

    private final double threshold;
    private final int shingle;

    private DeterministicConsolidator(double threshold, int shingle) {
        this.threshold = threshold;
        this.shingle = shingle;
    }

    /** The default: threshold {@value #DEFAULT_THRESHOLD}, shingles of {@value #DEFAULT_SHINGLE} words. */
    public static DeterministicConsolidator create() {
        return new DeterministicConsolidator(DEFAULT_THRESHOLD, DEFAULT_SHINGLE);
    }

    /**
     * A consolidator with its own settings.
     *
     * @param threshold the least similarity of near duplicates, above 0 and at most 1 (1: only values with the same
     *                  words in the same order)
     * @param shingle   the shingle size in words, 1 to 10
     * @throws dev.forge.memory.InvalidRequestException if a setting is out of range
     */
    public static DeterministicConsolidator create(double threshold, int shingle) {
        if (!(threshold > 0 && threshold <= 1)) {
            throw new dev.forge.memory.InvalidRequestException("The similarity threshold must be above 0 and at most 1 "
                    + "(1: only values with the same words in the same order); it is " + threshold + ".");
        }
        if (shingle < 1 || shingle > 10) {
            throw new dev.forge.memory.InvalidRequestException("The shingle size must be 1 to 10 words; it is " + shingle + ".");
        }
        return new DeterministicConsolidator(threshold, shingle);
    }

    @Override
    public ConsolidationPlan plan(List<MemoryEntry> entries) {
        List<MemoryEntry> ordered = new ArrayList<>(entries);
        ordered.sort(NEWEST_FIRST);
        List<List<MemoryEntry>> groups = new ArrayList<>();
        for (MemoryEntry entry : ordered) {
            if (entry.value().isBlank()) {
                continue;
            }
            List<MemoryEntry> home = null;
            for (List<MemoryEntry> group : groups) {
                if (duplicates(group.get(0).value(), entry.value())) {
                    home = group;
                    break;
                }
            }
            if (home == null) {
                groups.add(home = new ArrayList<>());
            }
            home.add(entry);
        }
        List<ConsolidationPlan.Merge> merges = new ArrayList<>();
        for (List<MemoryEntry> group : groups) {
            if (group.size() > 1) {
                MemoryEntry newest = group.get(0);
                merges.add(new ConsolidationPlan.Merge(newest.key(), group.stream().map(MemoryEntry::key).toList(),
                        newest.value()));
            }
        }
        return new ConsolidationPlan(merges);
    }

    /** Whether two values are exact or near duplicates under this consolidator's settings. */
    public boolean duplicates(String a, String b) {
        return normalise(a).equals(normalise(b)) || similarity(a, b) >= threshold;
    }

    /**
     * The Jaccard similarity of the two values' word shingles: lower-cased words (runs of letters and digits), taken
     * {@code shingle} at a time (a value of fewer words is one shingle); the size of the intersection over the size of
     * the union, 0 when either has no word.
     */
    public double similarity(String a, String b) {
        Set<List<String>> left = shingles(a);
        Set<List<String>> right = shingles(b);
        if (left.isEmpty() || right.isEmpty()) {
            return 0;
        }
        Set<List<String>> union = new HashSet<>(left);
        union.addAll(right);
        int common = left.size() + right.size() - union.size();
        return (double) common / union.size();
    }

    private Set<List<String>> shingles(String text) {
        List<String> words = Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+"))
                .filter(w -> !w.isEmpty()).toList();
        Set<List<String>> shingles = new HashSet<>();
        if (words.isEmpty()) {
            return shingles;
        }
        int size = Math.min(shingle, words.size());
        for (int i = 0; i + size <= words.size(); i++) {
            shingles.add(words.subList(i, i + size));
        }
        return shingles;
    }

    private static String normalise(String text) {
        return text.toLowerCase(Locale.ROOT).strip().replaceAll("\\s+", " ");
    }

    @Override
    public String name() {
        return "deterministic";
    }

    @Override
    public String toString() {
        return "DeterministicConsolidator[threshold=" + threshold + ", shingle=" + shingle + "]";
    }
}
