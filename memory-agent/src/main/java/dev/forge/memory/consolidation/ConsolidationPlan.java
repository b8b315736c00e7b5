package dev.forge.memory.consolidation;

import java.util.List;
import java.util.Objects;

/**
 * What a {@link Consolidator} proposes for one scope: groups of keys to merge.
 *
 * @param merges the groups; each key should be in at most one ({@link Consolidation} checks it)
 */
public record ConsolidationPlan(List<Merge> merges) {

    /** Nothing to merge. */
    public static final ConsolidationPlan NONE = new ConsolidationPlan(List.of());

    /** Copies the list. */
    public ConsolidationPlan {
        merges = List.copyOf(merges);
    }

    /**
     * One group: {@code keys} become one memory under {@code keep} holding {@code value}; the other keys are removed and
     * recorded in the kept memory's {@code supersedes} metadata.
     *
     * @param keep  the key that stays; one of {@code keys}
     * @param keys  every key of the group, {@code keep} included, in the order they are recorded
     * @param value the merged value, not blank
     */
    public record Merge(String keep, List<String> keys, String value) {

        /** Copies the keys; structural checks are {@link Consolidation}'s, which reports them rather than throwing. */
        public Merge {
            Objects.requireNonNull(keep, "keep");
            keys = List.copyOf(keys);
            Objects.requireNonNull(value, "value");
        }

        /** The keys that are removed: {@link #keys()} without {@link #keep()}. */
        public List<String> removed() {
            return keys.stream().filter(k -> !k.equals(keep)).toList();
        }
    }
}
