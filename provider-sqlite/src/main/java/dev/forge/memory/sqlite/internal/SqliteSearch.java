package dev.forge.memory.sqlite.internal;

import dev.forge.memory.Hit;
import dev.forge.memory.Keys;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.support.EnglishTerms;
import dev.forge.memory.support.KeywordScorer;
import dev.forge.memory.support.SearchText;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** One keyword search of a {@link SqliteStore}: the FTS5 statement, its ranking and the cut at the limit. */
final class SqliteSearch {

    private final SqliteStore store;
    private final Database database;
    private final SearchText text;
    private final String project;
    private final String session;

    SqliteSearch(SqliteStore store, Database database, SearchText text, String project, String session) {
        this.store = store;
        this.database = database;
        this.text = text;
        this.project = project;
        this.session = session;
    }

    List<SqliteStore.Found> search(SearchRequest request, boolean snippets) {
        // FTS5 has no stop words: question words ("what did ... when") would otherwise weigh in every match
        List<String> terms = EnglishTerms.withoutStopWords(KeywordScorer.terms(request.text()));
        if (terms.isEmpty()) {
            return List.of();
        }
        String match = SearchTextIndex.match(text, Statements.match(terms));
        List<String> phrases = new ArrayList<>(terms.size());
        for (String term : terms) {
            phrases.add(SearchTextIndex.match(text, Statements.match(List.of(term))));
        }
        long window = (long) request.limit() + TIE_WINDOW;
        Optional<Statements.Bound> limited = Statements.searchLimited(request, match, phrases, project, session, snippets,
                window);
        if (limited.isPresent()) {
            Optional<List<SqliteStore.Found>> found = search(limited.get(), request, snippets, phrases.size(), window);
            if (found.isPresent()) {
                return found.get();
            }
        }
        return search(Statements.search(request, match, phrases, project, session, snippets), request, snippets,
                phrases.size(), Long.MAX_VALUE).orElseThrow();
    }

    /** How many rows past the limit a search with a {@code LIMIT} reads, for hits tied with the last one. */
    static final int TIE_WINDOW = 64;

    /** The hits of {@code sql}, or empty when it gave all its {@code window} rows while they were still tied. */
    private Optional<List<SqliteStore.Found>> search(Statements.Bound sql, SearchRequest request, boolean snippets,
            int phrases, long window) {
        return database.read("search for '" + abbreviateText(request.text()) + "'", connection -> {
            PreparedStatement statement = database.prepared(connection, sql.sql());
            SqliteStore.bind(statement, sql.parameters());
            try (ResultSet results = statement.executeQuery()) {
                return rank(results, request, snippets, phrases, window);
            }
        });
    }

    /**
     * The best {@code request.limit()} hits of {@code results}, rows of {@link Statements#search}, best first; empty
     * when the {@code window} rows of a limited statement ran out while the rows were still tied with the last hit.
     */
    private Optional<List<SqliteStore.Found>> rank(ResultSet results, SearchRequest request, boolean snippets, int phrases,
            long window) throws SQLException {
        int limit = request.limit();
        List<SqliteStore.Found> hits = new ArrayList<>();
        double previous = 1.0;
        long rows = 0;
        boolean cut = false;
        double best = 1.0;
        while (results.next()) {
            rows++;
            if (rows == 1) {
                best = best(results, Statements.searchStatisticsColumn(snippets), phrases);
            }
            // Rows come best first; keeping the scores from rising by a rounding step keeps the cut exact.
            double score = Math.min(previous, score(results.getDouble(Statements.SEARCH_BM25_COLUMN), best));
            previous = score;
            if (score < request.threshold()) {
                cut = true;
                break;
            }
            if (hits.size() >= limit) {
                SqliteStore.Found last = hits.get(limit - 1);
                if (score < last.hit().score()) {
                    cut = true;
                    break;
                }
                if (!beforeLast(results, last)) {
                    continue; // tied in score, but after the last hit by key and scope: not decoded
                }
            }
            Optional<MemoryEntry> entry = store.readable(results);
            if (entry.isPresent() && request.filter().matches(entry.get()) && request.scopes().contains(entry.get().scope())) {
                hits.add(new SqliteStore.Found(new Hit(entry.get(), score), snippets ? results.getString(Statements.SEARCH_SNIPPET_COLUMN) : null));
                if (hits.size() >= limit) {
                    hits.sort(Comparator.comparing(SqliteStore.Found::hit, SqliteStore.RANKING));
                    if (hits.size() > limit) {
                        hits.remove(limit);
                    }
                }
            }
        }
        if (!cut && rows >= window) {
            return Optional.empty();
        }
        hits.sort(Comparator.comparing(SqliteStore.Found::hit, SqliteStore.RANKING));
        return Optional.of(List.copyOf(hits));
    }

    /** Whether the row at {@code results} (tied in score with {@code last}) comes before it: by key, then scope. */
    private static boolean beforeLast(ResultSet results, SqliteStore.Found last) throws SQLException {
        MemoryEntry entry = last.hit().entry();
        String key = results.getString(SqliteStore.ENTRY_AFTER_ID);
        if (key == null) {
            return true; // a damaged row: decoding it reports it
        }
        int byKey = Keys.compareKeys(key, entry.key());
        if (byKey != 0) {
            return byKey < 0;
        }
        String scope = results.getString(SqliteStore.ENTRY_AFTER_ID + 1);
        return scope != null && Statements.scopeRank(scope) < entry.scope().ordinal();
    }

    /** FTS5's {@code bm25()} constant k1 (its b, 0.75, does not bound the score). */
    private static final double K1 = 1.2;
    /** The idf FTS5 gives a phrase in more than half the rows, where the textbook formula is 0 or below. */
    private static final double LEAST_IDF = 1e-6;

    /**
     * The best {@code bm25()} the phrases could reach, from the statistics of the row at {@code results}: FTS5 sums
     * per phrase its idf, {@code ln((N - n + 0.5) / (n + 0.5))} but at least 1e-6 (N the rows of the index, n the rows
     * the phrase matches), times a term-frequency factor {@code f (k1 + 1) / (f + k1 (1 - b + b |D| / avgdl))} that
     * grows towards {@code k1 + 1} with the frequency f. The sum of the idfs times {@code k1 + 1} bounds it, as the sum
     * of the idfs bounds Lucene's BM25 (whose factor has no {@code k1 + 1}) in the {@code vector} provider.
     */
    private static double best(ResultSet results, int column, int phrases) throws SQLException {
        double rows = results.getLong(column);
        double sum = 0;
        for (int i = 1; i <= phrases; i++) {
            double matched = results.getLong(column + i);
            double idf = Math.log((rows - matched + 0.5) / (matched + 0.5));
            sum += idf > 0 ? idf : LEAST_IDF;
        }
        return (K1 + 1) * sum;
    }

    /**
     * The score of a {@code bm25()} value (negative, lower is better) on the scale of the {@code best} the query could
     * reach: {@code -bm25 / best}, in (0, 1], higher is better, linear in {@code bm25()}.
     */
    static double score(double bm25, double best) {
        double score = Math.max(0.0, -bm25) / best;
        return score > 0.0 ? Math.min(score, 1.0) : Double.MIN_VALUE;
    }

    private static String abbreviateText(String text) {
        return text.length() <= 40 ? text : text.substring(0, 37) + "...";
    }
}
