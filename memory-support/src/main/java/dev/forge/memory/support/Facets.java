package dev.forge.memory.support;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.EntryRules;
import dev.forge.memory.FieldIndexing;
import dev.forge.memory.GraphPath;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.Traversal;
import dev.forge.memory.VersionHistory;
import java.util.List;
import java.util.Objects;

/**
 * Facets made of a store's methods, for a provider whose store already does the work (and its checks): {@code
 * Facets.graph(store::relate, store::unrelate, store::relations, store::traverse)} instead of a class that forwards
 * each call. The facet objects hide the store: a caller cannot cast them back to it.
 */
public final class Facets {

    private Facets() {
    }

    /** {@link MemoryGraph#relate}. */
    @FunctionalInterface
    public interface Relate {
        /** See {@link MemoryGraph#relate}. */
        Relation relate(EntryRef from, EntryRef to, String type);
    }

    /** {@link MemoryGraph#unrelate}. */
    @FunctionalInterface
    public interface Unrelate {
        /** See {@link MemoryGraph#unrelate}. */
        boolean unrelate(EntryRef from, EntryRef to, String type);
    }

    /** {@link MemoryGraph#relations}. */
    @FunctionalInterface
    public interface Relations {
        /** See {@link MemoryGraph#relations}. */
        List<Relation> relations(EntryRef entry, Direction direction);
    }

    /** {@link MemoryGraph#traverse}. */
    @FunctionalInterface
    public interface Traverse {
        /** See {@link MemoryGraph#traverse}. */
        List<GraphPath> traverse(EntryRef start, Traversal traversal);
    }

    /** {@link MemoryGraph#restore}. */
    @FunctionalInterface
    public interface RestoreRelation {
        /** See {@link MemoryGraph#restore}. */
        Relation restore(Relation relation);
    }

    /** {@link dev.forge.memory.Restoring#restoreAll}. */
    @FunctionalInterface
    public interface RestoreAll {
        /** See {@link dev.forge.memory.Restoring#restoreAll}. */
        List<MemoryEntry> restoreAll(List<List<MemoryEntry>> chains);
    }

    /**
     * A restore facet whose batches are {@code restoreAll} and whose single restore is a batch of one: for a provider
     * that writes a batch as one transaction (the batch's all-or-nothing rule then covers single restores too).
     */
    public static dev.forge.memory.Restoring restoring(RestoreAll restoreAll) {
        Objects.requireNonNull(restoreAll, "restoreAll");
        return new dev.forge.memory.Restoring() {
            @Override
            public MemoryEntry restore(List<MemoryEntry> versions) {
                return restoreAll.restoreAll(List.of(versions)).get(0);
            }

            @Override
            public List<MemoryEntry> restoreAll(List<List<MemoryEntry>> chains) {
                return restoreAll.restoreAll(chains);
            }
        };
    }

    /** {@link VersionHistory#versions}. */
    @FunctionalInterface
    public interface Versions {
        /** See {@link VersionHistory#versions}. */
        List<MemoryEntry> versions(String key, Scope scope);
    }

    /** {@link VersionHistory#purge(String, Scope)}. */
    @FunctionalInterface
    public interface PurgeKey {
        /** See {@link VersionHistory#purge(String, Scope)}. */
        boolean purge(String key, Scope scope);
    }

    /** {@link VersionHistory#purge(Scope)}. */
    @FunctionalInterface
    public interface PurgeScope {
        /** See {@link VersionHistory#purge(Scope)}. */
        int purge(Scope scope);
    }

    /** Creates the index on one top-level metadata field, named without the {@value #METADATA_PREFIX} prefix. */
    @FunctionalInterface
    public interface IndexMetadataField {
        /** See {@link FieldIndexing#index}. */
        void index(String name);
    }

    /** How {@link FieldIndexing#index} names a metadata field: {@code metadata.<name>}. */
    public static final String METADATA_PREFIX = "metadata.";

