package dev.forge.memory.sqlite.internal;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.EntryRules;
import dev.forge.memory.GraphPath;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.Keys;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.Traversal;
import dev.forge.memory.support.GraphWalker;
import dev.forge.memory.support.SqlEdges;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The relations of a {@link SqliteStore}: edges between live entry rows, so that a deleted entry takes its relations
 * with it. Each call is one SQLite transaction or one read.
 */
public final class SqliteGraph {

    private final SqliteStore store;

    /** The relations of {@code store}'s entries. */
    public SqliteGraph(SqliteStore store) {
        this.store = store;
    }

    private long entryId(Connection connection, EntryRef ref) throws SQLException {
        return entryId(connection, store.namespace(ref.scope()), ref.key());
    }

    /** The id of the live row of {@code key} in {@code namespace}, 0 when there is none. */
    static long entryId(Connection connection, Namespace namespace, String key) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(Statements.ENTRY_ID)) {
            statement.setString(namespace.bind(statement, 1), key);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? rows.getLong(1) : 0;
            }
        }
    }

    static EntryRef checked(EntryRef ref) {
        Objects.requireNonNull(ref, "entry");
        Keys.validate(ref.key());
        return ref;
    }

    /** Relates two live entries; relating them again returns the stored relation. */
    public Relation relate(EntryRef from, EntryRef to, String type) {
        checked(from);
        checked(to);
        EntryRules.checkRelationType(type);
        store.checkOpen();
        return store.database().write("relate " + from + " to " + to,
                connection -> SqlEdges.relate(connection, this::entryId, from, to, type, store.clock().instant()));
    }

    /** Makes {@code relation} with its time, or gives the existing one that time. */
    public Relation restore(Relation relation) {
        checked(relation.from());
        checked(relation.to());
        EntryRules.checkRelationType(relation.type());
        EntryRules.checkRelationTime(relation);
        store.checkOpen();
        return store.database().write("restore the relation " + relation.from() + " to " + relation.to(),
                connection -> SqlEdges.restore(connection, this::entryId, relation));
    }

    /** Removes one relation; false when there was none. */
    public boolean unrelate(EntryRef from, EntryRef to, String type) {
        checked(from);
        checked(to);
        EntryRules.checkRelationType(type);
        store.checkOpen();
        return store.database().write("unrelate " + from + " from " + to,
                connection -> SqlEdges.unrelate(connection, this::entryId, from, to, type));
    }

    /** The visible relations of an entry in {@code direction}, ordered by type, from, to. */
    public List<Relation> relations(EntryRef entry, Direction direction) {
        checked(entry);
        Objects.requireNonNull(direction, "direction");
        store.checkOpen();
        return store.database().read("read the relations of " + entry, connection -> {
            long id = entryId(connection, entry);
            if (id == 0) {
                return List.<Relation>of();
            }
            String sql = switch (direction) {
                case OUTGOING -> Statements.RELATIONS_OUTGOING;
                case INCOMING -> Statements.RELATIONS_INCOMING;
                case BOTH -> Statements.RELATIONS_BOTH;
            };
            List<Object> parameters = new ArrayList<>(List.of(id, store.project(), store.session()));
            if (direction == Direction.BOTH) {
                parameters.addAll(List.of(id, store.project(), store.session()));
            }
            List<Relation> relations = new ArrayList<>();
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                SqliteStore.bind(statement, parameters);
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        relations.add(relation(rows));
                    }
                }
            }
            relations.sort(null);
            return List.copyOf(relations);
        });
    }

    private Relation relation(ResultSet rows) throws SQLException {
        try {
            return new Relation(EntryRef.of(rows.getString("from_key"), Scope.parse(rows.getString("from_scope"))),
                    rows.getString("type"), EntryRef.of(rows.getString("to_key"), Scope.parse(rows.getString("to_scope"))),
                    Instant.ofEpochMilli(rows.getLong("created_at")));
        } catch (InvalidRequestException | NullPointerException e) {
            throw Rows.corrupt(store.path(), rows.getString("from_key"), rows.getString("from_scope"), e);
        }
    }

    /**
     * Walks from {@code start}: the edges it may follow come from one recursive query, and {@link GraphWalker} walks them
     * in memory, so that order and shortest paths follow the contract exactly.
     */
    public List<GraphPath> traverse(EntryRef start, Traversal traversal) {
        checked(start);
        Objects.requireNonNull(traversal, "traversal");
        store.checkOpen();
        List<Relation> edges = store.database().read("traverse from " + start, connection -> {
            long id = entryId(connection, start);
            if (id == 0) {
                return null;
            }
            Statements.Bound sql = Statements.traverse(id, traversal, store.project(), store.session());
            List<Relation> found = new ArrayList<>();
            try (PreparedStatement statement = connection.prepareStatement(sql.sql())) {
                SqliteStore.bind(statement, sql.parameters());
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        found.add(relation(rows));
                    }
                }
            }
            return found;
        });
        if (edges == null) {
            return List.of();
        }
        return GraphWalker.traverse(start, traversal, edges);
    }
}
