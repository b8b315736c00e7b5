package dev.forge.memory.sqlite.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The prepared statements of one connection, kept for reuse: sqlite-jdbc compiles the SQL on every
 * {@code prepareStatement}, which costs more than running a read by key. At most {@value #CAPACITY} statements, the
 * least recently used closed first (queries with many filter shapes make many texts).
 *
 * <p>Not safe for several threads: like its connection, it is used by one thread at a time. A statement handed out is
 * reset when its result set is closed (sqlite-jdbc resets the SQLite statement then), so a statement kept here holds
 * no snapshot of the database between uses.
 */
final class StatementCache {

    private static final Logger LOG = LoggerFactory.getLogger(StatementCache.class);

    /** The most statements kept per connection. */
    static final int CAPACITY = 64;

    private final Connection connection;
    private final Map<String, PreparedStatement> statements = new LinkedHashMap<>(16, 0.75f, true);
    /** The statements handed out since {@link #endUse}: those dropped when the work using them failed. */
    private final List<String> used = new ArrayList<>();

    StatementCache(Connection connection) {
        this.connection = connection;
    }

    /** The statement of {@code sql}, prepared on first use. Do not close it; close its result sets. */
    PreparedStatement prepare(String sql) throws SQLException {
        PreparedStatement statement = statements.get(sql);
        if (statement == null || statement.isClosed()) {
            statement = connection.prepareStatement(sql);
            statements.put(sql, statement);
            evictBeyondCapacity();
        }
        used.add(sql);
        return statement;
    }

    private void evictBeyondCapacity() {
        Iterator<PreparedStatement> eldest = statements.values().iterator();
        while (statements.size() > CAPACITY) {
            closeQuietly(eldest.next());
            eldest.remove();
        }
    }

    /**
     * Ends one use of the connection. After a failure the statements it used are closed: an SQLite error can leave a
     * statement in a state that its next use should not inherit, and errors are rare enough to pay a new prepare.
     */
    void endUse(boolean failed) {
        if (failed) {
            for (String sql : used) {
                PreparedStatement statement = statements.remove(sql);
                if (statement != null) {
                    closeQuietly(statement);
                }
            }
        }
        used.clear();
    }

    /** How many statements are kept. */
    int size() {
        return statements.size();
    }

    /** Closes every statement kept (before its connection closes). */
    void close() {
        statements.values().forEach(StatementCache::closeQuietly);
        statements.clear();
        used.clear();
    }

    private static void closeQuietly(PreparedStatement statement) {
        try {
            statement.close();
        } catch (SQLException e) {
            LOG.debug("Closing a cached SQLite statement failed", e);
        }
    }
}
