package dev.forge.memory.consolidation.internal;

import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.Scope;
import dev.forge.memory.consolidation.ConsolidationPlan.Merge;
import dev.forge.memory.EntryRules;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One checked group, ready to write: the kept memory's new value, tags and metadata, and the memories it replaces, as
 * they were read. Not API.
 *
 * @param scope    the scope
 * @param kept     the kept memory as read
 * @param removed  the memories merged into it, as read
 * @param value    the merged value
 * @param tags     the kept memory's tags, then the others' tags not already there
 * @param metadata the kept memory's metadata with {@value #SUPERSEDES}
 */
public record MergeWrite(Scope scope, MemoryEntry kept, List<MemoryEntry> removed, String value, List<String> tags,
                         Map<String, Object> metadata) {

    /** The metadata field listing what a consolidated memory replaced. */
    public static final String SUPERSEDES = "supersedes";

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    /** Every memory the write depends on: the kept one first. */
    public List<MemoryEntry> involved() {
        List<MemoryEntry> all = new ArrayList<>();
        all.add(kept);
        all.addAll(removed);
        return all;
    }

    /**
     * The first thing wrong with a plan, checked against the memories it was made from, or empty: each group needs at
     * least two distinct keys, all read in this scope, none in another group, the kept key among them, and a non-blank
     * value.
     *
     * @param taken the keys of earlier groups of the run; this plan's keys are added
     */
    public static Optional<String> problem(List<Merge> merges, Map<String, MemoryEntry> read, Set<String> taken) {
        for (Merge merge : merges) {
            String group = "the group kept as '" + merge.keep() + "'";
            if (new HashSet<>(merge.keys()).size() != merge.keys().size()) {
                return Optional.of(group + " names a key twice");
            }
            if (merge.keys().size() < 2) {
                return Optional.of(group + " has fewer than two keys");
            }
            if (!merge.keys().contains(merge.keep())) {
                return Optional.of(group + " does not list its kept key among its keys " + merge.keys());
            }
            if (merge.value().isBlank()) {
                return Optional.of(group + " has a blank merged value");
            }
            for (String key : merge.keys()) {
                if (!read.containsKey(key)) {
                    return Optional.of(group + " names '" + key + "', which is not a memory of this scope");
                }
                if (!taken.add(key)) {
                    return Optional.of("'" + key + "' is in more than one group");
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The write for a checked group, or why it cannot be made within {@code limits} (it is then skipped, not cut).
     *
     * @return the write on the left, or the reason
     */
    public static Either of(Scope scope, Merge merge, Map<String, MemoryEntry> read, Limits limits) {
        MemoryEntry kept = read.get(merge.keep());
        List<MemoryEntry> removed = merge.removed().stream().map(read::get).toList();
        LinkedHashSet<String> tags = new LinkedHashSet<>(kept.tags());
        removed.forEach(e -> tags.addAll(e.tags()));
        List<Object> supersedes = new ArrayList<>();
        try {
            supersedes.addAll(earlier(kept));
            if (!merge.value().equals(kept.value())) {
                supersedes.add(record(kept));
            }
            for (MemoryEntry entry : removed) {
                supersedes.addAll(earlier(entry));
                supersedes.add(record(entry));
            }
        } catch (IllegalStateException e) {
            return new Either(null, e.getMessage());
        }
        Map<String, Object> metadata = new LinkedHashMap<>(kept.metadata());
        metadata.put(SUPERSEDES, supersedes);
        try {
            EntryRules.checkValue(merge.value(), kept.key(), limits);
            List<String> checkedTags = EntryRules.normalizeTags(tags, kept.key(), limits);
            Map<String, Object> checked = EntryRules.normalizeMetadata(metadata, kept.key());
            EntryRules.checkMetadataSize(checked, kept.key(), limits);
            return new Either(new MergeWrite(scope, kept, removed, merge.value(), checkedTags, checked), null);
        } catch (MemoryException e) {
            return new Either(null, "the merged memory would break the provider's limits: " + e.getMessage());
        }
    }

    /** A write, or the reason there is none. */
    public record Either(MergeWrite write, String skipped) {
    }

    /** What an entry itself superseded in an earlier consolidation, carried over so that the list stays flat. */
    private static Collection<Object> earlier(MemoryEntry entry) {
        Object earlier = entry.metadata().get(SUPERSEDES);
        if (earlier == null) {
            return List.of();
        }
        if (earlier instanceof List<?> list && list.stream().allMatch(Map.class::isInstance)) {
            return new ArrayList<>(list);
        }
        throw new IllegalStateException("'" + entry.key() + "' has metadata '" + SUPERSEDES
                + "' that is not a list of consolidation records; rename that field to consolidate it");
    }

    /** An entry as a {@value #SUPERSEDES} record: what a provider without history would otherwise lose. */
    private static Map<String, Object> record(MemoryEntry entry) {
        Map<String, Object> metadata = new LinkedHashMap<>(entry.metadata());
        metadata.remove(SUPERSEDES);
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("key", entry.key());
        record.put("value", entry.value());
        record.put("tags", entry.tags());
        record.put("metadata", metadata);
        record.put("created_at", TIME.format(entry.createdAt()));
        record.put("updated_at", TIME.format(entry.updatedAt()));
        record.put("version", entry.version());
        return record;
    }
}
