package dev.forge.memory.knowledge.internal;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryRules;
import dev.forge.memory.Keys;
import dev.forge.memory.EntryRef;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.knowledge.Entity;
import dev.forge.memory.knowledge.EntityRelation;
import dev.forge.memory.knowledge.PageRequest;
import dev.forge.memory.transfer.McpMemoryFormat;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/** The entities of one scope of a provider: paged scans, their relations, and writes (in a transaction where there are). */
public final class EntityStore {

    // Entities are read from the provider this many at a time while a scan looks for a page's matches.
    private static final int BATCH = 500;

    private final MemoryProvider provider;
    private final Scope scope;

    /** The entities of {@code scope} in {@code provider}. */
    public EntityStore(MemoryProvider provider, Scope scope) {
        this.provider = provider;
        this.scope = scope;
    }

    /** Reads and writes entities by key, inside one transaction or straight on the provider. */
    public interface View {
        /** The entry under {@code key}, if any. */
        Optional<MemoryEntry> get(String key);

        /** Writes the entity under {@code key}. */
        void put(String key, String name, String entityType, List<String> observations);
    }

    /** A page of a scan: the entities found and where the next page starts. */
    public record Scan(List<Entity> entities, Optional<String> nextCursor) {
    }

    /** The entity an entry holds ({@link McpMemoryFormat#isEntity}). */
    public static Entity entity(MemoryEntry entry) {
        return new Entity(McpMemoryFormat.name(entry), McpMemoryFormat.entityType(entry),
                McpMemoryFormat.observations(entry.value()));
    }

    /**
     * Checks that the entity could be written as {@code key} by this provider (key, value and metadata within its
     * limits), so that a call can refuse before writing anything.
     *
     * @throws dev.forge.memory.MemoryException the one {@code set} would throw
     */
    public void check(String key, String name, String entityType, List<String> observations) {
        Keys.validate(key);
        EntryRules.checkValue(McpMemoryFormat.value(observations), key, provider.limits());
        EntryRules.checkMetadataSize(EntryRules.normalizeMetadata(McpMemoryFormat.metadata(name, entityType), key), key,
                provider.limits());
    }

    /** Runs {@code work} in one transaction where the provider has them, else straight on it. */
    public <T> T update(Function<View, T> work) {
        if (provider.transactions().isPresent()) {
            return provider.transactions().get().inTransaction(transaction -> work.apply(
                    new Writes(key -> transaction.get(key, scope), (key, value, metadata) ->
                            transaction.set(key, value, scope, List.of(), metadata))));
        }
        return work.apply(new Writes(key -> provider.get(key, scope), (key, value, metadata) ->
                provider.set(key, value, scope, List.of(), metadata)));
    }

    /** Where a {@link View} writes an entity's entry: a provider, or a transaction. */
    @FunctionalInterface
    private interface Setter {
        void set(String key, String value, Map<String, Object> metadata);
    }

    private record Writes(Function<String, Optional<MemoryEntry>> reader, Setter setter) implements View {
        @Override
        public Optional<MemoryEntry> get(String key) {
            return reader.apply(key);
        }

        @Override
        public void put(String key, String name, String entityType, List<String> observations) {
            setter.set(key, McpMemoryFormat.value(observations), McpMemoryFormat.metadata(name, entityType));
        }
    }

    /**
     * The entities matching {@code filter}, in key order, from the page's cursor on, at most its limit. The cursor
     * counts the entries scanned so far; the next cursor is given when the scan stopped before the last entity (the
     * next page may then be empty).
     */
    public Scan scan(PageRequest page, Predicate<Entity> filter) {
        long offset = page.cursor().map(EntityStore::offset).orElse(0L);
        List<Entity> found = new ArrayList<>();
        while (true) {
            List<MemoryEntry> batch = provider.query(Query.builder().pattern("entity*").scopes(scope)
                    .order(Query.Order.KEY).offset(Math.toIntExact(Math.min(offset, Integer.MAX_VALUE))).limit(BATCH).build());
            for (int i = 0; i < batch.size(); i++) {
                MemoryEntry entry = batch.get(i);
                offset++;
                if (McpMemoryFormat.isEntity(entry)) {
                    Entity entity = entity(entry);
                    if (filter.test(entity)) {
                        found.add(entity);
                        if (found.size() == page.limit()) {
                            boolean more = i + 1 < batch.size() || batch.size() == BATCH;
                            return new Scan(found, more ? Optional.of(Long.toString(offset)) : Optional.empty());
                        }
                    }
                }
            }
            if (batch.size() < BATCH) {
                return new Scan(found, Optional.empty());
            }
        }
    }

    private static long offset(String cursor) {
        try {
            long offset = Long.parseLong(cursor);
            if (offset >= 0 && offset <= Integer.MAX_VALUE) {
                return offset;
            }
        } catch (NumberFormatException e) {
            // Reported below, as every cursor this class did not make.
        }
        throw new InvalidRequestException("The cursor '" + cursor + "' is not one a page gave; pass the nextCursor of the"
                + " previous page, or none for the first page.");
    }

    /**
     * The relations of {@code entities} in {@code direction} whose both ends are entities of this scope, each once, in
     * the entities' order then the graph's; empty on a provider without a graph.
     */
    public List<EntityRelation> relations(List<Entity> entities, Direction direction) {
        Optional<MemoryGraph> graph = provider.graph();
        if (graph.isEmpty() || entities.isEmpty()) {
            return List.of();
        }
        Map<String, Optional<String>> names = new HashMap<>();
        for (Entity entity : entities) {
            names.put(McpMemoryFormat.key(entity.name()), Optional.of(entity.name()));
        }
        Set<Relation> seen = new LinkedHashSet<>();
        List<EntityRelation> relations = new ArrayList<>();
        for (Entity entity : entities) {
            for (Relation relation : graph.get().relations(EntryRef.of(McpMemoryFormat.key(entity.name()), scope), direction)) {
                if (relation.from().scope() != scope || relation.to().scope() != scope || !seen.add(relation)) {
                    continue;
                }
                Optional<String> from = names.computeIfAbsent(relation.from().key(), this::nameAt);
                Optional<String> to = names.computeIfAbsent(relation.to().key(), this::nameAt);
                if (from.isPresent() && to.isPresent()) {
                    relations.add(new EntityRelation(from.get(), to.get(), McpMemoryFormat.officialRelationType(relation.type())));
                }
            }
        }
        return relations;
    }

    /** The name of the entity under {@code key}; empty for a memory that is not an entity. */
    private Optional<String> nameAt(String key) {
        return provider.get(key, scope).filter(McpMemoryFormat::isEntity).map(McpMemoryFormat::name);
    }
}
