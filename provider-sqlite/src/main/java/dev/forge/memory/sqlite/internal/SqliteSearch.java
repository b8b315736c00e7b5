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
        long window = (long) request.limit() + TIE_WINDOW;
        Optional<Statements.Bound> limited = Statements.searchLimited(request, match, project, session, snippets, window);
        if (limited.isPresent()) {
            Optional<List<SqliteStore.Found>> found = search(limited.get(), request, snippets, window);
            if (found.isPresent()) {
                return found.get();
            }
        }
        return search(Statements.search(request, match, project, session, snippets), request, snippets, Long.MAX_VALUE)
                .orElseThrow();
    }

    /** How many rows past the limit a search with a {@code LIMIT} reads, for hits tied with the last one. */
    static final int TIE_WINDOW = 64;

    /** The hits of {@code sql}, or empty when it gave all its {@code window} rows while they were still tied. */
    private Optional<List<SqliteStore.Found>> search(Statements.Bound sql, SearchRequest request, boolean snippets, long window) {
        return database.read("search for '" + abbreviateText(request.text()) + "'", connection -> {
            PreparedStatement statement = database.prepared(connection, sql.sql());
            SqliteStore.bind(statement, sql.parameters());
            try (ResultSet results = statement.executeQuery()) {
                return rank(results, request, snippets, window);
            }
        });
    }

    /**
     * The best {@code request.limit()} hits of {@code results}, rows of {@link Statements#search}, best first; empty
     * when the {@code window} rows of a limited statement ran out while the rows were still tied with the last hit.
     */
    private Optional<List<SqliteStore.Found>> rank(ResultSet results, SearchRequest request, boolean snippets, long window)
            throws SQLException {
        int limit = request.limit();
        List<SqliteStore.Found> hits = new ArrayList<>();
        double previous = 1.0;
        long rows = 0;
        boolean cut = false;
        while (results.next()) {
            rows++;
            // Rows come best first; keeping the scores from rising by a rounding step keeps the cut exact.
            double score = Math.min(previous, score(results.getDouble(Statements.SEARCH_BM25_COLUMN)));
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

    /** The score of a {@code bm25()} value: {@code -bm25 / (1 - bm25)}, in (0, 1), higher is better. */
    static double score(double bm25) {
        double relevance = Math.max(0.0, -bm25);
        double score = relevance / (1.0 + relevance);
        return score > 0.0 ? Math.min(score, 1.0) : Double.MIN_VALUE;
    }

    private static String abbreviateText(String text) {
        return text.length() <= 40 ? text : text.substring(0, 37) + "...";
    }
}
