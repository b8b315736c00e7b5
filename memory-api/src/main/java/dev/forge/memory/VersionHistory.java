package dev.forge.memory;

import java.util.List;
import java.util.Optional;

/**
 * Every version of a key: the {@link Capability#HISTORY} facet.
 *
 * <p>Each {@link MemoryProvider#set} appends a version. {@link MemoryProvider#delete} and
 * {@link MemoryProvider#clear} remove a key's history along with it, except where the provider has
 * {@link Capability#TOMBSTONES}: there a deletion is itself a version (a tombstone, never listed) and the versions
 * before it stay until {@link #purge(String, Scope)}.
 */
public interface VersionHistory {

    /**
     * Every version of the key, oldest first, as it was written; empty if none. Versions are numbered 1, 2, ...
     * without gaps, but with {@link Capability#TOMBSTONES} each deletion takes a number, leaving a gap. The last
     * version is what {@link MemoryProvider#get} returns, unless the key is deleted.
     * @throws InvalidKeyException if the key breaks the key rules
     */
    List<MemoryEntry> versions(String key, Scope scope);

    /** One version of the key, if it exists. */
    default Optional<MemoryEntry> version(String key, Scope scope, long version) {
        return versions(key, scope).stream().filter(e -> e.version() == version).findFirst();
    }

    /** The deleted keys of {@code scope} whose versions are kept ({@link Capability#TOMBSTONES}), in key order. */
    default List<String> deletedKeys(Scope scope) {
        return List.of();
    }

    /**
     * Erases the key from storage for good: the current entry, every version, every tombstone and its relations,
     * so that a key written again starts at version 1. Where deletions are not kept this is
     * {@link MemoryProvider#delete}; with {@link Capability#TOMBSTONES} it is how private data is really removed.
     * @return whether anything of the key was stored (an entry, or the versions of a deleted one)
     * @throws InvalidKeyException if the key breaks the key rules
     */
    boolean purge(String key, Scope scope);

    /**
     * {@link #purge(String, Scope)} for every key of {@code scope} this provider can see, deleted ones included:
     * for SESSION only this session's keys, for PROJECT only this project's, for GLOBAL every global key.
     * @return the number of keys erased
     */
    int purge(Scope scope);
}
