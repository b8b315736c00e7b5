package dev.forge.memory.support.tx;

import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import java.util.Objects;
import java.util.Optional;

/**
 * One buffered write of a transaction, in the order it was made.
 *
 * @param ref      the key and scope written
 * @param previous the live entry the transaction saw just before this write (its own earlier writes included)
 * @param entry    the entry to store, stamped; empty for a deletion
 */
public record Change(EntryRef ref, Optional<MemoryEntry> previous, Optional<MemoryEntry> entry) {

    /** Rejects nulls. */
    public Change {
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(previous, "previous");
        Objects.requireNonNull(entry, "entry");
    }

    /** Whether this change deletes the key. */
    public boolean isDelete() {
        return entry.isEmpty();
    }
}
