package dev.forge.memory.postgres.internal;

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
import dev.forge.memory.support.SqlParameters;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The relations of a {@link PgStore}: edges between live entry rows (of any scope the provider sees, GLOBAL included),
 * so that a deleted entry takes its relations with it. Traversal collects the edges within reach in one recursive
 * query, and {@link GraphWalker} walks them so that order and shortest paths follow the contract exactly.
 */
public final class PgGraph {

    private final PgStore store;

    /** The relations of {@code store}'s entries. */
    public PgGraph(PgStore store) {
        this.store = store;
    }

    private long entryId(Connection connection, EntryRef ref) throws SQLException {
        Ns ns = store.ns(ref.scope());
        try (PreparedStatement statement = connection.prepareStatement("SELECT e.id FROM entries e WHERE "
                + Ns.condition("e") + " AND e.key = ?")) {
            statement.setString(ns.bind(statement, 1), ref.key());
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? rows.getLong(1) : 0;
            }
        }
    }

    private static void check(EntryRef ref) {
        Objects.requireNonNull(ref, "entry");
        Keys.validate(ref.key());
    }

    /** Relates two live entries; relating them again returns the stored relation. */
    public Relation relate(EntryRef from, EntryRef to, String type) {
        check(from);
        check(to);
        EntryRules.checkRelationType(type);
        store.checkOpen();
        return store.database().write("relate " + from + " to " + to, connection -> {
            lockEnds(connection, from, to);
            return SqlEdges.relate(connection, this::entryId, from, to, type, store.clock().instant());
        });
    }

    /** Makes {@code relation} with its time, or gives the existing one that time (an import's relations). */
    public Relation restore(Relation relation) {
        check(relation.from());
        check(relation.to());
        EntryRules.checkRelationType(relation.type());
        EntryRules.checkRelationTime(relation);
        store.checkOpen();
        return store.database().write("restore the relation " + relation.from() + " to " + relation.to(), connection -> {
            lockEnds(connection, relation.from(), relation.to());
            return SqlEdges.restore(connection, this::entryId, relation);
        });
    }

    /** The ends' key locks keep a concurrent delete from removing an end between the look-up and the insert. */
    private void lockEnds(Connection connection, EntryRef from, EntryRef to) throws SQLException {
        String schema = store.database().schema();
        Ns.lockKeys(connection, List.of(store.ns(from.scope()).lockId(schema), store.ns(to.scope()).lockId(schema)),
                List.of(store.ns(from.scope()).keyLockId(schema, from.key()),
                        store.ns(to.scope()).keyLockId(schema, to.key())));
    }

    /** Removes one relation; false when there was none. */
    public boolean unrelate(EntryRef from, EntryRef to, String type) {
        check(from);
        check(to);
        EntryRules.checkRelationType(type);
        store.checkOpen();
        return store.database().write("unrelate " + from + " from " + to,
                connection -> SqlEdges.unrelate(connection, this::entryId, from, to, type));
    }

    /** The visible relations of an entry in {@code direction}, ordered by type, from, to. */
    public List<Relation> relations(EntryRef entry, Direction direction) {
        check(entry);
        Objects.requireNonNull(direction, "direction");
        store.checkOpen();
        return store.database().read("read the relations of " + entry, connection -> {
            long id = entryId(connection, entry);
            if (id == 0) {
                return List.<Relation>of();
            }
            List<String> selects = new ArrayList<>();
            List<Object> parameters = new ArrayList<>();
            if (direction != Direction.INCOMING) {
                selects.add("SELECT " + PgSql.RELATION_COLUMNS + " FROM edges ed " + PgSql.RELATION_JOINS
                        + " WHERE ed.from_entry = ? AND " + PgSql.visible("t"));
                parameters.addAll(List.of(id, store.project(), store.session()));
            }
            if (direction != Direction.OUTGOING) {
                selects.add("SELECT " + PgSql.RELATION_COLUMNS + " FROM edges ed " + PgSql.RELATION_JOINS
                        + " WHERE ed.to_entry = ? AND " + PgSql.visible("f"));
                parameters.addAll(List.of(id, store.project(), store.session()));
            }
            return List.copyOf(relations(connection, new PgSql.Bound(String.join(" UNION ", selects), parameters)));
        });
    }

    private List<Relation> relations(Connection connection, PgSql.Bound sql) throws SQLException {
        List<Relation> relations = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(sql.sql())) {
            SqlParameters.bind(statement, sql.parameters());
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    relations.add(relation(rows));
                }
            }
        }
        relations.sort(null);
        return relations;
    }

    private Relation relation(ResultSet rows) throws SQLException {
        try {
            return new Relation(EntryRef.of(rows.getString("from_key"), Scope.parse(rows.getString("from_scope"))),
                    rows.getString("type"), EntryRef.of(rows.getString("to_key"), Scope.parse(rows.getString("to_scope"))),
                    Instant.ofEpochMilli(rows.getLong("created_at")));
        } catch (InvalidRequestException | NullPointerException e) {
            throw PgRows.corrupt(store.database().describe(), rows.getString("from_key"), rows.getString("from_scope"), e);
        }
    }

    /** Walks from {@code start} over the edges within reach, collected by one recursive query. */
    public List<GraphPath> traverse(EntryRef start, Traversal traversal) {
        check(start);
        Objects.requireNonNull(traversal, "traversal");
        store.checkOpen();
        List<Relation> edges = store.database().read("traverse from " + start, connection -> {
            long id = entryId(connection, start);
            return id == 0 ? null : relations(connection, PgSql.traverse(id, traversal, store.project(), store.session()));
        });
        return edges == null ? List.of() : GraphWalker.traverse(start, traversal, edges);
    }
}
