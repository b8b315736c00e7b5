package dev.forge.memory.support;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A provider's bulk read of what it stores, for export and migration (memory-runtime's transfer code): the keys of a
 * scope a page at a time in key order ({@link dev.forge.memory.Keys#compareKeys}), each page starting after the last
 * key of the one before (keyset paging: a page costs the same however deep into the store it is), each key with its
 * earlier versions read in the same statement. A provider that implements it gives the records that paging through
 * {@code query} and {@code history()} would give, with a few statements per page instead of one per key; the transfer
 * code falls back to those calls for a provider that does not.
 *
 * <p>Pages are not a snapshot of the whole store: a write between two pages may show in the later one only.
 */
public interface KeyPages {

    /**
     * One key as stored.
     *
     * @param versions its versions, oldest first, without tombstones: the current entry last (for a deleted key, the
     *                 last version before its deletion), the earlier ones kept by history before it
     * @param deleted  whether the key is deleted (its versions kept as tombstoned history)
     */
    record Chain(List<MemoryEntry> versions, boolean deleted) {

        /** Copies the versions; at least one. */
        public Chain {
            versions = List.copyOf(versions);
            if (versions.isEmpty()) {
                throw new IllegalArgumentException("a chain holds at least one version");
            }
        }

        /** The current entry: the last version. */
        public MemoryEntry current() {
            return versions.get(versions.size() - 1);
        }

        /** The versions before the current one, oldest first. */
        public List<MemoryEntry> earlier() {
            return versions.subList(0, versions.size() - 1);
        }
    }

    /**
     * A stored key whose entry cannot be read (a damaged row), left out of a page.
     *
     * @param key     the key as stored
     * @param problem why it cannot be read and what to do, in one line; never the value
     */
    record Unreadable(String key, String problem) {

        /** Rejects nulls. */
        public Unreadable {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(problem, "problem");
        }
    }

    /**
     * One page of a read.
     *
     * @param items      what the page holds, in key order
     * @param next       the key to read on after, or empty when this was the last page; a page may hold fewer items
     *                   than asked for (rows that cannot be read are left out, as {@code query} leaves them out) and
     *                   still have a next
     * @param unreadable the keys of the page's range whose entry cannot be read, left out of {@code items}, so that an
     *                   export can name what it could not write
     * @param <T>        what a page holds
     */
    record Page<T>(List<T> items, Optional<String> next, List<Unreadable> unreadable) {

        /** Copies the lists. */
        public Page {
            items = List.copyOf(items);
            Objects.requireNonNull(next, "next");
            unreadable = List.copyOf(unreadable);
        }

        /** A page where every row could be read. */
        public Page(List<T> items, Optional<String> next) {
            this(items, next, List.of());
        }
    }

    /**
     * The live keys of {@code scope} that sort after {@code after} ({@code ""} for the first page), at most
     * {@code limit}, each with its earlier versions where the provider keeps history.
     */
    Page<Chain> live(Scope scope, String after, int limit);

    /**
     * The deleted keys of {@code scope} whose versions are kept ({@link dev.forge.memory.Capability#TOMBSTONES}) that
     * sort after {@code after}, at most {@code limit}; an empty last page where deletions are not kept.
     */
    Page<Chain> deleted(Scope scope, String after, int limit);

    /**
     * Live keys of {@code scope} that sort after {@code after}, at most {@code limit}, that may have outgoing relations:
     * every key with one is among them, so that an export asks the graph about these keys only.
     */
    Page<String> relating(Scope scope, String after, int limit);
}
