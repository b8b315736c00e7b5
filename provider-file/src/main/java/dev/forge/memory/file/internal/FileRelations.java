package dev.forge.memory.file.internal;

import dev.forge.memory.support.files.AtomicFiles;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.EntryRules;
import dev.forge.memory.GraphPath;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.Traversal;
import dev.forge.memory.file.internal.Journal.Line;
import dev.forge.memory.file.internal.RelationFile.Edge;
import dev.forge.memory.file.internal.RelationFile.Node;
import dev.forge.memory.support.GraphWalker;
import dev.forge.memory.Keys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relations of a {@link FileStore}: the edges of {@code relations.json} as this provider last read them, indexed
 * both ways, and the graph calls. Guarded by the store's index lock; changed under its exclusive lock.
 */
public final class FileRelations {

    private static final Logger LOG = LoggerFactory.getLogger(FileRelations.class);

    private final FileStore store;
    private List<Edge> edges = List.of();
    private Map<Node, List<Edge>> outgoing = Map.of();
    private Map<Node, List<Edge>> incoming = Map.of();
    private String relationsProblem;
    private FileStamp relationsStamp;

    FileRelations(FileStore store) {
        this.store = store;
    }

    /** Every relation, as last read or written. */
    List<Edge> edges() {
        return edges;
    }

    /** What is wrong with the relations file, or null. */
    String relationsProblem() {
        return relationsProblem;
    }

    void loadRelations() throws IOException {
        FileStamp stamp = FileStamp.of(store.relationFile.file());
        List<Edge> loaded;
        try {
            loaded = store.relationFile.load();
            relationsProblem = null;
        } catch (EntryCodec.MalformedException e) {
            if (relationsProblem == null) {
                LOG.warn("The relations file {} is damaged ({}); it was left in place and graph reads fail until it is repaired "
                        + "or a new relation is made, which moves it aside first.", store.relationFile.file(), e.getMessage());
            }
            relationsProblem = e.getMessage();
            loaded = List.of();
        }
        setEdges(loaded);
        relationsStamp = stamp;
    }

    /** Reloads the relations if the file is not the one this store.index read (one {@code stat}); before rewriting it. */
    void syncRelations() throws IOException {
        if (!FileStamp.of(store.relationFile.file()).equals(relationsStamp)) {
            loadRelations();
        }
    }

    private void setEdges(List<Edge> all) {
        Map<Node, List<Edge>> out = new HashMap<>();
        Map<Node, List<Edge>> in = new HashMap<>();
        for (Edge edge : all) {
            out.computeIfAbsent(edge.from(), n -> new ArrayList<>()).add(edge);
            in.computeIfAbsent(edge.to(), n -> new ArrayList<>()).add(edge);
        }
        edges = List.copyOf(all);
        outgoing = out;
        incoming = in;
    }

    void saveRelations(List<Edge> all, FileChanges changes) throws IOException {
        store.relationFile.save(all, store.fsync, changes);
        setEdges(all);
        relationsProblem = null;
        relationsStamp = FileStamp.of(store.relationFile.file());
    }

    /** The relations that do not touch any of {@code nodes}. */
    List<Edge> without(Set<Node> nodes) {
        List<Edge> kept = new ArrayList<>(edges.size());
        for (Edge edge : edges) {
            if (!nodes.contains(edge.from()) && !nodes.contains(edge.to())) {
                kept.add(edge);
            }
        }
        return kept;
    }

    private Node node(EntryRef ref) {
        Keys.validate(ref.key());
        return new Node(store.namespace(ref.scope()), ref.key());
    }

    private boolean exists(Node node) {
        if (store.globalApart() && node.namespace().scope() == Scope.GLOBAL) {
            return store.ownerForReading(Scope.GLOBAL).map(shared -> shared.lookup(node.key(), Scope.GLOBAL).entry() != null)
                    .orElse(false);
        }
        FileStore.NamespaceIndex space = store.index.get(node.namespace());
        if (space == null) {
            return false;
        }
        return store.lookup(node.namespace(), Keys.toFileName(node.key())).entry() != null;
    }

    /** The checks of a relate or unrelate call, in the order the provider has always made them. */
    private void checkRelationCall(EntryRef from, EntryRef to, String type) {
        store.checkOpen();
        EntryRules.checkRelationType(type);
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
    }

    /** Relates two existing entries; an existing relation of the same type is returned as it is. */
    public Relation relate(EntryRef from, EntryRef to, String type) {
        return relate(from, to, type, null);
    }

    /** Makes {@code relation} with its time, or gives the existing one that time. */
    public Relation restore(Relation relation) {
        Objects.requireNonNull(relation, "relation");
        checkRelationCall(relation.from(), relation.to(), relation.type());
        EntryRules.checkRelationTime(relation);
        return relate(relation.from(), relation.to(), relation.type(), relation.createdAt());
    }

