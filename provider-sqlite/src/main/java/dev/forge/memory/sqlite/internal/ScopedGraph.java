package dev.forge.memory.sqlite.internal;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.EntryRules;
import dev.forge.memory.GraphPath;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.Traversal;
import dev.forge.memory.support.GraphWalker;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The relations of a provider's {@link ScopedStores}. Two entries of one file are related by that file's
 * {@link SqliteGraph} (an edge between two rows). A PROJECT or SESSION entry and a GLOBAL entry of another file are
 * related by two halves, one in each file's {@code links} table, each tied to its own entry (deleted with it) and naming
 * the other end by namespace and key: the relation exists while both halves do. A half whose partner is gone (its entry
 * was deleted, or a crash fell between the two writes) is never reported, and a new relation of the same ends writes
 * both halves again.
 */
public final class ScopedGraph {

    private final ScopedStores stores;
    private final SqliteGraph project;
    private final SqliteGraph global;

    /** The relations of {@code stores}' entries. */
    public ScopedGraph(ScopedStores stores) {
        this.stores = stores;
        this.project = new SqliteGraph(stores.project());
        this.global = stores.split() ? new SqliteGraph(stores.global()) : project;
    }

    private SqliteGraph graphOf(Scope scope) {
        return scope == Scope.GLOBAL ? global : project;
    }

    private boolean acrossFiles(EntryRef from, EntryRef to) {
        return stores.of(from.scope()) != stores.of(to.scope());
    }

    /** Relates two live entries; relating them again returns the stored relation. */
    public Relation relate(EntryRef from, EntryRef to, String type) {
        if (!acrossFiles(SqliteGraph.checked(from), SqliteGraph.checked(to))) {
            return graphOf(from.scope()).relate(from, to, type);
        }
        return relateAcross(from, to, type, Optional.empty());
    }

    /** Makes {@code relation} with its time, or gives the existing one that time. */
    public Relation restore(Relation relation) {
        EntryRef from = relation.from();
        EntryRef to = relation.to();
        if (!acrossFiles(SqliteGraph.checked(from), SqliteGraph.checked(to))) {
            return graphOf(from.scope()).restore(relation);
        }
        EntryRules.checkRelationTime(relation);
        return relateAcross(from, to, relation.type(), Optional.of(relation.createdAt()));
    }

    private Relation relateAcross(EntryRef from, EntryRef to, String type, Optional<Instant> createdAt) {
        EntryRules.checkRelationType(type);
        stores.checkOpen();
        Half out = new Half(from, true, type, to);
        Half in = new Half(to, false, type, from);
        Optional<Instant> stored = out.createdAt();
        Optional<Instant> other = in.createdAt();
        // Both halves there: a relate is a no-op; a restore is one only if both have its time already.
        if (stored.isPresent() && other.isPresent()
                && (createdAt.isEmpty() || createdAt.equals(stored) && createdAt.equals(other))) {
            return new Relation(from, type, to, stored.get());
        }
        Instant now = createdAt.orElseGet(() -> stores.project().clock().instant());
        // The GLOBAL end's half first: until the project's half is written too, the relation does not exist.
        Half first = from.scope() == Scope.GLOBAL ? out : in;
        Half second = first == out ? in : out;
        first.write(now, from, to);
        second.write(now, from, to);
        return new Relation(from, type, to, now);
    }

    /** Removes one relation; false when there was none. */
    public boolean unrelate(EntryRef from, EntryRef to, String type) {
        if (!acrossFiles(SqliteGraph.checked(from), SqliteGraph.checked(to))) {
            return graphOf(from.scope()).unrelate(from, to, type);
        }
        EntryRules.checkRelationType(type);
        stores.checkOpen();
        boolean outgoing = new Half(from, true, type, to).delete();
        boolean incoming = new Half(to, false, type, from).delete();
        return outgoing && incoming;
    }

    /** The visible relations of an entry in {@code direction}, ordered by type, from, to. */
    public List<Relation> relations(EntryRef entry, Direction direction) {
        SqliteGraph.checked(entry);
        Objects.requireNonNull(direction, "direction");
        List<Relation> relations = new ArrayList<>();
        for (Relation relation : graphOf(entry.scope()).relations(entry, direction)) {
            // A GLOBAL row left in a project file (one that could not move to the global store) is not this
            // provider's GLOBAL entry: relations to it are not reported.
            if (!stores.split() || !acrossFiles(relation.from(), relation.to())) {
                relations.add(relation);
            }
        }
        if (stores.split()) {
            for (Half half : halvesOf(entry)) {
                if ((half.outgoing ? direction != Direction.INCOMING : direction != Direction.OUTGOING)
                        && half.partner().createdAt().isPresent()) {
                    relations.add(half.relation());
                }
            }
        }
        relations.sort(null);
        return List.copyOf(relations);
    }

    /** Walks from {@code start} over {@link #relations}, following the contract's order and shortest paths. */
    public List<GraphPath> traverse(EntryRef start, Traversal traversal) {
        SqliteGraph.checked(start);
        Objects.requireNonNull(traversal, "traversal");
        if (!stores.split()) {
            return project.traverse(start, traversal);
        }
        stores.checkOpen();
        return GraphWalker.traverse(start, traversal, this::relations);
    }

    /** Erases the halves in the other file that name {@code key} of {@code scope}: part of purging the key. */
    public void forgetKey(String key, Scope scope) {
        forget(scope, Statements.DELETE_LINKS_TO_KEY, key);
    }

