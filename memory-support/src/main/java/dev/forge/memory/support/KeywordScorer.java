package dev.forge.memory.support;

import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.SearchRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Keyword ranking for providers without a search engine of their own (the in-memory, file and markdown providers):
 * Okapi BM25 as Lucene's {@code BM25Similarity} computes it ({@code k1} 1.2, {@code b} 0.75), over the terms of
 * {@link EnglishTerms} (lower-cased, English stop words removed, Porter-stemmed).
 *
 * <p>An entry's document is its {@link SearchText} (by default its key, tags and value). The collection the statistics come from (document frequency,
 * average length) is the set of entries the search considers: those in the request's scopes that meet its filter.
 * A query made only of stop words is matched with stop words kept, so it still finds what holds them.
 *
 * <p>Scores lie in (0, 1): an entry's BM25 sum divided by the most the query's terms could add up to
 * ({@code (k1 + 1)} times each term's IDF), so a threshold means "this fraction of a perfect match" whatever the
 * other entries score.
 */
public final class KeywordScorer {

    /** Term-frequency saturation, as Lucene's default. */
    static final double K1 = 1.2;

    /** Length normalisation, as Lucene's default. */
    static final double B = 0.75;

    private static final Comparator<Hit> RANKING = Comparator.comparingDouble(Hit::score).reversed()
            .thenComparing(h -> h.entry().ref());

    private KeywordScorer() {
    }

    /**
     * The distinct lower-case words of {@code text} (runs of letters and digits), in order of first appearance,
     * neither stemmed nor stop-word filtered: what engines with their own analysis (SQLite FTS5, Neo4j full-text)
     * are given to quote.
     */
    public static List<String> terms(String text) {
        List<String> words = new ArrayList<>();
        collect(text, words);
        return List.copyOf(new LinkedHashSet<>(words));
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
        return rank(request, candidates, SearchText.DEFAULT);
    }

    /** {@link #rank(SearchRequest, Iterable)} over each candidate's {@code text} (its configured {@code search_fields}). */
    public static List<Hit> rank(SearchRequest request, Iterable<MemoryEntry> candidates, SearchText text) {
        List<MemoryEntry> considered = new ArrayList<>();
        for (MemoryEntry entry : candidates) {
            if (request.scopes().contains(entry.scope()) && request.filter().matches(entry)) {
                considered.add(entry);
            }
        }
        boolean keepStopWords = false;
        Set<String> query = new LinkedHashSet<>(EnglishTerms.tokens(request.text()));
        if (query.isEmpty()) {
            keepStopWords = true;
            query.addAll(EnglishTerms.tokensKeepingStopWords(request.text()));
        }
        if (query.isEmpty() || considered.isEmpty()) {
            return List.of();
        }
        List<Map<String, Integer>> frequencies = new ArrayList<>(considered.size());
        int[] lengths = new int[considered.size()];
        Map<String, Integer> documentFrequency = new HashMap<>();
        long totalLength = 0;
        for (int i = 0; i < considered.size(); i++) {
            List<String> tokens = document(text.text(considered.get(i)), keepStopWords);
            lengths[i] = tokens.size();
            totalLength += tokens.size();
            Map<String, Integer> counts = new HashMap<>();
            for (String token : tokens) {
                if (query.contains(token)) {
                    counts.merge(token, 1, Integer::sum);
                }
            }
            counts.keySet().forEach(term -> documentFrequency.merge(term, 1, Integer::sum));
            frequencies.add(counts);
        }
        int n = considered.size();
        double averageLength = Math.max(1.0, (double) totalLength / n);
        Map<String, Double> idf = new HashMap<>();
        double best = 0;
        for (String term : query) {
            double df = documentFrequency.getOrDefault(term, 0);
            double weight = Math.log(1 + (n - df + 0.5) / (df + 0.5));
            idf.put(term, weight);
            best += weight * (K1 + 1);
        }
        List<Hit> hits = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Map<String, Integer> counts = frequencies.get(i);
            if (counts.isEmpty()) {
                continue;
            }
            double norm = K1 * (1 - B + B * lengths[i] / averageLength);
            double sum = 0;
            for (Map.Entry<String, Integer> tf : counts.entrySet()) {
                sum += idf.get(tf.getKey()) * tf.getValue() * (K1 + 1) / (tf.getValue() + norm);
            }
            double score = Math.min(1.0, sum / best);
            if (score > 0 && score >= request.threshold()) {
                hits.add(new Hit(considered.get(i), score));
            }
        }
        hits.sort(RANKING);
        return hits.size() > request.limit() ? List.copyOf(hits.subList(0, request.limit())) : List.copyOf(hits);
    }

    /** The analysed terms of an entry's document. */
    private static List<String> document(String text, boolean keepStopWords) {
        return keepStopWords ? EnglishTerms.tokensKeepingStopWords(text) : EnglishTerms.tokens(text);
    }
}
