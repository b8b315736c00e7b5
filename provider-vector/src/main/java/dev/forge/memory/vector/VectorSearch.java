package dev.forge.memory.vector;

import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.support.SemanticScorer;
import dev.forge.memory.vector.internal.Documents;
import dev.forge.memory.vector.internal.EntryCodec;
import dev.forge.memory.vector.internal.ScopedIndexes;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.SimpleCollector;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.VectorUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The reads of a {@link VectorMemoryProvider} that match and rank: queries' candidates, KEYWORD (BM25), SEMANTIC
 * (exact cosine or filtered HNSW) and HYBRID (their fusion). A read over PROJECT or SESSION and GLOBAL searches the
 * project's index and the shared GLOBAL one as one ({@link ScopedIndexes#read}), so ranks and scores of both mix.
 */
final class VectorSearch {

    private static final Logger LOG = LoggerFactory.getLogger(VectorSearch.class);
    private static final Comparator<Hit> RANKING = Comparator.comparingDouble(Hit::score).reversed()
            .thenComparing(h -> h.entry().ref());
    private static final int MIN_HYBRID_DEPTH = 100;

    private final ScopedIndexes indexes;
    private final VectorConfig config;
    private final int dimension;
    private final Function<String, float[]> embedder;
    private final Function<Set<Scope>, Set<String>> namespaces;
    private final Analyzer analyzer = Documents.analyzer();

    /**
     * @param embedder   the unit vector of a query text, {@code null} when it has no words
     * @param namespaces the namespaces of a set of scopes for the provider's project and session
     */
    VectorSearch(ScopedIndexes indexes, VectorConfig config, int dimension, Function<String, float[]> embedder,
            Function<Set<Scope>, Set<String>> namespaces) {
        this.indexes = indexes;
        this.config = config;
        this.dimension = dimension;
        this.embedder = embedder;
        this.namespaces = namespaces;
    }

    /** The entries of {@code query}'s scopes and filter that its pattern may match, before it is applied. */
    List<MemoryEntry> candidates(Query query) {
        org.apache.lucene.search.Query lucene = Documents.patternQuery(
                Documents.filterQuery(namespaces.apply(query.scopes()), query.filter()), query.pattern());
        String location = indexes.location(query.scopes());
        return indexes.read(query.scopes(), searcher -> decodeAll(searcher, matching(searcher, lucene), location));
    }

    /** The hits of {@code request}; the caller has checked that the indexes' vectors serve SEMANTIC and HYBRID. */
    List<Hit> search(SearchRequest request) {
        switch (request.mode()) {
            case KEYWORD:
                return keyword(request, request.limit(), request.threshold());
            case SEMANTIC:
                return semantic(request, request.limit(), request.threshold());
            default:
                int depth = (int) Math.min(SearchRequest.MAX_LIMIT,
                        Math.max(MIN_HYBRID_DEPTH, (long) request.limit() * config.overfetch()));
                List<Hit> keyword = keyword(request, depth, 0.0);
                List<Hit> semantic = semantic(request, depth, 0.0);
                return SemanticScorer.fuse(request, keyword, semantic, config.fusion(), config.rrfK(),
                        config.keywordWeight());
        }
    }

    /** The global doc ids matching {@code query}, in index order. */
    static List<Integer> matching(IndexSearcher searcher, org.apache.lucene.search.Query query) throws IOException {
        List<Integer> docs = new ArrayList<>();
        searcher.search(query, new SimpleCollector() {
            private int base;

            @Override
            protected void doSetNextReader(LeafReaderContext leaf) {
                base = leaf.docBase;
            }

            @Override
            public void collect(int doc) {
                docs.add(base + doc);
            }

            @Override
            public ScoreMode scoreMode() {
                return ScoreMode.COMPLETE_NO_SCORES;
            }
        });
        return docs;
    }

    /** The entries of {@code docs}; a document that cannot be read is logged and skipped (see {@link #doctor()}). */
    static List<MemoryEntry> decodeAll(IndexSearcher searcher, List<Integer> docs, String location) throws IOException {
        StoredFields stored = searcher.storedFields();
        List<MemoryEntry> entries = new ArrayList<>(docs.size());
        for (int doc : docs) {
            decode(stored, doc, location).ifPresent(entries::add);
        }
        return entries;
    }

    private static Optional<MemoryEntry> decode(StoredFields stored, int doc, String location) throws IOException {
        try {
            return Optional.of(EntryCodec.decode(stored.document(doc).get(Documents.ENTRY), location + " (document " + doc + ")"));
        } catch (CorruptEntryException e) {
            LOG.warn("Skipping a damaged document of the vector index: {}", e.getMessage());
            return Optional.empty();
        }
    }

    List<Hit> keyword(SearchRequest request, int limit, double threshold) {
        String location = indexes.location(request.scopes());
        List<String> terms = Documents.terms(analyzer, request.text());
        if (terms.isEmpty()) {
            return List.of();
        }
        BooleanQuery.Builder builder = new BooleanQuery.Builder();
        for (String term : terms) {
            builder.add(new TermQuery(new Term(Documents.TEXT, term)), Occur.SHOULD);
        }
        builder.add(Documents.filterQuery(namespaces.apply(request.scopes()), request.filter()), Occur.FILTER);
        builder.setMinimumNumberShouldMatch(1);
        BooleanQuery query = builder.build();
        return indexes.read(request.scopes(), searcher -> {
            double best = bestBm25(searcher, terms);
            List<ScoreDoc> top = topWithTies(searcher, query, limit);
            List<Scored> scored = new ArrayList<>(top.size());
            for (ScoreDoc doc : top) {
                scored.add(new Scored(doc.doc, Math.min(1.0, doc.score / best)));
            }
            return hits(searcher, scored, limit, threshold, location);
        });
    }

