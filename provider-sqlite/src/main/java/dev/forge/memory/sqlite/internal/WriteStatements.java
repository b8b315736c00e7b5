package dev.forge.memory.sqlite.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * The prepared statements of one write transaction, each prepared on first use and closed with the transaction: a
 * batch of many keys (a bulk restore) compiles each statement once instead of once per key.
 */
final class WriteStatements implements AutoCloseable {

    private final Connection connection;
    private final Map<String, PreparedStatement> prepared = new HashMap<>();

    WriteStatements(Connection connection) {
        this.connection = connection;
    }

    /** The statement for {@code sql}, prepared once; its parameters are set anew by every use. */
    PreparedStatement get(String sql) throws SQLException {
        PreparedStatement statement = prepared.get(sql);
        if (statement == null) {
            statement = connection.prepareStatement(sql);
            prepared.put(sql, statement);
        }
        return statement;
    }

    @Override
    public void close() throws SQLException {
        SQLException first = null;
        for (PreparedStatement statement : prepared.values()) {
            try {
                statement.close();
            } catch (SQLException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        prepared.clear();
        if (first != null) {
            throw first;
        }
    }
}
