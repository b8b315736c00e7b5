package dev.forge.memory.markdown.internal;

import static dev.forge.memory.markdown.internal.CommitMessages.named;

import dev.forge.memory.ConflictException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.EntryRules;
import dev.forge.memory.GraphPath;
import dev.forge.memory.Keys;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.Traversal;
import dev.forge.memory.support.GraphWalker;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The relations of a markdown store: each is an item of the {@code related} list in the head file of the entry it
 * starts from, naming the target's version id (or, written by hand, its key). Relating rewrites that head in place;
 * reads and walks use a {@link GraphView} built from the index, again after every change of it.
 */
final class RelationFiles {

    private final StoreAccess access;
    private final Shelves shelves;
    private final VersionFiles files;
    private final LayeredDocuments documents;
    private GraphView graph;
    private long graphAt;

    RelationFiles(StoreAccess access, Shelves shelves, VersionFiles files, LayeredDocuments documents) {
        this.access = access;
        this.shelves = shelves;
        this.files = files;
        this.documents = documents;
    }

    /** Relates two live entries; see {@link dev.forge.memory.MemoryGraph#relate}. */
    Relation relate(EntryRef from, EntryRef to, String type) {
        return relate(from, to, type, Optional.empty());
    }

    /** Makes a relation with its time, or gives the existing one that time; see {@link dev.forge.memory.MemoryGraph#restore}. */
    Relation restore(Relation relation) {
        checkRelation(relation.from(), relation.to(), relation.type());
        EntryRules.checkRelationTime(relation);
        return relate(relation.from(), relation.to(), relation.type(), Optional.of(relation.createdAt()));
    }

    private Relation relate(EntryRef from, EntryRef to, String type, Optional<Instant> createdAt) {
        checkRelation(from, to, type);
        Shelf shelf = shelves.shelf(from.scope());
        Shelf targetShelf = shelves.shelf(to.scope());
        Root root = shelves.root(from.scope());
        String what = "relate " + from + " to " + to;
        if (shelves.root(to.scope()) != root && shelves.documented(to.scope(), to.key())) {
            // The target's document may show a version no file holds yet, which a relation by id cannot name.
            access.writing(shelves.projectRoot, what, settled -> "record the document of " + named(to) + " as a version",
                    () -> {
                shelves.project.recheck(to.key());
                shelves.project.requireReadableHead(to.key(), what);
                documents.settle(shelves.projectRoot, shelves.project, to.key());
                return null;
            });
        }
        return access.writing(root, what, relation -> "relate " + named(from) + " -" + type + "-> " + named(to), () -> {
            shelf.recheck(from.key());
            targetShelf.recheck(to.key());
            shelf.requireReadableHead(from.key(), what);
            targetShelf.requireReadableHead(to.key(), what);
            documents.settle(root, shelf, from.key());
            if (shelves.root(to.scope()) == root) {
                documents.settle(root, targetShelf, to.key());
            }
            Chain source = shelf.chain(from.key());
            Chain target = targetShelf.chain(to.key());
            requireLive(source, from, from, to);
            requireLive(target, to, from, to);
            if (targetShelf.showsDocument(to.key())) {
                throw new ConflictException("Cannot relate " + from + " to " + to + ": another tool changed the "
                        + "target's document meanwhile. Nothing was written. Try again.");
            }
            MemoryFile head = source.head().file();
            List<RelatedItem> related = new ArrayList<>(head.related());
            for (int i = 0; i < related.size(); i++) {
                RelatedItem item = related.get(i);
                if (type.equals(GraphView.relationType(item.relationship())) && to.equals(resolve(item, shelf).orElse(null))) {
                    Instant stored = item.createdAt().orElse(head.updatedAt());
                    if (createdAt.isEmpty() || createdAt.get().equals(stored)) {
                        return new Relation(from, type, to, stored);
                    }
                    // A restore gives the item its time and keeps everything else it holds (a hand-written key, extras).
                    related.set(i, new RelatedItem(item.id(), item.key(), item.scope(), item.relationship(), createdAt,
                            item.extra()));
                    files.rewrite(root, shelf, source.head(), Entries.withRelated(head, related));
                    return new Relation(from, type, to, createdAt.get());
                }
            }
            Instant at = createdAt.orElseGet(files::now);
            related.add(new RelatedItem(Optional.of(target.head().id()), Optional.empty(), Optional.empty(), type,
                    Optional.of(at), Map.of()));
            files.rewrite(root, shelf, source.head(), Entries.withRelated(head, related));
            return new Relation(from, type, to, at);
        });
    }

    private static void checkRelation(EntryRef from, EntryRef to, String type) {
        EntryRules.checkRelationType(type);
        Keys.validate(from.key());
        Keys.validate(to.key());
    }

    private static void requireLive(Chain chain, EntryRef end, EntryRef from, EntryRef to) {
        if (chain == null || !chain.live()) {
            throw new EntryNotFoundException("Cannot relate " + from + " to " + to + ": " + end
                    + " does not exist. Store it first.");
        }
    }

