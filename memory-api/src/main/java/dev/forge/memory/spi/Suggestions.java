package dev.forge.memory.spi;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean ...?" for misspelled names: the closest candidate by edit distance, if close enough. */
public final class Suggestions {

    private Suggestions() {
    }

    /** The candidate closest to {@code input}, if its edit distance is at most a third of the input's length (and at least 2). */
    public static Optional<String> closest(String input, Collection<String> candidates) {
        if (input == null) {
            return Optional.empty();
        }
        String wanted = input.toLowerCase(Locale.ROOT);
        int allowed = Math.max(2, wanted.length() / 3);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : candidates) {
            // The distance is at least the difference in length: a candidate that far off is never suggested, and a
            // hostile megabyte-long name costs nothing instead of a megabyte times each candidate's length.
            if (Math.abs(wanted.length() - candidate.length()) > allowed) {
                continue;
            }
            int distance = distance(wanted, candidate.toLowerCase(Locale.ROOT));
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return bestDistance <= allowed ? Optional.ofNullable(best) : Optional.empty();
    }

    /** The Levenshtein distance between two strings. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
