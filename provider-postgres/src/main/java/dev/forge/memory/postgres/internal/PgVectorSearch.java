package dev.forge.memory.postgres.internal;

import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.support.FusionMethod;
import dev.forge.memory.support.QueryEmbedding;
import dev.forge.memory.support.SemanticScorer;
import dev.forge.memory.support.SqlParameters;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * SEMANTIC search on the pgvector rows of the provider's model: the nearest vectors by cosine distance among the
 * entries the scopes and filter leave (the filter is part of the SQL, and pgvector 0.8's iterative index scan goes on
 * past filtered-out neighbours until the limit is filled), scored by cosine similarity. HYBRID fuses it with the
 * keyword ranking of {@link PgSearch} through {@link SemanticScorer#fuse(SearchRequest, List, List, FusionMethod, int,
 * double)}, as the vector and graph providers do.
 */
public final class PgVectorSearch {

    /** HYBRID fuses rankings this deep at least, as the vector provider does. */
    static final int MIN_HYBRID_DEPTH = 100;
    /** HYBRID fuses rankings {@code limit} times this deep, as the vector provider's default {@code overfetch}. */
    static final int OVERFETCH = 4;
    /** pgvector's largest {@code hnsw.ef_search}. */
    private static final int MAX_EF_SEARCH = 1000;

    private static final Comparator<Hit> RANKING = Comparator.comparingDouble(Hit::score).reversed()
            .thenComparing(h -> h.entry().ref());

    private final PgStore store;
    private final PgVectors vectors;
    private final FusionMethod fusion;
    private final int rrfK;
    private final double keywordWeight;

    /** Searches of {@code store}'s vectors; HYBRID fuses by {@code fusion} with {@code rrfK} and {@code keywordWeight}. */
    public PgVectorSearch(PgStore store, PgVectors vectors, FusionMethod fusion, int rrfK, double keywordWeight) {
        this.store = store;
        this.vectors = vectors;
        this.fusion = fusion;
        this.rrfK = rrfK;
        this.keywordWeight = keywordWeight;
    }

    /** The hits of a SEMANTIC or HYBRID request; the caller has checked that the store's vectors are the model's. */
    public List<Hit> search(SearchRequest request) {
        if (request.mode() == SearchMode.SEMANTIC) {
            return semantic(request, request.limit(), request.threshold());
        }
        int depth = (int) Math.min(SearchRequest.MAX_LIMIT, Math.max(MIN_HYBRID_DEPTH, (long) request.limit() * OVERFETCH));
        List<Hit> keyword = PgSearch.search(store, new SearchRequest(request.text(), request.scopes(), SearchMode.KEYWORD,
                depth, 0.0, request.filter()));
        List<Hit> semantic = semantic(request, depth, 0.0);
        return SemanticScorer.fuse(request, keyword, semantic, fusion, rrfK, keywordWeight);
    }

    private List<Hit> semantic(SearchRequest request, int limit, double threshold) {
        EmbeddingModel model = vectors.model().orElseThrow();
        float[] query = PgVectors.checked(model, QueryEmbedding.vectorOfQuery(model, request.text()));
        if (query == null) {
            return List.of();
        }
        String extension = vectors.extension();
        String distance = "(" + vectors.vectorColumn("v.embedding") + ") OPERATOR(" + extension + ".<=>) ?::"
                + extension + ".vector(" + vectors.dimension() + ")";
        List<Object> parameters = new ArrayList<>();
        parameters.add(PgVectors.literal(query));
        StringBuilder sql = new StringBuilder("SELECT ").append(PgRows.ENTRY_COLUMNS).append(", ").append(distance)
                .append(" AS distance FROM embeddings v JOIN entries e ON e.id = v.entry_id WHERE v.model = ")
                .append(vectors.tag()).append(" AND v.embedding IS NOT NULL AND (");
        PgSql.namespaces(request.scopes(), store.project(), store.session(), sql, parameters);
        sql.append(")");
        PgSql.filter(request.filter(), sql, parameters);
        long rows = Math.min(Integer.MAX_VALUE, (long) limit + PgSearch.TIE_MARGIN);
        boolean limited = request.filter().metadata().isEmpty();
        if (limited) {
            // Only the distance orders the SQL, so that the HNSW index can answer it; ties are ordered below.
            sql.append(" ORDER BY distance LIMIT ?");
            parameters.add(rows);
        }
        String iterative = iterativeScan();
        List<Hit> hits = store.database().read("search for '" + PgSearch.abbreviate(request.text()) + "' by meaning", connection -> {
            connection.setAutoCommit(false);
            try {
                try (Statement settings = connection.createStatement()) {
                    settings.execute("SET LOCAL hnsw.ef_search = " + Math.min(MAX_EF_SEARCH, Math.max(40, rows)));
                    if (!iterative.isEmpty()) {
                        settings.execute("SET LOCAL hnsw.iterative_scan = " + iterative);
                    }
                }
                List<Hit> found = new ArrayList<>();
                try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
                    SqlParameters.bind(statement, parameters);
                    try (ResultSet results = statement.executeQuery()) {
                        while (results.next()) {
                            Optional<MemoryEntry> entry = store.readable(results, 1);
                            double similarity = 1 - results.getDouble("distance");
                            if (entry.isPresent() && !results.wasNull() && similarity > 0 && similarity >= threshold
                                    && request.filter().matches(entry.get())) {
                                found.add(new Hit(entry.get(), Math.min(1.0, similarity)));
                            }
                        }
                    }
                }
                return found;
            } finally {
                connection.rollback();
                connection.setAutoCommit(true);
            }
        });
        hits.sort(RANKING);
        return hits.size() > limit ? List.copyOf(hits.subList(0, limit)) : List.copyOf(hits);
    }

    /**
     * {@code strict_order} where pgvector has iterative index scans (0.8 and newer), so that a filter leaving few
     * entries never starves the nearest neighbours; empty before.
     */
    private String iterativeScan() {
        return PgVectors.atLeast(vectors.extensionVersion(), 0, 8) ? "strict_order" : "";
    }
}
