package dev.forge.memory.inmemory;

import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The data behind one or more {@link InMemoryMemoryProvider}s. Providers opened on the same store (with
 * different project or session ids, say) see each other's shared entries, as they would on a real backend.
 * Lives as long as it is referenced; nothing is written anywhere.
 */
public final class InMemoryStore {

    /** Whose entries: a scope and its owner (project id NUL session id, the project id, or "" for global). */
    record Namespace(Scope scope, String owner) {
    }

    /** One entry's identity across namespaces. */
    record NodeId(Namespace namespace, String key) {
        EntryRef ref() {
            return new EntryRef(key, namespace.scope());
        }
    }

    /** A stored relation. */
    record Edge(NodeId from, String type, NodeId to, Instant createdAt) {
        Relation toRelation() {
            return new Relation(from.ref(), type, to.ref(), createdAt);
        }
    }

    final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<Namespace, TreeMap<String, List<MemoryEntry>>> versions = new HashMap<>();
    private final Map<NodeId, Set<Edge>> outgoing = new HashMap<>();
    private final Map<NodeId, Set<Edge>> incoming = new HashMap<>();

    /** An empty store. */
    public InMemoryStore() {
    }

    // Callers hold the lock: read lock for reads, write lock for writes.

    MemoryEntry current(NodeId id) {
        TreeMap<String, List<MemoryEntry>> space = versions.get(id.namespace());
        List<MemoryEntry> chain = space == null ? null : space.get(id.key());
        return chain == null ? null : chain.get(chain.size() - 1);
    }

    List<MemoryEntry> history(NodeId id) {
        TreeMap<String, List<MemoryEntry>> space = versions.get(id.namespace());
        List<MemoryEntry> chain = space == null ? null : space.get(id.key());
        return chain == null ? List.of() : List.copyOf(chain);
    }

    Iterable<MemoryEntry> currentEntries(Namespace namespace) {
        TreeMap<String, List<MemoryEntry>> space = versions.get(namespace);
        if (space == null) {
            return List.of();
        }
        List<MemoryEntry> entries = new ArrayList<>(space.size());
        space.values().forEach(chain -> entries.add(chain.get(chain.size() - 1)));
        return entries;
    }

    void append(NodeId id, MemoryEntry entry) {
        List<MemoryEntry> chain = versions.computeIfAbsent(id.namespace(), n -> new TreeMap<>())
                .computeIfAbsent(id.key(), k -> new ArrayList<>());
        if (entry.version() == 1) {
            chain.clear();
        }
        chain.add(entry);
    }

    boolean remove(NodeId id) {
        TreeMap<String, List<MemoryEntry>> space = versions.get(id.namespace());
        if (space == null || space.remove(id.key()) == null) {
            return false;
        }
        removeEdgesOf(id);
        return true;
    }

    int clear(Namespace namespace) {
        TreeMap<String, List<MemoryEntry>> space = versions.remove(namespace);
        if (space == null) {
            return 0;
        }
        space.keySet().forEach(key -> removeEdgesOf(new NodeId(namespace, key)));
        return space.size();
    }

    private void removeEdgesOf(NodeId id) {
        for (Edge edge : outgoing.getOrDefault(id, Set.of())) {
            Set<Edge> in = incoming.get(edge.to());
            if (in != null) {
                in.remove(edge);
            }
        }
        for (Edge edge : incoming.getOrDefault(id, Set.of())) {
            Set<Edge> out = outgoing.get(edge.from());
            if (out != null) {
                out.remove(edge);
            }
        }
        outgoing.remove(id);
        incoming.remove(id);
    }

    Edge findEdge(NodeId from, String type, NodeId to) {
        for (Edge edge : outgoing.getOrDefault(from, Set.of())) {
            if (edge.type().equals(type) && edge.to().equals(to)) {
                return edge;
            }
        }
        return null;
    }

    void addEdge(Edge edge) {
        outgoing.computeIfAbsent(edge.from(), k -> new LinkedHashSet<>()).add(edge);
        incoming.computeIfAbsent(edge.to(), k -> new LinkedHashSet<>()).add(edge);
    }

    boolean removeEdge(Edge edge) {
        boolean removed = outgoing.getOrDefault(edge.from(), new LinkedHashSet<>()).remove(edge);
        incoming.getOrDefault(edge.to(), new LinkedHashSet<>()).remove(edge);
        return removed;
    }

    Set<Edge> outgoing(NodeId id) {
        return Collections.unmodifiableSet(outgoing.getOrDefault(id, Set.of()));
    }

    Set<Edge> incoming(NodeId id) {
        return Collections.unmodifiableSet(incoming.getOrDefault(id, Set.of()));
    }
}
