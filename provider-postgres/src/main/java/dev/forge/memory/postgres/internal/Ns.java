package dev.forge.memory.postgres.internal;

import dev.forge.memory.Scope;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * Where the rows of one scope live for one provider: the {@code project}, {@code session} and {@code scope} columns.
 * GLOBAL rows have project and session {@code ''}, PROJECT rows session {@code ''}; project and session ids are never
 * empty, so the three kinds never mix, and every project on one schema shares the GLOBAL rows.
 *
 * <p>Writers serialise on advisory locks: a writer of keys takes its namespaces' locks shared, then the keys' locks,
 * each set in ascending order so that two writers never wait for each other in a circle; a writer of a whole namespace
 * (clear, end of session, purge) takes the namespace's lock exclusively.
 *
 * @param project the project column
 * @param session the session column
 * @param scope   the scope
 */
record Ns(String project, String session, Scope scope) {

    /** The namespace of {@code scope} for a provider of {@code project} and {@code session}. */
    static Ns of(Scope scope, String project, String session) {
        return switch (scope) {
            case SESSION -> new Ns(project, session, scope);
            case PROJECT -> new Ns(project, "", scope);
            case GLOBAL -> new Ns("", "", scope);
        };
    }

    /** The condition selecting this namespace's rows of table alias {@code a}: three parameters. */
    static String condition(String a) {
        return a + ".project = ? AND " + a + ".session = ? AND " + a + ".scope = ?";
    }

    /** Binds project, session and scope at {@code index} and the two after it; returns the next free index. */
    int bind(PreparedStatement statement, int index) throws SQLException {
        statement.setString(index, project);
        statement.setString(index + 1, session);
        statement.setString(index + 2, scope.id());
        return index + 3;
    }

    /** Adds project, session and scope to a parameter list, in the order of {@link #condition}. */
    void addTo(List<Object> parameters) {
        parameters.add(project);
        parameters.add(session);
        parameters.add(scope.id());
    }

    /** The advisory lock id of this namespace in {@code schema}. */
    long lockId(String schema) {
        return lockId("namespace", schema, project, session, scope.id());
    }

    /** The advisory lock id of {@code key} of this namespace in {@code schema}. */
    long keyLockId(String schema, String key) {
        return lockId("key", schema, project, session, scope.id(), key);
    }

    private static long lockId(String... parts) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (String part : parts) {
                digest.update(part.getBytes(StandardCharsets.UTF_8));
                digest.update((byte) 0);
            }
            return ByteBuffer.wrap(digest.digest()).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /**
     * Takes the namespace locks shared, then the key locks, each in ascending order, until the transaction ends: one
     * statement, one round trip.
     */
    static void lockKeys(Connection connection, Collection<Long> namespaces, Collection<Long> keys) throws SQLException {
        List<Long> ids = new ArrayList<>(new TreeSet<>(namespaces));
        int shared = ids.size();
        ids.addAll(new TreeSet<>(keys));
        try (PreparedStatement statement = connection.prepareStatement("SELECT count(CASE WHEN i <= ?"
                + " THEN pg_advisory_xact_lock_shared(id) ELSE pg_advisory_xact_lock(id) END)"
                + " FROM (SELECT id, i FROM unnest(?::bigint[]) WITH ORDINALITY AS t(id, i) ORDER BY i) locks")) {
            statement.setInt(1, shared);
            statement.setArray(2, connection.createArrayOf("bigint", ids.toArray()));
            statement.executeQuery().close();
        }
    }

    /** Takes the namespace lock exclusively until the transaction ends. */
    void lockWhole(Connection connection, String schema) throws SQLException {
        lock(connection, "SELECT pg_advisory_xact_lock(?)", List.of(lockId(schema)));
    }

    /** Takes the namespace lock shared and the key's lock until the transaction ends. */
    void lockKey(Connection connection, String schema, String key) throws SQLException {
        lockKeys(connection, List.of(lockId(schema)), List.of(keyLockId(schema, key)));
    }

    private static void lock(Connection connection, String sql, Collection<Long> ids) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (long id : ids) {
                statement.setLong(1, id);
                statement.execute();
            }
        }
    }
}
