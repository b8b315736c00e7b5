package dev.forge.memory.support;

import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.Relation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Relating and unrelating two entries in a relational store whose relations are rows of an {@code edges} table
 * ({@code from_entry}, {@code type}, {@code to_entry}, {@code created_at} in epoch milliseconds, unique on the first
 * three) between the ids of live entry rows: what the sqlite and postgres providers share. Runs inside the caller's
 * transaction; the caller locks as its backend needs.
 */
public final class SqlEdges {

    /** The id of the live row of an entry the provider can see, 0 when there is none. */
    @FunctionalInterface
    public interface RowIds {
        /** Looks {@code ref} up on {@code connection}. */
        long of(Connection connection, EntryRef ref) throws SQLException;
    }

    private static final String INSERT = "INSERT INTO edges (from_entry, type, to_entry, created_at) VALUES (?, ?, ?, ?)"
            + " ON CONFLICT DO NOTHING";
    private static final String UPSERT = "INSERT INTO edges (from_entry, type, to_entry, created_at) VALUES (?, ?, ?, ?)"
            + " ON CONFLICT (from_entry, type, to_entry) DO UPDATE SET created_at = excluded.created_at";
    private static final String CREATED_AT = "SELECT created_at FROM edges WHERE from_entry = ? AND type = ? AND to_entry = ?";
    private static final String DELETE = "DELETE FROM edges WHERE from_entry = ? AND type = ? AND to_entry = ?";

    private SqlEdges() {
    }

    /**
     * Relates two live entries at {@code now}; relating them again returns the stored relation, with its first time.
     *
     * @throws EntryNotFoundException if either end has no live row the provider can see
     */
    public static Relation relate(Connection connection, RowIds ids, EntryRef from, EntryRef to, String type, Instant now)
            throws SQLException {
        return write(connection, ids, from, to, type, now, INSERT);
    }

    /**
     * Makes {@code relation} as it was, at its {@code createdAt}; an existing one takes that time (what
     * {@code MemoryGraph.restore} does for an import).
     *
     * @throws EntryNotFoundException if either end has no live row the provider can see
     */
    public static Relation restore(Connection connection, RowIds ids, Relation relation) throws SQLException {
        return write(connection, ids, relation.from(), relation.to(), relation.type(), relation.createdAt(), UPSERT);
    }

    private static Relation write(Connection connection, RowIds ids, EntryRef from, EntryRef to, String type,
            Instant time, String sql) throws SQLException {
        long source = ids.of(connection, from);
        long target = ids.of(connection, to);
        if (source == 0 || target == 0) {
            throw new EntryNotFoundException("Cannot relate " + from + " to " + to + ": there is no entry "
                    + (source == 0 ? from : to) + " that this provider can see. Store it first.");
        }
        try (PreparedStatement insert = connection.prepareStatement(sql)) {
            bind(insert, source, type, target);
            insert.setLong(4, time.toEpochMilli());
            insert.executeUpdate();
        }
        try (PreparedStatement select = connection.prepareStatement(CREATED_AT)) {
            bind(select, source, type, target);
            try (ResultSet rows = select.executeQuery()) {
                rows.next();
                return new Relation(from, type, to, Instant.ofEpochMilli(rows.getLong(1)));
            }
        }
    }

    /** Removes one relation; false when there was none, or an end has no live row. */
    public static boolean unrelate(Connection connection, RowIds ids, EntryRef from, EntryRef to, String type)
            throws SQLException {
        long source = ids.of(connection, from);
        long target = ids.of(connection, to);
        if (source == 0 || target == 0) {
            return false;
        }
        try (PreparedStatement delete = connection.prepareStatement(DELETE)) {
            bind(delete, source, type, target);
            return delete.executeUpdate() > 0;
        }
    }

    private static void bind(PreparedStatement statement, long source, String type, long target) throws SQLException {
        statement.setLong(1, source);
        statement.setString(2, type);
        statement.setLong(3, target);
    }
}
