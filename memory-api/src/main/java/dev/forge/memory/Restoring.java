package dev.forge.memory;

import java.util.List;

/**
 * Writes a key back exactly as it was: the {@link Capability#RESTORE} facet, used by import and migration
 * (the transfer package of memory-runtime) so that versions, timestamps and history survive a move between backends.
 *
 * <p>Unlike {@link MemoryProvider#set}, which stamps a write with the provider's clock and the next version, a
 * restore stores the versions it is given, numbers and timestamps included. It is an administrative operation:
 * callers that record new knowledge use {@code set}.
 */
public interface Restoring {

    /**
     * Replaces everything stored under the key of {@code versions} with exactly these versions: the last one becomes
     * the current entry (what {@link MemoryProvider#get} returns), the earlier ones its history, oldest first. A
     * provider without {@link Capability#HISTORY} keeps only the last. Relations of the key stay; a tombstone or
     * older history of the key is replaced. A later {@code set} of the key continues at the last version + 1.
     *
     * <p>The versions must form a chain (checked by {@link dev.forge.memory.EntryRules#checkChain}): one key and
     * scope, version numbers strictly increasing (gaps are kept as they are, for histories that went through a
     * deletion) and at most {@link dev.forge.memory.EntryRules#MAX_VERSION}, times from
     * {@link dev.forge.memory.EntryRules#EARLIEST} to {@link dev.forge.memory.EntryRules#LATEST},
     * {@code updatedAt} never decreasing, and each version within the provider's {@link MemoryProvider#limits()}.
     * Restoring the same chain twice leaves the store as after the first time.
     *
     * @param versions the versions of one key, oldest first, at least one
     * @return the current entry as stored: the last of {@code versions}
     * @throws InvalidKeyException    if the key breaks the key rules
     * @throws ValueTooLargeException if a value is over the limit
     * @throws InvalidEntryException  if the versions do not form a chain, a version or time is out of range, or a tag or
     *                                metadata cannot be stored
     */
    MemoryEntry restore(List<MemoryEntry> versions);

    /**
     * Restores many keys, each chain as {@link #restore} takes it; their current entries, in order. With {@link
     * Capability#TRANSACTIONS} a batch is all-or-nothing: a refused chain (as by {@code restore}) or a backend failure
     * applies none of it; without, chains before the failing one may stay restored, each whole (the default's way).
     */
    default List<MemoryEntry> restoreAll(List<List<MemoryEntry>> chains) {
        return chains.stream().map(this::restore).toList();
    }
}