    /**
     * The largest BM25 score {@code terms} can reach: Lucene's BM25 term score is idf times a saturating term
     * frequency below 1, so the sum of the terms' idf bounds it.
     */
    private static double bestBm25(IndexSearcher searcher, List<String> terms) throws IOException {
        IndexReader reader = searcher.getIndexReader();
        long docCount = Math.max(1, reader.getDocCount(Documents.TEXT));
        double sum = 0;
        for (String term : terms) {
            int docFreq = reader.docFreq(new Term(Documents.TEXT, term));
            sum += (float) Math.log(1 + (docCount - docFreq + 0.5D) / (docFreq + 0.5D));
        }
        return sum > 0 ? sum : 1;
    }

    /** The top {@code limit} docs and every doc tied with the last of them, so that ties can be ordered by key. */
    private static List<ScoreDoc> topWithTies(IndexSearcher searcher, org.apache.lucene.search.Query query, int limit)
            throws IOException {
        int n = limit;
        while (true) {
            ScoreDoc[] docs = searcher.search(query, n).scoreDocs;
            if (docs.length < n || docs[n - 1].score < docs[limit - 1].score || n >= Integer.MAX_VALUE / 2) {
                return List.of(docs);
            }
            n *= 2;
        }
    }

    /** A document and its score on the request's scale. */
    private record Scored(int doc, double score) {
    }

    /**
     * Hits of the scored docs that are above zero and at least {@code threshold}, best first, ties by key then scope,
     * at most {@code limit}: only the docs that can make the cut (the best {@code limit} and their ties) are read.
     */
    private static List<Hit> hits(IndexSearcher searcher, List<Scored> scored, int limit, double threshold, String location)
            throws IOException {
        List<Scored> kept = new ArrayList<>();
        for (Scored s : scored) {
            if (s.score() > 0 && s.score() >= threshold) {
                kept.add(s);
            }
        }
        kept.sort(Comparator.comparingDouble(Scored::score).reversed());
        int end = Math.min(limit, kept.size());
        while (end < kept.size() && kept.get(end).score() == kept.get(end - 1).score()) {
            end++;
        }
        StoredFields stored = searcher.storedFields();
        List<Hit> hits = new ArrayList<>(end);
        for (Scored s : kept.subList(0, end)) {
            Optional<MemoryEntry> entry = decode(stored, s.doc(), location);
            entry.ifPresent(e -> hits.add(new Hit(e, Math.min(1.0, s.score()))));
        }
        hits.sort(RANKING);
        return hits.size() > limit ? List.copyOf(hits.subList(0, limit)) : List.copyOf(hits);
    }

    List<Hit> semantic(SearchRequest request, int limit, double threshold) {
        String location = indexes.location(request.scopes());
        float[] query = embedder.apply(request.text());
        if (query == null) {
            return List.of();
        }
        String field = Documents.vectorField(dimension);
        org.apache.lucene.search.Query filter = Documents.filterQuery(namespaces.apply(request.scopes()), request.filter());
        return indexes.read(request.scopes(), searcher -> {
            int candidates = searcher.count(filter);
            if (candidates == 0) {
                return List.of();
            }
            List<Scored> scored = candidates <= config.exactLimit()
                    ? exact(searcher, filter, field, query)
                    : nearest(searcher, filter, field, query, (int) Math.min(candidates, Math.max(limit, (long) limit * config.overfetch())));
            return hits(searcher, scored, limit, threshold, location);
        });
    }

    /** The cosine of every candidate that has a vector: no graph, no approximation. */
    private static List<Scored> exact(IndexSearcher searcher, org.apache.lucene.search.Query filter, String field,
            float[] query) throws IOException {
        Weight weight = searcher.createWeight(searcher.rewrite(filter), ScoreMode.COMPLETE_NO_SCORES, 1f);
        List<Scored> scored = new ArrayList<>();
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            FloatVectorValues vectors = leaf.reader().getFloatVectorValues(field);
            Scorer scorer = vectors == null ? null : weight.scorer(leaf);
            if (scorer == null) {
                continue;
            }
            Bits live = leaf.reader().getLiveDocs();
            DocIdSetIterator docs = scorer.iterator();
            for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
                if (live != null && !live.get(doc)) {
                    continue;
                }
                int at = vectors.docID() < doc ? vectors.advance(doc) : vectors.docID();
                if (at == DocIdSetIterator.NO_MORE_DOCS) {
                    break;
                }
                if (at == doc) {
                    scored.add(new Scored(leaf.docBase + doc, VectorUtil.dotProduct(query, vectors.vectorValue())));
                }
            }
        }
        return scored;
    }

    /** The {@code k} nearest candidates through the HNSW graph, the filter applied while the graph is searched. */
    private static List<Scored> nearest(IndexSearcher searcher, org.apache.lucene.search.Query filter, String field,
            float[] query, int k) throws IOException {
        TopDocs top = searcher.search(new KnnFloatVectorQuery(field, query, k, filter), k);
        List<Scored> scored = new ArrayList<>(top.scoreDocs.length);
        for (ScoreDoc doc : top.scoreDocs) {
            // Lucene scores a dot product of unit vectors as (1 + cosine) / 2.
            scored.add(new Scored(doc.doc, 2.0 * doc.score - 1.0));
        }
        return scored;
    }
}
