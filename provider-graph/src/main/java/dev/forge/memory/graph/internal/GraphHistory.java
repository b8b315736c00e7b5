package dev.forge.memory.graph.internal;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.neo4j.driver.TransactionContext;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.Keys;

/** The history of a {@link GraphStore}'s keys: the {@code :MemoryVersion} chains, and purges that erase them. */
public final class GraphHistory {

    private final GraphStore graph;

    /** The history of {@code graph}'s keys. */
    public GraphHistory(GraphStore graph) {
        this.graph = graph;
    }

    /** Every version of the key, oldest first, tombstones left out. */
    public List<MemoryEntry> versions(String key, Scope scope) {
        Objects.requireNonNull(scope, "scope");
        Keys.validate(key);
        return graph.read("read the history of " + GraphStore.describe(key, scope), tx -> {
            List<MemoryEntry> versions = new ArrayList<>();
            Map<String, Object> params = graph.keyParams(scope, key);
            tx.run("MATCH (v:MemoryVersion " + GraphStore.KEY_PROPS + ") WHERE NOT v.tombstone RETURN v ORDER BY v.version", params)
                    .forEachRemaining(r -> versions.add(graph.entry(r.get("v").asNode())));
            tx.run("MATCH (m:Memory " + GraphStore.KEY_PROPS + ") WHERE m.version > 0 RETURN m", params)
                    .forEachRemaining(r -> versions.add(graph.entry(r.get("m").asNode())));
            return List.copyOf(versions);
        });
    }

    /** The keys of the scope's namespace with versions kept but no live entry (deleted), in key order. */
    public List<String> deletedKeys(Scope scope) {
        Objects.requireNonNull(scope, "scope");
        return graph.read("list the deleted keys of the " + scope.id() + " scope", tx -> tx.run(
                "MATCH (v:MemoryVersion) WHERE v.store = $store AND v.project = $project AND v.session = $session"
                        + " AND v.scope = $scope AND NOT v.tombstone WITH DISTINCT v.key AS key"
                        + " WHERE NOT EXISTS { MATCH (m:Memory {store: $store, project: $project, session: $session,"
                        + " scope: $scope, key: key}) WHERE m.version > 0 } RETURN key ORDER BY key", graph.namespace(scope))
                .list(r -> r.get("key").asString()));
    }

    /** Erases the key: entry, versions, tombstones and relations. */
    public boolean purge(String key, Scope scope) {
        Objects.requireNonNull(scope, "scope");
        Keys.validate(key);
        return graph.write("purge " + GraphStore.describe(key, scope), tx -> {
            Map<String, Object> params = graph.keyParams(scope, key);
            long removed = tx.run("MATCH (m:Memory " + GraphStore.KEY_PROPS + ") WHERE m.version > 0 DETACH DELETE m RETURN count(*) AS n",
                    params).single().get("n").asLong();
            removed += tx.run("MATCH (v:MemoryVersion " + GraphStore.KEY_PROPS + ") DETACH DELETE v RETURN count(*) AS n", params)
                    .single().get("n").asLong();
            return removed > 0;
        });
    }

    /** Erases every key of the scope's namespace; returns how many keys. */
    public int purge(Scope scope) {
        Objects.requireNonNull(scope, "scope");
        return graph.write("purge the " + scope.id() + " scope", tx -> purgeNamespace(graph, tx, scope));
    }

    /** Erases every key of the scope's namespace of {@code graph} in {@code tx}; returns how many keys. */
    static int purgeNamespace(GraphStore graph, TransactionContext tx, Scope scope) {
        Map<String, Object> ns = graph.namespace(scope);
        String where = " WHERE n.store = $store AND n.project = $project AND n.session = $session AND n.scope = $scope";
        List<String> keys = new ArrayList<>(tx.run("MATCH (n:Memory)" + where + " AND n.version > 0 RETURN n.key AS key", ns)
                .list(r -> r.get("key").asString()));
        keys.addAll(tx.run("MATCH (n:MemoryVersion)" + where + " RETURN DISTINCT n.key AS key", ns).list(r -> r.get("key").asString()));
        tx.run("MATCH (n:Memory)" + where + " AND n.version > 0 DETACH DELETE n", ns).consume();
        tx.run("MATCH (n:MemoryVersion)" + where + " DETACH DELETE n", ns).consume();
        return new LinkedHashSet<>(keys).size();
    }
}
