package dev.forge.memory.consolidation;

import dev.forge.memory.MemoryEntry;
import java.util.List;

/**
 * Decides which memories of one scope say the same thing and what the merged memory says. The SPI behind
 * {@link Consolidation}.
 *
 * <p>A consolidator only plans: it must not write to the store. {@link Consolidation} checks every plan before writing
 * anything (see there), so a consolidator may be wrong without harm: a plan that names unknown keys, or any exception
 * thrown here, leaves the store unchanged.
 */
@FunctionalInterface
public interface Consolidator {

    /**
     * The merges to make among {@code entries}: all of one scope, in key order.
     *
     * @return the plan; {@link ConsolidationPlan#NONE} when nothing should be merged
     */
    ConsolidationPlan plan(List<MemoryEntry> entries);

    /** A short name for reports and logs; by default the class's simple name. */
    default String name() {
        return getClass().getSimpleName();
    }
}
