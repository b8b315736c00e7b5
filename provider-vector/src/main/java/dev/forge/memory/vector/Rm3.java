package dev.forge.memory.vector;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * RM3 query expansion (Lavrenko and Croft's relevance model, interpolated with the query as in Abdul-Jaleel et al.,
 * UMass at TREC 2004), with Anserini's default parameters rather than any fitted here: the {@value #FEEDBACK_DOCS}
 * best first-pass hits, the {@value #FEEDBACK_TERMS} best terms of their relevance model, the query's own terms
 * keeping {@value #ORIGINAL_WEIGHT} of the weight. Terms in more than a tenth of the documents are left out of the
 * model, as Anserini does: they say nothing about which documents are relevant.
 */
final class Rm3 {

    static final int FEEDBACK_DOCS = 10;
    static final int FEEDBACK_TERMS = 10;
    static final double ORIGINAL_WEIGHT = 0.5;
    static final double MAX_DOCUMENT_SHARE = 0.1;

    private Rm3() {
    }

    /** A first-pass hit: its score and its analysed terms, repeats kept. */
    record FeedbackDoc(double score, List<String> terms) {
    }

    /**
     * The expanded query: each term with its weight, summing to 1.
     *
     * @param query  the query's distinct terms
     * @param docs   the best first-pass hits, best first (only the first {@value #FEEDBACK_DOCS} are used)
     * @param common whether a term is in too many documents to be evidence
     */
    static Map<String, Double> expand(List<String> query, List<FeedbackDoc> docs, Predicate<String> common) {
        Map<String, Double> model = new HashMap<>();
        for (FeedbackDoc doc : docs.subList(0, Math.min(FEEDBACK_DOCS, docs.size()))) {
            if (doc.terms().isEmpty()) {
                continue;
            }
            Map<String, Integer> counts = new HashMap<>();
            for (String term : doc.terms()) {
                counts.merge(term, 1, Integer::sum);
            }
            int kept = 0;
            for (Map.Entry<String, Integer> e : counts.entrySet()) {
                if (!common.test(e.getKey())) {
                    kept += e.getValue();
                }
            }
            for (Map.Entry<String, Integer> e : counts.entrySet()) {
                if (!common.test(e.getKey())) {
                    model.merge(e.getKey(), doc.score() * e.getValue() / kept, Double::sum);
                }
            }
        }
        List<Map.Entry<String, Double>> best = new ArrayList<>(model.entrySet());
        best.sort(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        best = best.subList(0, Math.min(FEEDBACK_TERMS, best.size()));
        double total = best.stream().mapToDouble(Map.Entry::getValue).sum();
        double original = total > 0 ? ORIGINAL_WEIGHT : 1;
        Map<String, Double> expanded = new LinkedHashMap<>();
        for (String term : query) {
            expanded.merge(term, original / query.size(), Double::sum);
        }
        if (total <= 0) {
            return expanded;
        }
        for (Map.Entry<String, Double> e : best) {
            expanded.merge(e.getKey(), (1 - ORIGINAL_WEIGHT) * e.getValue() / total, Double::sum);
        }
        return expanded;
    }
}
