package dev.forge.memory.sqlite.internal;

import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code query} on one {@link SqliteStore}: the SQL of {@link Statements#query}, and the rows it selects as entries.
 * A row that cannot be read is skipped (and logged) so that one bad row does not hide the rest; a limit and an offset
 * count the readable entries, as they do in every provider that applies {@link Query#apply} to what it read.
 */
final class SqliteQuery {

    private final SqliteStore store;

    SqliteQuery(SqliteStore store) {
        this.store = store;
    }

    /** The entries {@code query} selects. */
    List<MemoryEntry> run(Query query) {
        if (query.pattern().minKeyLength() > Limits.MAX_KEY_LENGTH) {
            return List.of(); // no key is that long, and SQLite's GLOB refuses patterns over 50,000 bytes
        }
        Statements.QuerySql sql = Statements.query(query, store.project(), store.session());
        if (sql.paged()) {
            return page(query, sql);
        }
        List<MemoryEntry> rows = store.database().read("run the query '" + query.pattern() + "'", connection -> {
            List<MemoryEntry> read = new ArrayList<>();
            PreparedStatement statement = store.database().prepared(connection, sql.sql());
            SqliteStore.bind(statement, sql.parameters());
            try (ResultSet results = statement.executeQuery()) {
                while (results.next()) {
                    store.readable(results).ifPresent(read::add);
                }
            }
            return read;
        });
        if (!sql.exact()) {
            return query.apply(rows);
        }
        // Exact SQL selected the matches: only the order is left to do.
        rows.sort(query.order().comparator());
        return List.copyOf(rows);
    }

    /**
     * The page of an exact query whose SQL orders and pages. SQL counts stored rows, but the page and its offset count
     * readable entries: a row that cannot be read would otherwise shorten its page and shift every later offset, so
     * that a caller paging on would miss or repeat entries. So the rows are read in order from the first (the readable
     * ones before the offset counted, not kept): cut to offset + limit rows, which is the whole page unless rows were
     * skipped; then once more uncut, until the page is full. Each attempt is one statement, so the page is read from
     * one snapshot.
     */
    private List<MemoryEntry> page(Query query, Statements.QuerySql sql) {
        long wanted = (long) query.offset() + query.limit();
        return store.database().read("run the query '" + query.pattern() + "'", connection -> {
            PreparedStatement statement = store.database().prepared(connection, sql.sql());
            List<MemoryEntry> page = attempt(statement, sql, query, wanted);
            return page != null ? page : attempt(statement, sql, query, -1);
        });
    }

    /**
     * The page from the first {@code rows} stored rows ({@code -1}: all of them, read until the page is full), or null
     * when rows were skipped and more rows follow the cut.
     */
    private List<MemoryEntry> attempt(PreparedStatement statement, Statements.QuerySql sql, Query query, long rows)
            throws SQLException {
        List<Object> parameters = new ArrayList<>(sql.parameters());
        parameters.set(parameters.size() - 2, rows);
        parameters.set(parameters.size() - 1, 0L);
        SqliteStore.bind(statement, parameters);
        long wanted = (long) query.offset() + query.limit();
        List<MemoryEntry> page = new ArrayList<>();
        long readable = 0;
        long read = 0;
        try (ResultSet results = statement.executeQuery()) {
            while (readable < wanted && results.next()) {
                read++;
                Optional<MemoryEntry> entry = store.readable(results);
                if (entry.isPresent() && readable++ >= query.offset()) {
                    page.add(entry.get());
                }
            }
        }
        return readable < wanted && read == rows ? null : List.copyOf(page);
    }
}
