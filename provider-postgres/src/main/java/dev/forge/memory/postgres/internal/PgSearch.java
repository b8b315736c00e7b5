package dev.forge.memory.postgres.internal;

import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.support.KeywordScorer;
import dev.forge.memory.support.SqlParameters;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Keyword search on the {@code tsvector} documents: the query's words (each through {@code plainto_tsquery} in the
 * provider's language, so stemmed and stop words dropped) joined by OR, matched with the GIN index, ranked by
 * {@code ts_rank} with length normalisation 1. A hit's score is its rank divided by the rank of a document holding
 * exactly the query's words (the best the query can reach, as the sqlite provider divides {@code bm25()} by its best),
 * at most 1: scores lie in (0, 1], compare within one result list, and a threshold is a share of that best.
 */
final class PgSearch {

    /** The most query words searched for: more add little but cost a term each. */
    static final int MAX_TERMS = 64;

    /** Rows read past the limit, so that hits tied with the last one are ordered by the contract, not the database. */
    static final int TIE_MARGIN = 16;

    private static final Comparator<Hit> RANKING = Comparator.comparingDouble(Hit::score).reversed()
            .thenComparing(h -> h.entry().ref());

    private PgSearch() {
    }

    static List<Hit> search(PgStore store, SearchRequest request) {
        List<String> terms = KeywordScorer.terms(request.text());
        if (terms.isEmpty()) {
            return List.of();
        }
        if (terms.size() > MAX_TERMS) {
            terms = terms.subList(0, MAX_TERMS);
        }
        String language = store.documents().language();
        List<Object> parameters = new ArrayList<>();
        String query = String.join(" || ", terms.stream().map(t -> "plainto_tsquery(?::regconfig, ?)").toList());
        // MATERIALIZED: inlined, the tsquery is parsed again for every matching row.
        StringBuilder sql = new StringBuilder("WITH q AS MATERIALIZED (SELECT ").append(query).append(" AS query)")
                .append(" SELECT ").append(PgRows.ENTRY_COLUMNS)
                .append(", ts_rank(e.document, q.query, 1) AS rank, ts_rank(to_tsvector(?::regconfig, ?), q.query, 1) AS best")
                .append(" FROM q, entries e WHERE e.document @@ q.query AND (");
        for (String term : terms) {
            parameters.add(language);
            parameters.add(term);
        }
        parameters.add(language);
        parameters.add(String.join(" ", terms));
        PgSql.namespaces(request.scopes(), store.project(), store.session(), sql, parameters);
        sql.append(")");
        PgSql.filter(request.filter(), sql, parameters);
        if (request.filter().metadata().isEmpty()) {
            // The SQL applies the whole filter, so the best rows are the best hits, in the contract's order but where
            // tied keys differ by a character above U+FFFF against one in U+E000-U+FFFF (UTF-16 order against code
            // point order): a margin of rows covers those.
            sql.append(" ORDER BY rank DESC, e.key, CASE e.scope WHEN 'session' THEN 0 WHEN 'project' THEN 1 ELSE 2 END LIMIT ?");
            parameters.add(Math.min(Integer.MAX_VALUE, (long) request.limit() + TIE_MARGIN));
        }
        List<Hit> hits = store.database().read("search for '" + abbreviate(request.text()) + "'", connection -> {
            List<Hit> found = new ArrayList<>();
            try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
                SqlParameters.bind(statement, parameters);
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        Optional<MemoryEntry> entry = store.readable(rows, 1);
                        double best = rows.getDouble("best");
                        double rank = rows.getDouble("rank");
                        if (entry.isEmpty() || best <= 0 || rank <= 0 || !request.filter().matches(entry.get())) {
                            continue;
                        }
                        double score = Math.min(1.0, rank / best);
                        if (score >= request.threshold()) {
                            found.add(new Hit(entry.get(), score));
                        }
                    }
                }
            }
            return found;
        });
        hits.sort(RANKING);
        return hits.size() > request.limit() ? List.copyOf(hits.subList(0, request.limit())) : List.copyOf(hits);
    }

    static String abbreviate(String text) {
        return text.length() > 60 ? text.substring(0, 60) + "…" : text;
    }
}
