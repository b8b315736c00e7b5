package dev.forge.memory.knowledge;

import dev.forge.memory.ConflictException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.Keys;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.knowledge.internal.EntityStore;
import dev.forge.memory.transfer.McpMemoryFormat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The official MCP memory server's knowledge graph as a view of any provider: one method per tool of that server
 * ({@code create_entities} is {@link #createEntities}, and so on), with its inputs and results. Entities are entries
 * and relations are relations of the graph facet, mapped as {@link McpMemoryFormat} says, all in one scope.
 *
 * <p>What the official server does, kept here: creating an entity whose name exists, or a relation that exists, is
 * skipped and left out of the answer; adding observations to a missing entity fails the whole call, and only
 * observations the entity lacks are added; deleting what does not exist is ignored; deleting an entity deletes its
 * relations; {@link #searchNodes} matches a case-insensitive substring of name, type or any observation; search and
 * {@link #openNodes} answer the relations with at least one end among the entities found. Where this differs:
 * <ul>
 *   <li>a relation needs both entities: one to a missing entity is refused ({@link EntryNotFoundException}), where
 *       the official server stores it dangling; a provider without a graph refuses relations
 *       ({@link dev.forge.memory.UnsupportedCapabilityException});</li>
 *   <li>the same name twice in one {@code createEntities} call (or the same relation twice in one
 *       {@code createRelations}) is created once, where the official server stores two;</li>
 *   <li>reads are paged ({@link PageRequest}, at most {@value PageRequest#MAX_LIMIT} entities a page), entities
 *       in key order rather than the order they were made;</li>
 *   <li>a call fails as a whole before writing anything when one of its items is invalid; on a provider with
 *       transactions its entity writes are also atomic.</li>
 * </ul>
 *
 * <p>Safe for use by many threads when the provider is. The scope defaults to {@link Scope#GLOBAL}: the official
 * server keeps one graph per user, shared by every project and conversation, which is seed 004's global scope
 * ("cross-project learnings", permanent), not its project scope.
 */
public final class KnowledgeGraph {

    private final MemoryProvider provider;
    private final Scope scope;
    private final EntityStore store;

    /** The graph of {@code provider}'s global scope. */
    public KnowledgeGraph(MemoryProvider provider) {
        this(provider, Scope.GLOBAL);
    }

    /** The graph of {@code provider}'s {@code scope}. */
    public KnowledgeGraph(MemoryProvider provider, Scope scope) {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.scope = Objects.requireNonNull(scope, "scope");
        this.store = new EntityStore(provider, scope);
    }

    /** The scope this graph lives in. */
    public Scope scope() {
        return scope;
    }

    /**
     * {@code create_entities}: creates the entities whose names are new.
     *
     * @return the entities created, in input order; those whose name existed (or came earlier in the list) are not
     * @throws ConflictException       if an entity's key holds a memory that is not an entity
     * @throws InvalidRequestException if a text holds an unpaired surrogate; nothing was created
     */
    public List<Entity> createEntities(List<Entity> entities) {
        Map<String, Entity> byKey = new LinkedHashMap<>();
        for (Entity entity : entities) {
            String key = McpMemoryFormat.key(entity.name());
            store.check(key, entity.name(), entity.entityType(), entity.observations());
            byKey.putIfAbsent(key, entity);
        }
        return store.update(view -> {
            Map<String, Entity> created = new LinkedHashMap<>();
            for (Map.Entry<String, Entity> item : byKey.entrySet()) {
                Optional<MemoryEntry> existing = view.get(item.getKey());
                if (existing.isPresent()) {
                    requireEntity(existing.get(), item.getValue().name());
                } else {
                    created.put(item.getKey(), item.getValue());
                }
            }
            created.forEach((key, entity) -> view.put(key, entity.name(), entity.entityType(), entity.observations()));
            return List.copyOf(created.values());
        });
    }

    /**
     * {@code create_relations}: creates the relations that do not exist yet.
     *
     * @return the relations created, in input order
     * @throws EntryNotFoundException                          if an end is not an entity; nothing was created
     * @throws InvalidRequestException                         if a relation type is too long to map
     * @throws dev.forge.memory.UnsupportedCapabilityException if the provider has no graph
     */
    public List<EntityRelation> createRelations(List<EntityRelation> relations) {
        MemoryGraph graph = provider.requireGraph();
        Map<Link, EntityRelation> wanted = new LinkedHashMap<>();
        for (EntityRelation relation : relations) {
            String type = McpMemoryFormat.relationType(relation.relationType());
            wanted.putIfAbsent(new Link(existingEntity(relation.from()), type, existingEntity(relation.to())), relation);
        }
        List<EntityRelation> created = new ArrayList<>();
        for (Map.Entry<Link, EntityRelation> item : wanted.entrySet()) {
            Link link = item.getKey();
            boolean exists = graph.relations(link.from(), Direction.OUTGOING).stream()
                    .anyMatch(r -> r.to().equals(link.to()) && r.type().equals(link.type()));
            if (!exists) {
                graph.relate(link.from(), link.to(), link.type());
                created.add(item.getValue());
            }
        }
        return created;
    }

    /**
     * {@code add_observations}: adds to each entity the observations it does not have yet, in order.
     *
     * @return per item, what was added
     * @throws EntryNotFoundException if an entity does not exist; nothing was added
     */
    public List<AddedObservations> addObservations(List<ObservationAddition> additions) {
        return store.update(view -> {
            // Every item is worked out and checked before the first write, so that a call fails as a whole.
            Map<String, MemoryEntry> entries = new LinkedHashMap<>();
            Map<String, List<String>> changed = new LinkedHashMap<>();
            List<AddedObservations> results = new ArrayList<>();
            for (ObservationAddition addition : additions) {
                String key = McpMemoryFormat.key(addition.entityName());
                MemoryEntry entry = entries.computeIfAbsent(key, k -> view.get(k)
                        .filter(e -> isNamed(e, addition.entityName())).orElseThrow(() -> notFound(addition.entityName())));
                List<String> observations = changed.computeIfAbsent(key, k -> new ArrayList<>(McpMemoryFormat.observations(entry.value())));
                List<String> added = addition.contents().stream().filter(o -> !observations.contains(o)).toList();
                observations.addAll(added);
                results.add(new AddedObservations(addition.entityName(), added));
            }
            for (Map.Entry<String, List<String>> item : changed.entrySet()) {
                MemoryEntry entry = entries.get(item.getKey());
                store.check(item.getKey(), McpMemoryFormat.name(entry), McpMemoryFormat.entityType(entry), item.getValue());
            }
            for (Map.Entry<String, List<String>> item : changed.entrySet()) {
                MemoryEntry entry = entries.get(item.getKey());
                if (!item.getValue().equals(McpMemoryFormat.observations(entry.value()))) {
                    view.put(item.getKey(), McpMemoryFormat.name(entry), McpMemoryFormat.entityType(entry), item.getValue());
                }
            }
            return results;
        });
    }

    /** {@code delete_entities}: deletes the named entities and their relations; missing names are ignored. */
    public Confirmation deleteEntities(List<String> entityNames) {
        for (String name : new LinkedHashSet<>(entityNames)) {
            keyOf(name).ifPresent(key -> provider.get(key, scope).filter(entry -> isNamed(entry, name))
                    .ifPresent(entry -> provider.delete(key, scope)));
        }
        return new Confirmation(true, "Entities deleted successfully");
    }

    /**
     * {@code delete_observations}: removes every occurrence of each observation from its entity; missing entities and
     * observations are ignored.
     */
    public Confirmation deleteObservations(List<ObservationDeletion> deletions) {
        store.update(view -> {
            for (ObservationDeletion deletion : deletions) {
                Optional<String> key = keyOf(deletion.entityName());
                Optional<MemoryEntry> entry = key.flatMap(view::get).filter(e -> isNamed(e, deletion.entityName()));
                if (entry.isEmpty()) {
                    continue;
                }
                List<String> observations = McpMemoryFormat.observations(entry.get().value());
                List<String> kept = observations.stream().filter(o -> !deletion.observations().contains(o)).toList();
                if (kept.size() != observations.size()) {
                    view.put(key.get(), deletion.entityName(), McpMemoryFormat.entityType(entry.get()), kept);
                }
            }
            return null;
        });
        return new Confirmation(true, "Observations deleted successfully");
    }

    /** {@code delete_relations}: removes the relations; those that do not exist are ignored. */
    public Confirmation deleteRelations(List<EntityRelation> relations) {
        Optional<MemoryGraph> graph = provider.graph();
        if (graph.isPresent()) {
            for (EntityRelation relation : relations) {
                Optional<String> from = keyOf(relation.from());
                Optional<String> to = keyOf(relation.to());
                Optional<String> type = mappedType(relation.relationType());
                if (from.isPresent() && to.isPresent() && type.isPresent()) {
                    graph.get().unrelate(EntryRef.of(from.get(), scope), EntryRef.of(to.get(), scope), type.get());
                }
            }
        }
        return new Confirmation(true, "Relations deleted successfully");
    }

    /** {@code read_graph} with no arguments: the first page of {@link PageRequest#DEFAULT_LIMIT} entities. */
    public GraphPage readGraph() {
        return readGraph(PageRequest.first());
    }

    /**
     * {@code read_graph}, paged: entities in key order, and the relations that start at them (so that every relation
     * comes once over all pages).
     */
    public GraphPage readGraph(PageRequest page) {
        EntityStore.Scan scan = store.scan(page, entry -> true);
        return new GraphPage(scan.entities(), store.relations(scan.entities(), Direction.OUTGOING), scan.nextCursor());
    }

    /** {@code search_nodes} with no page: the first page of {@link PageRequest#DEFAULT_LIMIT} entities. */
    public GraphPage searchNodes(String query) {
        return searchNodes(query, PageRequest.first());
    }

    /**
     * {@code search_nodes}, paged: the entities whose name, type or an observation contains {@code query}, ignoring
     * case; and the relations with at least one end among them.
     */
    public GraphPage searchNodes(String query, PageRequest page) {
        String wanted = query.toLowerCase(Locale.ROOT);
        Predicate<Entity> matches = entity -> contains(entity.name(), wanted) || contains(entity.entityType(), wanted)
                || entity.observations().stream().anyMatch(o -> contains(o, wanted));
        EntityStore.Scan scan = store.scan(page, matches);
        return new GraphPage(scan.entities(), store.relations(scan.entities(), Direction.BOTH), scan.nextCursor());
    }

    /**
     * {@code open_nodes}: the named entities that exist, in key order, and the relations with at least one end among
     * them.
     *
     * @throws InvalidRequestException if more than {@value PageRequest#MAX_LIMIT} names are asked for
     */
    public GraphPage openNodes(List<String> names) {
        Set<String> distinct = new LinkedHashSet<>(names);
        if (distinct.size() > PageRequest.MAX_LIMIT) {
            throw new InvalidRequestException("open_nodes takes at most " + PageRequest.MAX_LIMIT + " names, not "
                    + distinct.size() + "; open them in several calls.");
        }
        List<MemoryEntry> found = new ArrayList<>();
        for (String name : distinct) {
            keyOf(name).flatMap(key -> provider.get(key, scope)).filter(entry -> isNamed(entry, name)).ifPresent(found::add);
        }
        found.sort(java.util.Comparator.comparing(MemoryEntry::key, Keys::compareKeys));
        List<Entity> entities = found.stream().map(EntityStore::entity).toList();
        return new GraphPage(entities, store.relations(entities, Direction.BOTH), Optional.empty());
    }

    /** A relation to make, before it has a creation time. */
    private record Link(EntryRef from, String type, EntryRef to) {
    }

    private static boolean contains(String text, String lowerCaseQuery) {
        return text.toLowerCase(Locale.ROOT).contains(lowerCaseQuery);
    }

    /** The entry of an existing entity, or {@link EntryNotFoundException} in the official server's words. */
    private EntryRef existingEntity(String name) {
        String key = McpMemoryFormat.key(name);
        provider.get(key, scope).filter(entry -> isNamed(entry, name)).orElseThrow(() -> notFound(name));
        return EntryRef.of(key, scope);
    }

    private EntryNotFoundException notFound(String name) {
        return new EntryNotFoundException("Entity with name " + name + " not found in the " + scope.id()
                + " scope of provider '" + provider.name() + "'; create it first with create_entities.");
    }

    private void requireEntity(MemoryEntry entry, String name) {
        if (!isNamed(entry, name)) {
            throw new ConflictException("The key '" + Keys.abbreviate(entry.key()) + "' (" + scope.id() + ") of entity '"
                    + Keys.abbreviate(name) + "' holds a memory that is not that entity; move or delete that memory first.");
        }
    }

    private static boolean isNamed(MemoryEntry entry, String name) {
        return McpMemoryFormat.isEntity(entry) && McpMemoryFormat.name(entry).equals(name);
    }

    /** The key of a name; empty for a name no entity can have (an unpaired surrogate), which deletes ignore. */
    private static Optional<String> keyOf(String name) {
        try {
            return Optional.of(McpMemoryFormat.key(name));
        } catch (InvalidRequestException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> mappedType(String relationType) {
        try {
            return Optional.of(McpMemoryFormat.relationType(relationType));
        } catch (InvalidRequestException e) {
            return Optional.empty();
        }
    }
}
