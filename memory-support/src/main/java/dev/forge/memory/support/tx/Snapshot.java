package dev.forge.memory.support.tx;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link TransactionBackend} read of one key when a transaction first touched it.
 *
 * @param entry       the live entry, if any
 * @param lastVersion the highest version number the key has taken, tombstones included (at least the live entry's
 *                    version; 0 for a key never written, or whose deletions leave no trace)
 * @param revision    what the backend compares at commit to tell whether the key changed since; may be null (for
 *                    example "nothing stored") if the backend's comparison allows it
 * @param unreadable  the error a read of the key throws when what is stored cannot be read (a damaged file), or null;
 *                    such a key counts as present for a delete, and a set replaces it
 * @param <R>         the backend's revision type
 */
public record Snapshot<R>(Optional<MemoryEntry> entry, long lastVersion, R revision, MemoryException unreadable) {

    /** Rejects a null entry and a last version below the live entry's. */
    public Snapshot {
        Objects.requireNonNull(entry, "entry");
        if (entry.isPresent() && lastVersion < entry.get().version()) {
            throw new IllegalArgumentException("lastVersion " + lastVersion + " is below the live version "
                    + entry.get().version());
        }
    }

    /** A readable key: its live entry, if any, the highest version it has taken and its revision. */
    public static <R> Snapshot<R> of(Optional<MemoryEntry> entry, long lastVersion, R revision) {
        return new Snapshot<>(entry, lastVersion, revision, null);
    }

    /** A key whose stored data cannot be read: reads throw {@code error}. */
    public static <R> Snapshot<R> unreadable(MemoryException error, R revision) {
        return new Snapshot<>(Optional.empty(), 0, revision, Objects.requireNonNull(error, "error"));
    }

    /** Whether anything is stored: a live entry or unreadable data. */
    public boolean present() {
        return entry.isPresent() || unreadable != null;
    }
}
