package dev.forge.memory.context;

import dev.forge.memory.MemoryEntry;
import java.util.Objects;

/**
 * One memory as shown on a {@link ContextPage}.
 *
 * @param entry     the memory, whole, as read from the provider
 * @param category  the heading it is shown under (see {@link ContextLoader})
 * @param truncated whether its value was cut to fit the budget (the page says so in the text, too)
 */
public record ContextEntry(MemoryEntry entry, String category, boolean truncated) {

    /** Rejects nulls. */
    public ContextEntry {
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(category, "category");
    }
}