    /** Erases the halves in the other file that name entries of {@code scope}'s namespace. */
    public void forgetScope(Scope scope) {
        forget(scope, Statements.DELETE_LINKS_TO_NAMESPACE, null);
    }

    private void forget(Scope scope, String sql, String key) {
        if (!stores.split()) {
            return;
        }
        Namespace namespace = stores.of(scope).namespace(scope);
        SqliteStore other = scope == Scope.GLOBAL ? stores.project() : stores.global();
        other.database().write("forget the relations of the " + scope.id() + " scope", connection -> {
            try (PreparedStatement delete = connection.prepareStatement(sql)) {
                int next = namespace.bind(delete, 1);
                if (key != null) {
                    delete.setString(next, key);
                }
                return delete.executeUpdate();
            }
        });
    }

    private List<Half> halvesOf(EntryRef entry) {
        SqliteStore store = stores.of(entry.scope());
        return store.database().read("read the relations of " + entry, connection -> {
            long id = SqliteGraph.entryId(connection, store.namespace(entry.scope()), entry.key());
            List<Half> halves = new ArrayList<>();
            if (id == 0) {
                return halves;
            }
            try (PreparedStatement statement = connection.prepareStatement(Statements.LINKS_OF)) {
                SqliteStore.bind(statement, List.of(id, store.project(), store.session()));
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        Scope otherScope = Scope.parse(rows.getString("other_scope"));
                        if (otherScope == entry.scope() || stores.of(otherScope) == store) {
                            continue; // not a relation across files of this provider
                        }
                        Half half = new Half(entry, rows.getInt("outgoing") == 1, rows.getString("type"),
                                EntryRef.of(rows.getString("other_key"), otherScope));
                        half.stored = Instant.ofEpochMilli(rows.getLong("created_at"));
                        halves.add(half);
                    }
                }
            }
            return halves;
        });
    }

    /** One file's half of a relation across files: held by {@code own}, naming {@code other}. */
    private final class Half {
        private final EntryRef own;
        private final boolean outgoing;
        private final String type;
        private final EntryRef other;
        private Instant stored;

        Half(EntryRef own, boolean outgoing, String type, EntryRef other) {
            this.own = own;
            this.outgoing = outgoing;
            this.type = type;
            this.other = other;
        }

        private SqliteStore store() {
            return stores.of(own.scope());
        }

        Half partner() {
            return new Half(other, !outgoing, type, own);
        }

        Relation relation() {
            return outgoing ? new Relation(own, type, other, stored) : new Relation(other, type, own, stored);
        }

        private int bind(PreparedStatement statement, long id) throws SQLException {
            statement.setLong(1, id);
            statement.setInt(2, outgoing ? 1 : 0);
            statement.setString(3, type);
            int next = stores.of(other.scope()).namespace(other.scope()).bind(statement, 4);
            statement.setString(next, other.key());
            return next + 1;
        }

        /** When this half was made, if it exists and its entry is live. */
        Optional<Instant> createdAt() {
            SqliteStore store = store();
            return store.database().read("read a relation of " + own, connection -> {
                long id = SqliteGraph.entryId(connection, store.namespace(own.scope()), own.key());
                if (id == 0) {
                    return Optional.<Instant>empty();
                }
                try (PreparedStatement statement = connection.prepareStatement(Statements.LINK_CREATED_AT)) {
                    bind(statement, id);
                    try (ResultSet rows = statement.executeQuery()) {
                        return rows.next() ? Optional.of(Instant.ofEpochMilli(rows.getLong(1))) : Optional.<Instant>empty();
                    }
                }
            });
        }

        void write(Instant now, EntryRef from, EntryRef to) {
            SqliteStore store = store();
            store.database().write("relate " + from + " to " + to, connection -> {
                long id = SqliteGraph.entryId(connection, store.namespace(own.scope()), own.key());
                if (id == 0) {
                    throw new EntryNotFoundException("Cannot relate " + from + " to " + to + ": there is no entry " + own
                            + " that this provider can see. Store it first.");
                }
                writeHalf(connection, id, outgoing, type, stores.of(other.scope()).namespace(other.scope()), other.key(),
                        now.toEpochMilli());
                return null;
            });
        }

        boolean delete() {
            SqliteStore store = store();
            return store.database().write("unrelate " + own + " and " + other, connection -> {
                long id = SqliteGraph.entryId(connection, store.namespace(own.scope()), own.key());
                if (id == 0) {
                    return false;
                }
                try (PreparedStatement delete = connection.prepareStatement(Statements.DELETE_LINK)) {
                    bind(delete, id);
                    return delete.executeUpdate() > 0;
                }
            });
        }
    }

    /** Writes one half, or its new time, on {@code connection}, in a transaction of the caller's. */
    static void writeHalf(Connection connection, long entryId, boolean outgoing, String type, Namespace other,
                          String otherKey, long createdAt) throws SQLException {
        try (PreparedStatement upsert = connection.prepareStatement(Statements.UPSERT_LINK)) {
            upsert.setLong(1, entryId);
            upsert.setInt(2, outgoing ? 1 : 0);
            upsert.setString(3, type);
            int next = other.bind(upsert, 4);
            upsert.setString(next++, otherKey);
            upsert.setLong(next, createdAt);
            upsert.executeUpdate();
        }
    }
}
