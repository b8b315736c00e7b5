package dev.forge.memory.support;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * Binds the parameters of SQL a provider built as text plus a list of values (strings, longs, integers), in order:
 * what the relational providers' query builders share.
 */
public final class SqlParameters {

    private SqlParameters() {
    }

    /**
     * Binds {@code parameters} to {@code statement} from index 1.
     *
     * @throws IllegalArgumentException for a value of another type: a bug of the builder, not of the input
     */
    public static void bind(PreparedStatement statement, List<?> parameters) throws SQLException {
        for (int i = 0; i < parameters.size(); i++) {
            Object parameter = parameters.get(i);
            if (parameter instanceof String text) {
                statement.setString(i + 1, text);
            } else if (parameter instanceof Long number) {
                statement.setLong(i + 1, number);
            } else if (parameter instanceof Integer number) {
                statement.setInt(i + 1, number);
            } else {
                throw new IllegalArgumentException("unexpected parameter type "
                        + (parameter == null ? "null" : parameter.getClass().getName()));
            }
        }
    }
}