    /** Removes a relation; see {@link dev.forge.memory.MemoryGraph#unrelate}. */
    boolean unrelate(EntryRef from, EntryRef to, String type) {
        checkRelation(from, to, type);
        Shelf shelf = shelves.shelf(from.scope());
        Root root = shelves.root(from.scope());
        return access.writing(root, "unrelate " + from + " from " + to,
                removed -> "unrelate " + named(from) + " -" + type + "-> " + named(to), () -> {
            shelf.recheck(from.key());
            shelf.requireReadableHead(from.key(), "unrelate " + from + " from " + to);
            documents.settle(root, shelf, from.key());
            Chain source = shelf.chain(from.key());
            if (source == null || !source.live()) {
                return false;
            }
            MemoryFile head = source.head().file();
            List<RelatedItem> kept = new ArrayList<>();
            for (RelatedItem item : head.related()) {
                boolean match = type.equals(GraphView.relationType(item.relationship()))
                        && to.equals(resolve(item, shelf).orElse(null));
                if (!match) {
                    kept.add(item);
                }
            }
            if (kept.size() == head.related().size()) {
                return false;
            }
            files.rewrite(root, shelf, source.head(), Entries.withRelated(head, kept));
            return true;
        });
    }

    /** The relations of an entry; see {@link dev.forge.memory.MemoryGraph#relations}. */
    List<Relation> relations(EntryRef entry, Direction direction) {
        Objects.requireNonNull(direction, "direction");
        Keys.validate(entry.key());
        return access.locked("read relations", () -> graph().relations(entry, direction));
    }

    /** Walks the relations; see {@link dev.forge.memory.MemoryGraph#traverse}. */
    List<GraphPath> traverse(EntryRef start, Traversal traversal) {
        Objects.requireNonNull(traversal, "traversal");
        Keys.validate(start.key());
        return access.locked("traverse relations", () -> {
            if (Shelves.live(shelves.shelf(start.scope()).readableChain(start.key())).isEmpty()) {
                return List.of();
            }
            GraphView view = graph();
            return GraphWalker.traverse(start, traversal, view::relations);
        });
    }

    /** Where a related item points, if it reaches a live entry this provider can see. */
    private Optional<EntryRef> resolve(RelatedItem item, Shelf from) {
        if (item.id().isPresent()) {
            String id = item.id().get();
            for (Shelf shelf : shelves.byLookup()) {
                IndexedFile file = shelf.holder(id);
                if (file != null) {
                    Chain chain = shelf.readableChain(file.file().key());
                    return chain != null && chain.reaches(file.id())
                            ? Optional.of(new EntryRef(file.file().key(), shelf.scope())) : Optional.empty();
                }
            }
            return Optional.empty();
        }
        if (item.key().isEmpty()) {
            return Optional.empty();
        }
        Scope scope = from.scope();
        if (item.scope().isPresent()) {
            Optional<Scope> named = Entries.scope(item.scope().get());
            if (named.isEmpty()) {
                return Optional.empty();
            }
            scope = named.get();
        }
        String key = item.key().get();
        return Shelves.live(shelves.shelf(scope).readableChain(key)).map(MemoryEntry::ref);
    }

    /** The relations of every live entry as the index holds them now; built again after it changed. Holding the lock. */
    GraphView graph() {
        long changes = shelves.changes();
        if (graph == null || graphAt != changes) {
            graph = build();
            graphAt = changes;
        }
        return graph;
    }

    private GraphView build() {
        Map<EntryRef, List<Relation>> outgoing = new HashMap<>();
        List<StoreProblem> problems = new ArrayList<>();
        for (Shelf shelf : shelves.byLookup()) {
            for (Chain chain : shelf.chains()) {
                if (!chain.live()) {
                    continue;
                }
                IndexedFile head = chain.head();
                EntryRef from = head.entry().ref();
                Map<String, Relation> unique = new LinkedHashMap<>();
                for (RelatedItem item : head.file().related()) {
                    String type = GraphView.relationType(item.relationship());
                    if (type == null) {
                        problems.add(new StoreProblem(head.path().toString(), "relationship '"
                                + item.relationship() + "' is not a relation type (a letter, then letters, digits, "
                                + "'_' or '-'); the relation is ignored"));
                        continue;
                    }
                    Optional<EntryRef> to = resolve(item, shelf);
                    if (to.isEmpty()) {
                        continue; // deleted, purged, or not visible from this project and session
                    }
                    Relation relation = new Relation(from, type, to.get(),
                            item.createdAt().orElse(head.file().updatedAt()));
                    unique.putIfAbsent(type + "\u0000" + to.get().scope() + "\u0000" + to.get().key(), relation);
                }
                if (!unique.isEmpty()) {
                    outgoing.put(from, List.copyOf(unique.values()));
                }
            }
        }
        return new GraphView(outgoing, problems);
    }
}
