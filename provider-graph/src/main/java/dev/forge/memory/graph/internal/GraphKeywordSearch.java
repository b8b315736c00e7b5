package dev.forge.memory.graph.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.neo4j.driver.SimpleQueryRunner;
import org.neo4j.driver.types.Node;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.Hit;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.support.KeywordScorer;
import dev.forge.memory.support.SearchText;

/**
 * Keyword search of a {@link GraphStore}: the full-text index {@value Drivers.Schema#FULLTEXT_INDEX} over each live
 * node's {@code searchText}, the text {@link SearchText} makes of the entry with the store's {@code search_fields}. A
 * node records the fields its text was made with ({@code searchFields}), as it records the model of its vector, so that
 * a provider opened with other fields rebuilds the text of the nodes that need it ({@link #prepare}).
 */
final class GraphKeywordSearch {

    private static final Logger LOG = LoggerFactory.getLogger(GraphKeywordSearch.class);

    private static final Comparator<Hit> RANKING = Comparator.comparingDouble(Hit::score).reversed()
            .thenComparing(h -> h.entry().ref());

    /** Texts rebuilt per write transaction. */
    private static final int BATCH = 500;

    // Lucene's BM25 idf of a term in n of N documents; the sum over the query's terms bounds its score.
    private static final String TERM_COUNTS = "UNWIND $terms AS t"
            + " CALL { WITH t CALL db.index.fulltext.queryNodes($index, t) YIELD node RETURN count(node) AS n }"
            + " RETURN n";

    private final GraphStore graph;

    GraphKeywordSearch(GraphStore graph) {
        this.graph = graph;
    }

    /** How a node records the fields its text was made with: the items, a line each (no item holds a line break). */
    static String fieldsKey(SearchText text) {
        return String.join("\n", text.fields());
    }

    /**
     * Rebuilds, in write transactions of {@value #BATCH} nodes, the text of every live node of the store whose text was
     * made with other fields or by an earlier version (none recorded). A node written meanwhile keeps the text its
     * writer made. Logged at INFO when there was anything to do.
     */
    void prepare() {
        String fields = fieldsKey(graph.searchText());
        Map<String, Object> params = Map.of("store", graph.storeName(), "fields", fields, "batch", BATCH);
        long stale = graph.read("count entries to index", tx -> tx.run("MATCH (m:Memory) WHERE m.store = $store"
                + " AND m.version > 0 AND coalesce(m.searchFields, '') <> $fields RETURN count(m) AS n", params)
                .single().get("n").asLong());
        if (stale == 0) {
            return;
        }
        LOG.info("Indexing the text of {} entries of store '{}' with {}", stale, graph.storeName(), graph.searchText());
        // Another process writing with other fields meanwhile would hand back nodes forever: a bounded number of rounds.
        for (long round = 0; round < stale / BATCH + 10; round++) {
            List<Node> nodes = graph.read("find entries to index", tx -> tx.run("MATCH (m:Memory) WHERE m.store = $store"
                    + " AND m.version > 0 AND coalesce(m.searchFields, '') <> $fields RETURN m LIMIT $batch", params)
                    .list(r -> r.get("m").asNode()));
            if (nodes.isEmpty()) {
                return;
            }
            List<Map<String, Object>> rows = new ArrayList<>(nodes.size());
            for (Node node : nodes) {
                Map<String, Object> row = new HashMap<>();
                row.put("id", node.elementId());
                row.put("rev", revision(node));
                // an unreadable node gets no text, so that it is not looked at again
                row.put("text", graph.readable(node).map(graph.searchText()::text).orElse(""));
                rows.add(row);
            }
            graph.write("index the text of entries", tx -> tx.run("UNWIND $rows AS r MATCH (m:Memory)"
                    + " WHERE elementId(m) = r.id SET m.lock = true REMOVE m.lock"
                    + " WITH m, r WHERE m.version > 0 AND coalesce(m.rev, '') = r.rev"
                    + " SET m.searchText = r.text, m.searchFields = $fields",
                    Map.of("rows", rows, "fields", fields)).consume());
        }
    }

    private static String revision(Node node) {
        try {
            return GraphStore.revision(node);
        } catch (CorruptEntryException e) {
            return node.get("rev").asString("");
        }
    }

    /**
     * Keyword search through the full-text index: each term quoted (user text is never Lucene syntax), any of them
     * matching. A hit's score is Lucene's BM25 score divided by the best score the query could reach, the sum of its
     * terms' idf (the {@code vector} provider's definition), so linear in Lucene's score and in (0, 1].
     */
    List<Hit> search(SearchRequest request) {
        List<String> terms = KeywordScorer.terms(request.text());
        if (terms.isEmpty()) {
            return List.of();
        }
        List<String> quoted = terms.stream().map(GraphKeywordSearch::quote).toList();
        Map<String, Object> params = new HashMap<>();
        params.put("store", graph.storeName());
        params.put("visible", graph.namespaces(request.scopes()));
        params.put("text", String.join(" OR ", quoted));
        params.put("terms", quoted);
        params.put("index", Drivers.Schema.FULLTEXT_INDEX);
        List<Hit> hits = graph.read("search", tx -> {
            double best = best(tx, params);
            List<Hit> found = new ArrayList<>();
            tx.run("CALL db.index.fulltext.queryNodes($index, $text) YIELD node, score"
                    + " WHERE node.store = $store AND " + String.format(GraphStore.VISIBLE, "node") + " AND node.version > 0"
                    + " RETURN node, score", params).forEachRemaining(r -> {
                        double score = Math.min(1.0, Math.max(0.0, r.get("score").asDouble()) / best);
                        if (score > 0 && score >= request.threshold()) {
                            graph.readable(r.get("node").asNode()).filter(request.filter()::matches)
                                    .ifPresent(e -> found.add(new Hit(e, score)));
                        }
                    });
            return found;
        });
        hits.sort(RANKING);
        return hits.size() > request.limit() ? List.copyOf(hits.subList(0, request.limit())) : List.copyOf(hits);
    }

    /**
     * The sum of the query terms' idf, {@code ln(1 + (N - n + 0.5) / (n + 0.5))} as Lucene's BM25 has it, with N the
     * nodes of the database (the index spans every store) and n those the term matches, both counted now. Lucene's own
     * statistics also count entries replaced or deleted but not merged away yet, so this is an estimate; scores above
     * it are cut to 1.
     */
    private static double best(SimpleQueryRunner tx, Map<String, Object> params) {
        long docs = tx.run("MATCH (m:Memory) RETURN count(m) AS n").single().get("n").asLong();
        double sum = 0;
        for (long matched : tx.run(TERM_COUNTS, params).list(r -> r.get("n").asLong())) {
            long n = Math.min(matched, docs);
            sum += (float) Math.log(1 + (docs - n + 0.5D) / (n + 0.5D));
        }
        return sum > 0 ? sum : 1;
    }

    private static String quote(String term) {
        return '"' + term.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
