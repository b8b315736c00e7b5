package dev.forge.memory.support;

import dev.forge.memory.EntryRef;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.embedding.EmbeddingModel;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Semantic and hybrid ranking for providers that hold their candidates in memory and have an
 * {@link EmbeddingModel}: brute-force cosine similarity, and reciprocal rank fusion with {@link KeywordScorer}.
 * {@link #fuseStrongerScores} is the score-normalised fusion that the vector and hybrid providers use by default,
 * {@link #fuseClippedScores} and {@link #fuseScores} the forms that add the two rankings up ({@link FusionMethod}).
 *
 * <ul>
 *   <li>SEMANTIC: the score is the cosine similarity of the query's vector and the entry's (unit vectors, so the
 *       dot product); entries with a similarity of zero or less are no hits. {@code threshold} applies to it.</li>
 *   <li>HYBRID: each entry's reciprocal ranks in the keyword and the semantic ranking are summed
 *       ({@code 1 / (k + rank)}, ranks from 1, {@code k} = {@value #RRF_K}) and divided by the best possible sum,
 *       so the score lies in (0, 1] and an entry first in both rankings scores 1. {@code threshold} applies to that
 *       fused score. Both rankings see the request's scopes and filter and no limit.</li>
 * </ul>
 * Ties go by key, then scope, as in keyword search.
 */
public final class SemanticScorer {

    /** The {@code k} of reciprocal rank fusion: the usual 60, which keeps a single first place from dominating. */
    public static final int RRF_K = 60;

    private static final Comparator<Hit> RANKING = Comparator.comparingDouble(Hit::score).reversed()
            .thenComparing(h -> h.entry().ref());

    private SemanticScorer() {
    }

    /** The dot product of two vectors of one length. */
    public static double dot(float[] a, float[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("vectors of " + a.length + " and " + b.length + " components");
        }
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }

    /**
     * Ranks candidates for a SEMANTIC or HYBRID request.
     *
     * @param vectors the vector of a candidate, made by {@code model} (a provider keeps them, so that they are not
     *                computed again for every search)
     */
    public static List<Hit> rank(SearchRequest request, List<MemoryEntry> candidates, EmbeddingModel model,
            Function<MemoryEntry, float[]> vectors) {
        return rank(request, candidates, model, vectors, SearchText.DEFAULT);
    }

    /**
     * {@link #rank(SearchRequest, List, EmbeddingModel, Function)} whose keyword ranking scores each candidate's
     * {@code text}; the vectors should be made from the same text.
     */
    public static List<Hit> rank(SearchRequest request, List<MemoryEntry> candidates, EmbeddingModel model,
            Function<MemoryEntry, float[]> vectors, SearchText text) {
        if (request.mode() == SearchMode.KEYWORD) {
            return KeywordScorer.rank(request, candidates, text);
        }
        List<Hit> semantic = semantic(request, candidates, model, vectors);
        if (request.mode() == SearchMode.SEMANTIC) {
            return cut(semantic.stream().filter(h -> h.score() >= request.threshold()).toList(), request.limit());
        }
        SearchRequest unlimited = new SearchRequest(request.text(), request.scopes(), SearchMode.KEYWORD,
                SearchRequest.MAX_LIMIT, 0.0, request.filter());
        List<Hit> keyword = KeywordScorer.rank(unlimited, candidates, text);
        return fuse(request, keyword, semantic);
    }

    /**
     * Fuses a keyword and a semantic ranking (each best first, computed with the request's scopes and filter and no
     * limit) by reciprocal rank fusion, as HYBRID search does: scores scaled into (0, 1], the request's threshold and
     * limit applied, ties by key then scope. Entries are matched by their {@link dev.forge.memory.EntryRef}; the first
     * ranking's entry object is kept.
     */
    public static List<Hit> fuse(SearchRequest request, List<Hit> keyword, List<Hit> semantic) {
        return fuse(request, keyword, semantic, RRF_K);
    }

    /**
     * {@link #fuse(SearchRequest, List, List)} with another rank constant {@code k} (60 by default): each entry scores
     * {@code sum 1 / (k + rank)} over the rankings it appears in (ranks from 1), divided by {@code 2 / (k + 1)} so
     * that first place in both rankings scores 1. A smaller {@code k} weighs the top ranks more.
     *
     * @throws IllegalArgumentException if {@code k} is below 1
     */
    public static List<Hit> fuse(SearchRequest request, List<Hit> keyword, List<Hit> semantic, int k) {
        return fuse(request, keyword, semantic, k, 1.0);
    }

    /**
     * Weighted reciprocal rank fusion: as {@link #fuse(SearchRequest, List, List, int)}, but the keyword ranking's
     * terms are multiplied by {@code keywordWeight} (the semantic ranking's weight is 1), and the sum is divided by
     * {@code (keywordWeight + 1) / (k + 1)}, so first place in both rankings still scores 1. A weight below 1 lets
     * keyword matches reorder and confirm semantic hits, while an entry found by keyword alone needs a high keyword
     * rank to enter: useful with a strong embedding model, whose ranking of natural-language questions is usually
     * better than BM25's.
     *
     * @param keywordWeight in (0, 1]; 1 is plain reciprocal rank fusion
     * @throws IllegalArgumentException if {@code k} is below 1 or the weight is outside (0, 1]
     */
    public static List<Hit> fuse(SearchRequest request, List<Hit> keyword, List<Hit> semantic, int k,
            double keywordWeight) {
        if (k < 1) {
            throw new IllegalArgumentException("the rank constant k must be at least 1, was " + k);
        }
        if (!(keywordWeight > 0 && keywordWeight <= 1)) {
            throw new IllegalArgumentException("the keyword weight must be in (0, 1], was " + keywordWeight);
        }
        Map<EntryRef, MemoryEntry> entries = new LinkedHashMap<>();
        Map<EntryRef, Double> sums = new HashMap<>();
        addRanks(keyword, keywordWeight, k, entries, sums);
        addRanks(semantic, 1.0, k, entries, sums);
        double best = (keywordWeight + 1.0) / (k + 1);
        List<Hit> hits = new ArrayList<>();
        entries.forEach((ref, entry) -> {
            double score = Math.min(1.0, sums.get(ref) / best);
            if (score >= request.threshold()) {
                hits.add(new Hit(entry, score));
            }
        });
        hits.sort(RANKING);
        return cut(hits, request.limit());
    }

    /**
     * Fuses a keyword and a semantic ranking with {@code method}: {@link #fuseStrongerScores} for
     * {@link FusionMethod#MAX_ZSCORE}, {@link #fuseClippedScores} for {@link FusionMethod#CLIPPED_ZSCORE} and
     * {@link #fuseScores} for {@link FusionMethod#ZSCORE} (where {@code k} plays no part), the weighted reciprocal rank
     * fusion above for {@link FusionMethod#RRF}.
     *
     * @throws IllegalArgumentException if {@code k} is below 1 or the weight is outside (0, 1]
     */
    public static List<Hit> fuse(SearchRequest request, List<Hit> keyword, List<Hit> semantic, FusionMethod method,
            int k, double keywordWeight) {
        if (method == FusionMethod.RRF) {
            return fuse(request, keyword, semantic, k, keywordWeight);
        }
        if (k < 1) {
            throw new IllegalArgumentException("the rank constant k must be at least 1, was " + k);
        }
        return switch (method) {
            case ZSCORE -> fuseScores(request, keyword, semantic, keywordWeight);
            case CLIPPED_ZSCORE -> fuseClippedScores(request, keyword, semantic, keywordWeight);
            default -> fuseStrongerScores(request, keyword, semantic, keywordWeight);
        };
    }

    /**
     * Score-normalised fusion: each ranking's scores are turned into z-scores ({@code (score - mean) / deviation} over
     * that ranking's hits; all 0 when its scores are all equal), an entry missing from one ranking gets that ranking's
     * lowest z-score, and an entry's fused value is {@code (keywordWeight * zKeyword + zSemantic) / (keywordWeight + 1)}.
     * The score is the logistic function of that value, in (0, 1): 0.5 for an entry as far above the mean in one
     * ranking as below it in the other, more the further above both. Unlike rank fusion it sees how much better the
     * top hits of a ranking are than the rest, so a ranking whose scores barely differ (a few common words matched)
     * moves the result little, and a clear match moves it much. The request's threshold and limit apply; ties by key,
     * then scope.
     *
     * @param keywordWeight in (0, 1]; 1 weighs both rankings equally
     * @throws IllegalArgumentException if the weight is outside (0, 1]
     */
    public static List<Hit> fuseScores(SearchRequest request, List<Hit> keyword, List<Hit> semantic,
            double keywordWeight) {
        return fuseZScores(request, keyword, semantic, keywordWeight, Evidence.NONE);
    }

    /**
     * Score-normalised fusion of the evidence only: as {@link #fuseScores}, but a z-score below 0
     * counts as 0, and so does absence from a ranking. An entry's evidence is
     * {@code (keywordWeight * max(0, zKeyword) + max(0, zSemantic)) / (keywordWeight + 1)}: a ranking speaks for the
     * entries it scores above its own mean and against none. Plain z-scores give an entry that one ranking lacks that
     * ranking's lowest value, so a weak ranking (a few common words matched, its hits below its mean) still lifts the
     * entries it matched over the other ranking's clear hits; clipped, it cannot. Scores: the logistic function of
     * the evidence, in (0.5, 1), for an entry above the mean of at least one ranking; the others follow in the order of
     * {@link #fuseScores}, scored half its score, below 0.5. The request's threshold and limit apply; ties by key, then
     * scope.
     *
     * @param keywordWeight in (0, 1]; 1 weighs both rankings equally
     * @throws IllegalArgumentException if the weight is outside (0, 1]
     */
    public static List<Hit> fuseClippedScores(SearchRequest request, List<Hit> keyword, List<Hit> semantic,
            double keywordWeight) {
        return fuseZScores(request, keyword, semantic, keywordWeight, Evidence.MEAN);
    }

    /**
     * Score-normalised fusion by the stronger evidence, HYBRID's default: each ranking's evidence for an entry is its
     * clipped z-score as in {@link #fuseClippedScores} (0 below that ranking's mean or absent from it), and an entry's
     * evidence is the stronger of the two, {@code max(keywordWeight * max(0, zKeyword), max(0, zSemantic))}. One
     * ranking's clear hit is not outweighed by an entry that both rankings put only a little above their means: the
     * keyword ranking of a question that shares only a common word with its answer matches many entries a little,
     * and the semantic ranking, which reads the same words, puts some of those entries a little above its mean too;
     * adding the two would count that word twice. Scores: the logistic function of the evidence, in (0.5, 1), for an
     * entry above the mean of at least one ranking; the others follow in the order of {@link #fuseScores}, scored half
     * its score, below 0.5. The request's threshold and limit apply; ties by key, then scope.
     *
     * @param keywordWeight in (0, 1]; 1 weighs both rankings equally
     * @throws IllegalArgumentException if the weight is outside (0, 1]
     */
    public static List<Hit> fuseStrongerScores(SearchRequest request, List<Hit> keyword, List<Hit> semantic,
            double keywordWeight) {
        return fuseZScores(request, keyword, semantic, keywordWeight, Evidence.MAX);
    }

    /** How the z-score fusions count evidence: not at all (plain z-scores), the weighted mean, or the stronger one. */
    private enum Evidence { NONE, MEAN, MAX }

    private static List<Hit> fuseZScores(SearchRequest request, List<Hit> keyword, List<Hit> semantic,
            double keywordWeight, Evidence counted) {
        if (!(keywordWeight > 0 && keywordWeight <= 1)) {
            throw new IllegalArgumentException("the keyword weight must be in (0, 1], was " + keywordWeight);
        }
        Map<EntryRef, MemoryEntry> entries = new LinkedHashMap<>();
        Map<EntryRef, Double> keywordZ = zScores(keyword, entries);
        Map<EntryRef, Double> semanticZ = zScores(semantic, entries);
        double keywordFloor = keywordZ.values().stream().mapToDouble(Double::doubleValue).min().orElse(0);
        double semanticFloor = semanticZ.values().stream().mapToDouble(Double::doubleValue).min().orElse(0);
        List<Hit> hits = new ArrayList<>();
        entries.forEach((ref, entry) -> {
            double zKeyword = keywordZ.getOrDefault(ref, keywordFloor);
            double zSemantic = semanticZ.getOrDefault(ref, semanticFloor);
            double plain = logistic((keywordWeight * zKeyword + zSemantic) / (keywordWeight + 1));
            double evidence = switch (counted) {
                case NONE -> 0;
                case MEAN -> (keywordWeight * Math.max(0, zKeyword) + Math.max(0, zSemantic)) / (keywordWeight + 1);
                case MAX -> Math.max(keywordWeight * Math.max(0, zKeyword), Math.max(0, zSemantic));
            };
            double score = counted == Evidence.NONE ? plain : evidence > 0 ? logistic(evidence) : plain / 2;
            if (score > 0 && score >= request.threshold()) {
                hits.add(new Hit(entry, Math.min(1.0, score)));
            }
        });
        hits.sort(RANKING);
        return cut(hits, request.limit());
    }

    private static double logistic(double value) {
        return 1 / (1 + Math.exp(-value));
    }

    /** The z-score of each hit's score within its ranking; records each entry (the first ranking's object wins). */
    private static Map<EntryRef, Double> zScores(List<Hit> ranking, Map<EntryRef, MemoryEntry> entries) {
        double mean = ranking.stream().mapToDouble(Hit::score).average().orElse(0);
        double variance = ranking.stream().mapToDouble(h -> (h.score() - mean) * (h.score() - mean)).average().orElse(0);
        double deviation = Math.sqrt(variance);
        Map<EntryRef, Double> z = new HashMap<>();
        for (Hit hit : ranking) {
            entries.putIfAbsent(hit.entry().ref(), hit.entry());
            z.putIfAbsent(hit.entry().ref(), deviation > 0 ? (hit.score() - mean) / deviation : 0.0);
        }
        return z;
    }

    private static void addRanks(List<Hit> ranking, double weight, int k, Map<EntryRef, MemoryEntry> entries,
            Map<EntryRef, Double> sums) {
        for (int i = 0; i < ranking.size(); i++) {
            MemoryEntry entry = ranking.get(i).entry();
            entries.putIfAbsent(entry.ref(), entry);
            sums.merge(entry.ref(), weight / (k + i + 1), Double::sum);
        }
    }

    private static List<Hit> semantic(SearchRequest request, List<MemoryEntry> candidates, EmbeddingModel model,
            Function<MemoryEntry, float[]> vectors) {
        float[] query = QueryEmbedding.vectorOfQuery(model, request.text());
        List<Hit> hits = new ArrayList<>();
        for (MemoryEntry entry : candidates) {
            if (!request.scopes().contains(entry.scope()) || !request.filter().matches(entry)) {
                continue;
            }
            double similarity = dot(query, vectors.apply(entry));
            if (similarity > 0) {
                hits.add(new Hit(entry, Math.min(1.0, similarity)));
            }
        }
        hits.sort(RANKING);
        return hits;
    }

    private static List<Hit> cut(List<Hit> hits, int limit) {
        return hits.size() > limit ? List.copyOf(hits.subList(0, limit)) : List.copyOf(hits);
    }
}