    /**
     * A field indexing facet for a store that indexes keys and tags already: {@code key} and {@code tags} only check
     * that the store is open, {@code metadata.<name>} calls {@code metadata} with {@code <name>}, and any other field
     * is refused with {@link InvalidRequestException} naming the fields there are.
     */
    public static FieldIndexing fieldIndexing(Runnable checkOpen, IndexMetadataField metadata) {
        Objects.requireNonNull(checkOpen, "checkOpen");
        Objects.requireNonNull(metadata, "metadata");
        return field -> {
            Objects.requireNonNull(field, "field");
            if (field.equals("key") || field.equals("tags")) {
                checkOpen.run();
            } else if (field.startsWith(METADATA_PREFIX) && field.length() > METADATA_PREFIX.length()) {
                metadata.index(field.substring(METADATA_PREFIX.length()));
            } else {
                throw new InvalidRequestException("Cannot index the field '" + field + "': index 'key', 'tags' or a "
                        + "metadata field as '" + METADATA_PREFIX + "<name>' (for example '" + METADATA_PREFIX + "lang').");
            }
        };
    }

    /** {@link VersionHistory#deletedKeys(Scope)}. */
    @FunctionalInterface
    public interface DeletedKeys {
        /** See {@link VersionHistory#deletedKeys(Scope)}. */
        List<String> deletedKeys(Scope scope);
    }

    /**
     * A graph facet whose every call is one of the given methods; its {@link MemoryGraph#restore} is the default, which
     * relates at the provider's own time.
     */
    public static MemoryGraph graph(Relate relate, Unrelate unrelate, Relations relations, Traverse traverse) {
        Objects.requireNonNull(relate, "relate");
        return graph(relate, unrelate, relations, traverse,
                relation -> relate.relate(EntryRules.checkRelationTime(relation).from(), relation.to(), relation.type()));
    }

    /** A graph facet whose every call is one of the given methods, for a provider that keeps relation times. */
    public static MemoryGraph graph(Relate relate, Unrelate unrelate, Relations relations, Traverse traverse,
            RestoreRelation restore) {
        Objects.requireNonNull(relate, "relate");
        Objects.requireNonNull(restore, "restore");
        Objects.requireNonNull(unrelate, "unrelate");
        Objects.requireNonNull(relations, "relations");
        Objects.requireNonNull(traverse, "traverse");
        return new MemoryGraph() {
            @Override
            public Relation relate(EntryRef from, EntryRef to, String type) {
                return relate.relate(from, to, type);
            }

            @Override
            public Relation restore(Relation relation) {
                return restore.restore(relation);
            }

            @Override
            public boolean unrelate(EntryRef from, EntryRef to, String type) {
                return unrelate.unrelate(from, to, type);
            }

            @Override
            public List<Relation> relations(EntryRef entry, Direction direction) {
                return relations.relations(entry, direction);
            }

            @Override
            public List<GraphPath> traverse(EntryRef start, Traversal traversal) {
                return traverse.traverse(start, traversal);
            }
        };
    }

    /** A history facet whose every call is one of the given methods; it lists no deleted keys (no tombstones). */
    public static VersionHistory history(Versions versions, PurgeKey purgeKey, PurgeScope purgeScope) {
        return history(versions, purgeKey, purgeScope, scope -> List.of());
    }

    /** A history facet whose every call is one of the given methods, for a provider that keeps tombstones. */
    public static VersionHistory history(Versions versions, PurgeKey purgeKey, PurgeScope purgeScope, DeletedKeys deletedKeys) {
        Objects.requireNonNull(deletedKeys, "deletedKeys");
        Objects.requireNonNull(versions, "versions");
        Objects.requireNonNull(purgeKey, "purgeKey");
        Objects.requireNonNull(purgeScope, "purgeScope");
        return new VersionHistory() {
            @Override
            public List<MemoryEntry> versions(String key, Scope scope) {
                return versions.versions(key, scope);
            }

            @Override
            public boolean purge(String key, Scope scope) {
                return purgeKey.purge(key, scope);
            }

            @Override
            public int purge(Scope scope) {
                return purgeScope.purge(scope);
            }

            @Override
            public List<String> deletedKeys(Scope scope) {
                return deletedKeys.deletedKeys(scope);
            }
        };
    }
}
