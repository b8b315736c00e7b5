package dev.forge.memory.support;

import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.SearchRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * A small, dependency-free keyword ranking for providers without a search engine of their own
 * (the in-memory and file providers).
 *
 * <p>Text is split into terms at every character that is not a letter or digit, and lower-cased. An entry
 * matches when its key, tags or value hold at least one query term. The score grows with the number of distinct
 * query terms the entry holds and, within that, with how often they occur, so an entry holding every term always
 * outranks one holding fewer.
 */
public final class KeywordScorer {

    private static final Comparator<Hit> RANKING = Comparator.comparingDouble(Hit::score).reversed()
            .thenComparing(h -> h.entry().ref());

    private KeywordScorer() {
    }

    /** The distinct lower-case terms of {@code text}, in order of first appearance. */
    public static List<String> terms(String text) {
        List<String> words = new ArrayList<>();
        collect(text, words);
        return List.copyOf(new LinkedHashSet<>(words));
    }

    /**
     * The score of {@code entry} for the query terms, in {@code [0, 1]}; 0 means no match. With {@code n} query
     * terms of which {@code m} occur, the score lies in {@code ((m - 1) / n, m / n]}, rising with how often they
     * occur, so more matched terms always win.
     */
    public static double score(List<String> queryTerms, MemoryEntry entry) {
        if (queryTerms.isEmpty()) {
            return 0;
        }
        List<String> words = new ArrayList<>();
        collect(entry.key(), words);
        entry.tags().forEach(tag -> collect(tag, words));
        collect(entry.value(), words);
        int matched = 0;
        int occurrences = 0;
        for (String term : queryTerms) {
            int count = 0;
            for (String word : words) {
                if (word.equals(term)) {
                    count++;
                }
            }
            if (count > 0) {
                matched++;
                occurrences += count;
            }
        }
        if (matched == 0) {
            return 0;
        }
        double frequency = 1 - Math.exp(-(double) occurrences / (2.0 * matched));
        return (matched - 1 + 0.5 + 0.5 * frequency) / queryTerms.size();
    }

    private static void collect(String text, List<String> into) {
        StringBuilder term = new StringBuilder();
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (Character.isLetterOrDigit(cp)) {
                term.appendCodePoint(cp);
            } else if (term.length() > 0) {
                into.add(term.toString().toLowerCase(Locale.ROOT));
                term.setLength(0);
            }
            i += Character.charCount(cp);
        }
        if (term.length() > 0) {
            into.add(term.toString().toLowerCase(Locale.ROOT));
        }
    }

    /**
     * Ranks candidates for a keyword request: keeps those in its scopes that meet its filter and score above
     * zero and at least its threshold, highest first (ties by key, then scope), cut to its limit.
     */
    public static List<Hit> rank(SearchRequest request, Iterable<MemoryEntry> candidates) {
        List<String> terms = terms(request.text());
        List<Hit> hits = new ArrayList<>();
        for (MemoryEntry entry : candidates) {
            if (!request.scopes().contains(entry.scope()) || !request.filter().matches(entry)) {
                continue;
            }
            double score = score(terms, entry);
            if (score > 0 && score >= request.threshold()) {
                hits.add(new Hit(entry, Math.min(1.0, score)));
            }
        }
        hits.sort(RANKING);
        return hits.size() > request.limit() ? List.copyOf(hits.subList(0, request.limit())) : List.copyOf(hits);
    }
}
