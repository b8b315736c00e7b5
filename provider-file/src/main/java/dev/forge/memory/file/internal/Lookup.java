package dev.forge.memory.file.internal;

import dev.forge.memory.MemoryEntry;
import java.util.Objects;
import java.util.Optional;

/** What the index knows about one key: its entry, a damaged file, or nothing. */
public record Lookup(MemoryEntry entry, EntryFiles.Loaded damaged) {
    /** Nothing stored. */
    public static final Lookup ABSENT = new Lookup(null, null);

    /** The entry, if the key has a readable one. */
    public Optional<MemoryEntry> current() {
        return Optional.ofNullable(entry);
    }

    /**
     * Whether {@code other} shows the same stored state, for conflict checks: an equal entry (key, value,
     * version and timestamps, so a delete and re-create in between counts as a change), or both damaged, or
     * both absent.
     */
    public boolean sameStateAs(Lookup other) {
        return Objects.equals(entry, other.entry) && (damaged == null) == (other.damaged == null);
    }
}