    /** Relates at {@code createdAt}, or at the clock's time when null (an existing relation then stays as it is). */
    private Relation relate(EntryRef from, EntryRef to, String type, Instant createdAt) {
        checkRelationCall(from, to, type);
        Node source = node(from);
        Node target = node(to);
        return store.write("relate " + from + " to " + to, changes -> {
            reloadOwn(source);
            reloadOwn(target);
            requireExists(source);
            requireExists(target);
            syncRelations();
            Edge existing = null;
            for (Edge edge : outgoing.getOrDefault(source, List.of())) {
                if (edge.type().equals(type) && edge.to().equals(target)) {
                    existing = edge;
                }
            }
            if (existing != null && (createdAt == null || existing.createdAt().equals(createdAt))) {
                return existing.toRelation();
            }
            store.announce(changes, List.of(Line.relations()));
            Path file = store.relationFile.file();
            if (relationsProblem != null && Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                Path aside = AtomicFiles.moveAside(file, store.clock.instant());
                changes.onUndo(() -> Files.move(aside, file));
                LOG.warn("Moved the damaged relations file aside to {} before writing a new one", aside);
            }
            Edge edge = new Edge(source, type, target, createdAt != null ? createdAt : store.clock.instant());
            List<Edge> all = new ArrayList<>(edges);
            all.remove(existing);
            all.add(edge);
            saveRelations(all, changes);
            return edge.toRelation();
        });
    }

    /** Re-reads a node's entry file when this store holds it (the shared store catches up by itself when asked). */
    private void reloadOwn(Node node) throws IOException {
        if (store.owner(node.namespace().scope()) == store) {
            store.fileIndex.reload(node.namespace(), Keys.toFileName(node.key()));
        }
    }

    /**
     * Drops the relations one of whose GLOBAL ends no longer exists in the shared global store (deleted or cleared,
     * from any project), so that a GLOBAL key stored again starts without them. Nothing to do when GLOBAL lives here.
     */
    public void pruneGlobal() {
        if (!store.globalApart()) {
            return;
        }
        store.write("drop the relations of removed GLOBAL entries", changes -> {
            pruneGlobal(changes);
            return null;
        });
    }

    void pruneGlobal(FileChanges changes) throws IOException {
        syncRelations();
        if (relationsProblem != null) {
            return;
        }
        List<Edge> kept = new ArrayList<>(edges.size());
        for (Edge edge : edges) {
            if (existsIfGlobal(edge.from()) && existsIfGlobal(edge.to())) {
                kept.add(edge);
            }
        }
        if (kept.size() != edges.size()) {
            store.announce(changes, List.of(Line.relations()));
            saveRelations(kept, changes);
        }
    }

    private boolean existsIfGlobal(Node node) {
        return node.namespace().scope() != Scope.GLOBAL || exists(node);
    }

    private void requireExists(Node node) {
        if (!exists(node)) {
            throw new EntryNotFoundException("Cannot relate " + node.ref() + ": no such entry. Store it first.");
        }
    }

    /**
     * Removes one relation; false if there was none.
     *
     * @throws CorruptEntryException if the relations file is damaged, as graph reads do
     */
    public boolean unrelate(EntryRef from, EntryRef to, String type) {
        checkRelationCall(from, to, type);
        Node source = node(from);
        Node target = node(to);
        return store.write("unrelate " + from + " from " + to, changes -> {
            syncRelations();
            checkRelations();
            List<Edge> kept = new ArrayList<>(edges);
            if (!kept.removeIf(e -> e.from().equals(source) && e.to().equals(target) && e.type().equals(type))) {
                return false;
            }
            store.announce(changes, List.of(Line.relations()));
            saveRelations(kept, changes);
            return true;
        });
    }

    /** The visible relations of an entry, sorted. */
    public List<Relation> relations(EntryRef entry, Direction direction) {
        store.checkOpen();
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(direction, "direction");
        Node node = node(entry);
        return store.readWhole(List.copyOf(store.index.keySet()), () -> {
            checkRelations();
            return relationsOf(node, direction);
        });
    }

    /** A breadth-first walk from {@code start}. */
    public List<GraphPath> traverse(EntryRef start, Traversal traversal) {
        store.checkOpen();
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(traversal, "traversal");
        Node node = node(start);
        return store.readWhole(List.copyOf(store.index.keySet()), () -> {
            checkRelations();
            if (!exists(node)) {
                return List.of();
            }
            return GraphWalker.traverse(start, traversal, (ref, direction) -> relationsOf(node(ref), direction));
        });
    }

    private void checkRelations() {
        if (relationsProblem != null) {
            throw new CorruptEntryException("The relations file " + store.relationFile.file() + " cannot be read: " + relationsProblem
                    + ". The file was left in place; repair or remove it (making a new relation moves it aside first).");
        }
    }

    private List<Relation> relationsOf(Node node, Direction direction) {
        if (!exists(node)) {
            return List.of();
        }
        List<Relation> found = new ArrayList<>();
        if (direction != Direction.INCOMING) {
            for (Edge edge : outgoing.getOrDefault(node, List.of())) {
                if (exists(edge.to())) {
                    found.add(edge.toRelation());
                }
            }
        }
        if (direction != Direction.OUTGOING) {
            for (Edge edge : incoming.getOrDefault(node, List.of())) {
                boolean selfLoopSeen = direction == Direction.BOTH && edge.from().equals(edge.to());
                if (exists(edge.from()) && !selfLoopSeen) {
                    found.add(edge.toRelation());
                }
            }
        }
        found.sort(null);
        return List.copyOf(found);
    }
}
