package dev.forge.memory.graph.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import org.neo4j.driver.Record;
import org.neo4j.driver.types.Node;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.GraphPath;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.Traversal;
import dev.forge.memory.EntryRules;
import dev.forge.memory.support.GraphWalker;
import dev.forge.memory.Keys;

/** The relations of a {@link GraphStore}: Neo4j relationships between the entries' {@code :Memory} nodes. */
public final class GraphRelations {

    private final GraphStore graph;
    private final String store;
    private final String project;
    private final String session;

    /** The relations between {@code graph}'s entries. */
    public GraphRelations(GraphStore graph) {
        this.graph = graph;
        this.store = graph.storeName();
        this.project = graph.project();
        this.session = graph.session();
    }

    private static EntryRef checked(EntryRef ref) {
        Objects.requireNonNull(ref, "entry");
        Keys.validate(ref.key());
        return ref;
    }

    private Map<String, Object> endParams(String prefix, EntryRef ref, Map<String, Object> into) {
        Map<String, Object> ns = graph.keyParams(ref.scope(), ref.key());
        for (String name : List.of("project", "session", "scope", "key")) {
            into.put(prefix + name, ns.get(name));
        }
        into.put("store", store);
        return into;
    }

    private static String end(String prefix) {
        return "{store: $store, project: $" + prefix + "project, session: $" + prefix + "session, scope: $" + prefix
                + "scope, key: $" + prefix + "key}";
    }

    /** Relates two live entries; again returns the stored relation. The type is checked, then used as a dynamic type. */
    public Relation relate(EntryRef from, EntryRef to, String type) {
        return relate(from, to, type, null);
    }

    /** Makes {@code relation} with its time, or gives the existing one that time. */
    public Relation restore(Relation relation) {
        EntryRules.checkRelationTime(relation);
        return relate(relation.from(), relation.to(), relation.type(), relation.createdAt());
    }

    /** Relates at {@code at}, or at the clock's time when null (an existing relation then keeps its time). */
    private Relation relate(EntryRef from, EntryRef to, String type, Instant at) {
        checked(from);
        checked(to);
        EntryRules.checkRelationType(type);
        return graph.write("relate " + from + " to " + to, tx -> {
            Map<String, Object> params = endParams("to", to, endParams("from", from, new HashMap<>()));
            params.put("type", type);
            params.put("now", (at != null ? at : graph.clock().instant()).toEpochMilli());
            List<Record> ends = tx.run("OPTIONAL MATCH (a:Memory " + end("from") + ") WHERE a.version > 0"
                    + " OPTIONAL MATCH (b:Memory " + end("to") + ") WHERE b.version > 0"
                    + " RETURN a IS NOT NULL AS a, b IS NOT NULL AS b", params).list();
            boolean a = ends.get(0).get("a").asBoolean();
            boolean b = ends.get(0).get("b").asBoolean();
            if (!a || !b) {
                throw new EntryNotFoundException("Cannot relate " + from + " to " + to + ": there is no entry "
                        + (!a ? from : to) + " that this provider can see. Store it first.");
            }
            long createdAt = tx.run("MATCH (a:Memory " + end("from") + ") MATCH (b:Memory " + end("to") + ")"
                    + " SET a.lock = true REMOVE a.lock SET b.lock = true REMOVE b.lock"
                    + " MERGE (a)-[r:$($type)]->(b) ON CREATE SET r.createdAt = $now"
                    + (at != null ? " ON MATCH SET r.createdAt = $now" : "") + " RETURN r.createdAt AS createdAt", params)
                    .single().get("createdAt").asLong();
            return new Relation(from, type, to, Instant.ofEpochMilli(createdAt));
        });
    }

    /** Removes one relation. */
    public boolean unrelate(EntryRef from, EntryRef to, String type) {
        checked(from);
        checked(to);
        EntryRules.checkRelationType(type);
        return graph.write("unrelate " + from + " from " + to, tx -> {
            Map<String, Object> params = endParams("to", to, endParams("from", from, new HashMap<>()));
            params.put("type", type);
            return tx.run("MATCH (a:Memory " + end("from") + ")-[r:$($type)]->(b:Memory " + end("to") + ")"
                    + " WHERE a.version > 0 AND b.version > 0 DELETE r RETURN count(r) AS n", params)
                    .single().get("n").asLong() > 0;
        });
    }

    private static String arrow(Direction direction, String inner) {
        return switch (direction) {
            case OUTGOING -> "-[" + inner + "]->";
            case INCOMING -> "<-[" + inner + "]-";
            case BOTH -> "-[" + inner + "]-";
        };
    }

    private static final String RELATION_ROW = " RETURN startNode(r) AS f, type(r) AS type, endNode(r) AS t, r.createdAt AS createdAt";

    private Relation relation(Record row) {
        Node f = row.get("f").asNode();
        Node t = row.get("t").asNode();
        return new Relation(EntryRef.of(f.get("key").asString(), Scope.parse(f.get("scope").asString())), row.get("type").asString(),
                EntryRef.of(t.get("key").asString(), Scope.parse(t.get("scope").asString())),
                Instant.ofEpochMilli(row.get("createdAt").asLong(0)));
    }

    /** The visible relations of an entry, ordered by type, from, to. */
    public List<Relation> relations(EntryRef entry, Direction direction) {
        checked(entry);
        Objects.requireNonNull(direction, "direction");
        return graph.read("read the relations of " + entry, tx -> {
            Map<String, Object> params = endParams("a", entry, graph.visibleParams());
            Set<Relation> found = new TreeSet<>();
            tx.run("MATCH (a:Memory " + end("a") + ")" + arrow(direction, "r") + "(b:Memory)"
                    + " WHERE a.version > 0 AND b.store = $store AND b.version > 0 AND " + String.format(GraphStore.VISIBLE, "b")
                    + RELATION_ROW, params).forEachRemaining(r -> found.add(relation(r)));
            return List.copyOf(found);
        });
    }

    /**
     * Walks from {@code start}: the relations it may follow come from one variable-length match bounded by the depth
     * (a validated integer), and {@link GraphWalker} orders the walk exactly as the contract says.
     */
    public List<GraphPath> traverse(EntryRef start, Traversal traversal) {
        checked(start);
        Objects.requireNonNull(traversal, "traversal");
        List<Relation> edges = graph.read("traverse from " + start, tx -> {
            Map<String, Object> params = endParams("a", start, graph.visibleParams());
            params.put("types", List.copyOf(traversal.types()));
            List<Record> exists = tx.run("MATCH (a:Memory " + end("a") + ") WHERE a.version > 0 RETURN a.key", params).list();
            if (exists.isEmpty()) {
                return null;
            }
            String hop = arrow(traversal.direction(), "rels*1.." + traversal.maxDepth());
            List<Relation> found = new ArrayList<>();
            tx.run("MATCH p = (a:Memory " + end("a") + ")" + hop + "(b:Memory)"
                    + " WHERE a.version > 0 AND all(n IN nodes(p) WHERE n:Memory AND n.store = $store AND n.version > 0"
                    + " AND " + String.format(GraphStore.VISIBLE, "n") + ")"
                    + " AND (size($types) = 0 OR all(x IN rels WHERE type(x) IN $types))"
                    + " UNWIND rels AS r WITH DISTINCT r" + RELATION_ROW, params).forEachRemaining(r -> found.add(relation(r)));
            return found;
        });
        if (edges == null) {
            return List.of();
        }
        return GraphWalker.traverse(start, traversal, edges);
    }
}
