package dev.forge.memory;

import java.util.List;
import java.util.Optional;

/**
 * Every version of a key: the {@link Capability#HISTORY} facet.
 *
 * <p>Each {@link MemoryProvider#set} appends a version. {@link MemoryProvider#delete} and
 * {@link MemoryProvider#clear} remove a key's history along with it.
 */
public interface VersionHistory {

    /** Every version of the key, oldest first (versions 1, 2, ... up to the current one); empty if none. */
    List<MemoryEntry> versions(String key, Scope scope);

    /** One version of the key, if it exists. */
    default Optional<MemoryEntry> version(String key, Scope scope, long version) {
        return versions(key, scope).stream().filter(e -> e.version() == version).findFirst();
    }
}
