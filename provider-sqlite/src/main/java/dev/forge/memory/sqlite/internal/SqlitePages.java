package dev.forge.memory.sqlite.internal;

import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.support.KeyPages;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link KeyPages} of one {@link SqliteStore}: each page one statement on a read connection, found by the
 * {@code entries_by_key} and {@code versions_by_key} indexes from the key it starts after, so an export reads the
 * file in about as many statements as pages. A live row that cannot be read is skipped and logged, as {@code query}
 * does, and named in its page's {@link Page#unreadable()}; a version that cannot be read fails the page, as
 * {@code history().versions} does.
 */
public final class SqlitePages implements KeyPages {

    private static final Logger LOG = LoggerFactory.getLogger(SqlitePages.class);

    /** Where an earlier version's columns start in the rows of {@link Statements#LIVE_PAGE}. */
    private static final int EARLIER = 9;
    private static final int EARLIER_VERSION = EARLIER + 7;

    private final SqliteStore store;

    /** The pages of {@code store}'s namespaces. */
    public SqlitePages(SqliteStore store) {
        this.store = store;
    }

    @Override
    public Page<Chain> live(Scope scope, String after, int limit) {
        Namespace namespace = start(scope, after, limit);
        return store.database().read("read a page of the " + scope.id() + " scope", connection -> {
            PreparedStatement statement = store.database().prepared(connection, Statements.LIVE_PAGE);
            bindPage(statement, namespace.bind(statement, 1), after, limit);
            List<Chain> chains = new ArrayList<>();
            List<Unreadable> unreadable = new ArrayList<>();
            String last = null;
            int keys = 0;
            List<MemoryEntry> versions = new ArrayList<>();
            Optional<MemoryEntry> current = Optional.empty();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    String key = rows.getString(1);
                    if (!key.equals(last)) {
                        current.ifPresent(entry -> chains.add(chain(versions, entry)));
                        versions.clear();
                        last = key;
                        keys++;
                        current = readable(rows, key, unreadable);
                    }
                    rows.getLong(EARLIER_VERSION);
                    if (current.isPresent() && !rows.wasNull()) {
                        versions.add(Rows.entry(rows, EARLIER, store.path()));
                    }
                }
            }
            current.ifPresent(entry -> chains.add(chain(versions, entry)));
            return new Page<>(chains, keys == limit ? Optional.of(last) : Optional.empty(), unreadable);
        });
    }

    /** The entry of the row at column 1, or empty with the key and its problem added to {@code unreadable}. */
    private Optional<MemoryEntry> readable(ResultSet rows, String key, List<Unreadable> unreadable) throws SQLException {
        try {
            return Optional.of(Rows.entry(rows, 1, store.path()));
        } catch (CorruptEntryException e) {
            LOG.warn("Skipping an unreadable row of {}: {}", store.path(), e.getMessage());
            unreadable.add(new Unreadable(key, e.getMessage()));
            return Optional.empty();
        }
    }

    @Override
    public Page<Chain> deleted(Scope scope, String after, int limit) {
        Namespace namespace = start(scope, after, limit);
        return store.database().read("read a page of the deleted keys of the " + scope.id() + " scope", connection -> {
            PreparedStatement statement = store.database().prepared(connection, Statements.DELETED_PAGE);
            bindPage(statement, namespace.bind(statement, namespace.bind(statement, 1)), after, limit);
            List<Chain> chains = new ArrayList<>();
            List<MemoryEntry> versions = new ArrayList<>();
            String last = null;
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    String key = rows.getString(1);
                    if (!key.equals(last) && last != null) {
                        chains.add(new Chain(versions, true));
                        versions.clear();
                    }
                    last = key;
                    versions.add(Rows.entry(rows, 1, store.path()));
                }
            }
            if (last != null) {
                chains.add(new Chain(versions, true));
            }
            return new Page<>(chains, chains.size() == limit ? Optional.of(last) : Optional.empty());
        });
    }

    @Override
    public Page<String> relating(Scope scope, String after, int limit) {
        Namespace namespace = start(scope, after, limit);
        return store.database().read("read the keys with relations of the " + scope.id() + " scope", connection -> {
            PreparedStatement statement = store.database().prepared(connection, Statements.RELATING_PAGE);
            bindPage(statement, namespace.bind(statement, 1), after, limit);
            List<String> keys = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    keys.add(rows.getString(1));
                }
            }
            return new Page<>(keys, keys.size() == limit ? Optional.of(keys.get(limit - 1)) : Optional.empty());
        });
    }

    private Namespace start(Scope scope, String after, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("a page holds at least 1 key, was " + limit);
        }
        Objects.requireNonNull(after, "after");
        Namespace namespace = store.namespace(scope);
        store.checkOpen();
        return namespace;
    }

    /** Binds the key a page starts after at {@code index}, and the page size after it. */
    private static void bindPage(PreparedStatement statement, int index, String after, int limit) throws SQLException {
        statement.setString(index, after);
        statement.setInt(index + 1, limit);
    }

    private static Chain chain(List<MemoryEntry> earlier, MemoryEntry current) {
        List<MemoryEntry> versions = new ArrayList<>(earlier.size() + 1);
        versions.addAll(earlier);
        versions.add(current);
        return new Chain(versions, false);
    }
}
