package dev.forge.memory.inmemory;

import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.support.EntryWrite;
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
    // With tombstones: the keys whose last change was a deletion, with the version number the tombstone took.
    private final Map<NodeId, Long> tombstoned = new HashMap<>();
    private final Map<NodeId, Set<Edge>> outgoing = new HashMap<>();
    private final Map<NodeId, Set<Edge>> incoming = new HashMap<>();
    private final boolean tombstones;

    /** An empty store whose deletions erase history. */
    public InMemoryStore() {
        this(false);
    }

    /**
     * An empty store.
     *
     * @param tombstones whether deletions keep the history, as {@link dev.forge.memory.Capability#TOMBSTONES} says
     */
    public InMemoryStore(boolean tombstones) {
        this.tombstones = tombstones;
    }

    /** Whether deletions keep the history. */
    public boolean tombstones() {
        return tombstones;
    }

    // Callers hold the lock: read lock for reads, write lock for writes.

    MemoryEntry current(NodeId id) {
        if (tombstoned.containsKey(id)) {
            return null;
        }
        TreeMap<String, List<MemoryEntry>> space = versions.get(id.namespace());
        List<MemoryEntry> chain = space == null ? null : space.get(id.key());
        return chain == null ? null : chain.get(chain.size() - 1);
    }

    List<MemoryEntry> history(NodeId id) {
        TreeMap<String, List<MemoryEntry>> space = versions.get(id.namespace());
        List<MemoryEntry> chain = space == null ? null : space.get(id.key());
        return chain == null ? List.of() : List.copyOf(chain);
    }

    /** The keys of the namespace whose last change was a deletion and whose versions are kept, in key order. */
    List<String> deletedKeys(Namespace namespace) {
        TreeMap<String, List<MemoryEntry>> space = versions.get(namespace);
        if (space == null) {
            return List.of();
        }
        return space.entrySet().stream().filter(e -> !e.getValue().isEmpty() && tombstoned.containsKey(new NodeId(namespace, e.getKey())))
                .map(Map.Entry::getKey).toList();
    }

    Iterable<MemoryEntry> currentEntries(Namespace namespace) {
        TreeMap<String, List<MemoryEntry>> space = versions.get(namespace);
        if (space == null) {
            return List.of();
        }
        List<MemoryEntry> entries = new ArrayList<>(space.size());
        space.forEach((key, chain) -> {
            if (!tombstoned.containsKey(new NodeId(namespace, key))) {
                entries.add(chain.get(chain.size() - 1));
            }
        });
        return entries;
    }

    /** The current entry of every key of every namespace: what a reindex re-embeds. */
    List<MemoryEntry> allCurrentEntries() {
        List<MemoryEntry> entries = new ArrayList<>();
        for (Namespace namespace : versions.keySet()) {
            currentEntries(namespace).forEach(entries::add);
        }
        return entries;
    }

    /**
     * The highest version the key has taken: its current entry's, or with tombstones its last tombstone's; 0 if
     * neither (a new key, or one deleted without tombstones, starts again at 1).
     */
    long lastVersion(NodeId id) {
        MemoryEntry current = current(id);
        if (current != null) {
            return current.version();
        }
        Long tombstone = tombstones ? tombstoned.get(id) : null;
        return tombstone == null ? 0 : tombstone;
    }

    void append(NodeId id, MemoryEntry entry) {
        List<MemoryEntry> chain = versions.computeIfAbsent(id.namespace(), n -> new TreeMap<>())
                .computeIfAbsent(id.key(), k -> new ArrayList<>());
        if (entry.version() == 1) {
            chain.clear();
        }
        chain.add(entry);
        tombstoned.remove(id);
    }

    /** Replaces the key's chain (and any tombstone) with {@code chain}; its relations stay. */
    void replace(NodeId id, List<MemoryEntry> chain) {
        versions.computeIfAbsent(id.namespace(), n -> new TreeMap<>()).put(id.key(), new ArrayList<>(chain));
        tombstoned.remove(id);
    }

    /** Deletes the key's entry: erases it with its history, or with tombstones ends its life. */
    boolean remove(NodeId id) {
        MemoryEntry current = current(id);
        if (current == null) {
            return false;
        }
        if (tombstones) {
            tombstoned.put(id, EntryWrite.nextVersion(id.ref(), current.version()));
        } else {
            versions.get(id.namespace()).remove(id.key());
        }
        removeEdgesOf(id);
        return true;
    }

    /** Erases the key and everything kept of it; whether anything was. */
    boolean purge(NodeId id) {
        TreeMap<String, List<MemoryEntry>> space = versions.get(id.namespace());
        tombstoned.remove(id);
        if (space == null || space.remove(id.key()) == null) {
            return false;
        }
        removeEdgesOf(id);
        return true;
    }

    /** Deletes every current entry of the namespace; the number deleted. */
    int clear(Namespace namespace) {
        TreeMap<String, List<MemoryEntry>> space = versions.get(namespace);
        if (space == null) {
            return 0;
        }
        int removed = 0;
        for (String key : List.copyOf(space.keySet())) {
            if (remove(new NodeId(namespace, key))) {
                removed++;
            }
        }
        return removed;
    }

    /** Erases every key of the namespace, deleted ones included; the number erased. */
    int purge(Namespace namespace) {
        TreeMap<String, List<MemoryEntry>> space = versions.remove(namespace);
        if (space == null) {
            return 0;
        }
        for (String key : space.keySet()) {
            NodeId id = new NodeId(namespace, key);
            tombstoned.remove(id);
            removeEdgesOf(id);
        }
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
