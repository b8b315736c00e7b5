package dev.forge.memory.markdown.internal;

import dev.forge.memory.MemoryEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The versions of one key in one directory, linked by {@code supersedes}: the head (the newest version that no other
 * supersedes), the line from the first version to the head, and which life of the key each version on the line
 * belongs to (a tombstone ends a life; a version written after it starts the next one).
 *
 * <p>Files edited by hand can break the chain; reading goes on around it and the problem is reported. A cycle (two
 * versions superseding each other) leaves no version unsuperseded: the newest by number, then time, then id, is
 * taken as the head. The walk backward from the head stops at a version already seen, at a missing one, and after
 * {@link #MAX_DEPTH} steps. Versions of the key not on the line (a fork, a copied file) are ignored.
 *
 * <p>A restore writes a new line beside the old one and makes it the key's by writing its head last, with the old
 * versions in {@code replaces}: those count as superseded, so the old line, with every version it superseded, drops
 * off at once. What is left of it (a restore that stopped before removing it) is ignored like a fork, and is a
 * {@linkplain #leftovers() leftover} that the next write removes.
 */
final class Chain {

    /** The longest line walked back from a head. */
    static final int MAX_DEPTH = 100_000;

    private static final Comparator<IndexedFile> NEWEST_LAST = Comparator
            .comparingLong((IndexedFile f) -> f.file().version())
            .thenComparing(f -> f.file().updatedAt())
            .thenComparing(IndexedFile::id);

    private final String key;
    private final IndexedFile head;
    private final List<IndexedFile> line;
    private final List<IndexedFile> members;
    private final Map<String, Integer> lifeOf;
    private final List<String> problems;
    private final List<IndexedFile> leftovers;
    private final Map<String, Stamp> stamps;

    /** What a version on the line shows in place of what its file records (see {@link #stamps}). */
    private record Stamp(long version, Instant createdAt, Instant updatedAt) {
    }

    private Chain(String key, IndexedFile head, List<IndexedFile> line, List<IndexedFile> members,
            Map<String, Integer> lifeOf, List<String> problems, List<IndexedFile> leftovers, Map<String, Stamp> stamps) {
        this.stamps = stamps;
        this.key = key;
        this.head = head;
        this.line = line;
        this.members = members;
        this.lifeOf = lifeOf;
        this.problems = problems;
        this.leftovers = leftovers;
    }

    /**
     * Links the versions of {@code key} (at least one).
     *
     * @param keyless whether the file with an id names no key (seed 000 and 003, see {@link DerivedKeys})
     */
    static Chain of(String key, List<IndexedFile> versions, Predicate<String> keyless) {
        Map<String, IndexedFile> byId = new HashMap<>();
        for (IndexedFile version : versions) {
            byId.putIfAbsent(version.id(), version);
        }
        Set<String> superseded = new HashSet<>();
        for (IndexedFile version : versions) {
            version.file().supersedes().ifPresent(superseded::add);
            superseded.addAll(version.file().replaces());
        }
        List<String> problems = new ArrayList<>();
        List<IndexedFile> unsuperseded = versions.stream().filter(v -> !superseded.contains(v.id())).toList();
        IndexedFile head = Collections.max(unsuperseded.isEmpty() ? versions : unsuperseded, NEWEST_LAST);
        if (unsuperseded.isEmpty()) {
            problems.add("every version supersedes another (a cycle); " + head.name() + " is taken as the newest, and"
                    + " export and history follow it: remove the 'supersedes' line of the first version to mend it");
        }
        List<IndexedFile> line = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        IndexedFile current = head;
        while (true) {
            line.add(current);
            seen.add(current.id());
            Optional<String> previous = current.file().supersedes();
            if (previous.isEmpty()) {
                break;
            }
            IndexedFile before = byId.get(previous.get());
            if (before == null) {
                problems.add(current.name() + " supersedes " + previous.get() + ", which is missing: older versions are lost,"
                        + " and history and export start at " + current.name() + "; put the missing file back, or"
                        + " remove its 'supersedes' line to make it the first version");
                break;
            }
            if (seen.contains(before.id())) {
                problems.add(current.name() + " supersedes " + before.name() + ", a newer version (a cycle): the history stops"
                        + " there; remove or correct that 'supersedes' line");
                break;
            }
            if (line.size() >= MAX_DEPTH) {
                problems.add("the chain is longer than " + MAX_DEPTH + " versions: the history stops at " + current.name());
                break;
            }
            current = before;
        }
        Collections.reverse(line);
        Map<String, Integer> lifeOf = new HashMap<>();
        int life = 0;
        for (IndexedFile version : line) {
            lifeOf.put(version.id(), life);
            if (version.file().tombstone()) {
                life++;
            }
        }
        Map<String, IndexedFile> replacedBy = replaced(versions, byId);
        List<IndexedFile> leftovers = new ArrayList<>();
        for (IndexedFile version : versions) {
            if (lifeOf.containsKey(version.id())) {
                continue;
            }
            IndexedFile restore = replacedBy.get(version.id());
            if (restore != null) {
                leftovers.add(version);
                problems.add(version.name() + " (version " + version.file().version() + ") was replaced by the restore "
                        + "that wrote " + restore.name() + ", which stopped before removing it; it is ignored, and "
                        + "removed by the next write to this directory");
            } else {
                problems.add(version.name() + " (version " + version.file().version() + ") is not on the chain to "
                        + head.name() + " and is ignored (not exported either): two writers without the lock, or a"
                        + " copied file; copy what it holds into the current version and move it out of the directory");
            }
        }
        return new Chain(key, head, List.copyOf(line), List.copyOf(versions), lifeOf, List.copyOf(problems),
                List.copyOf(leftovers), stamps(line, keyless));
    }

    /**
     * The versions a restore replaced, each with the head the restore wrote: those its {@code replaces} names and
     * every version they supersede, walked back.
     */
    private static Map<String, IndexedFile> replaced(List<IndexedFile> versions, Map<String, IndexedFile> byId) {
        Map<String, IndexedFile> replacedBy = new HashMap<>();
        for (IndexedFile restore : versions) {
            for (String id : restore.file().replaces()) {
                IndexedFile old = byId.get(id);
                while (old != null && old != restore && replacedBy.putIfAbsent(old.id(), restore) == null) {
                    old = old.file().supersedes().map(byId::get).orElse(null);
                }
            }
        }
        return replacedBy;
    }

    /**
     * The stamps the versions on the line show where their files say otherwise: the order by {@code supersedes} is
     * the truth. Numbers that do not rise along the line (two versions both numbered 1, as seed 003 writes them, or a
     * number edited by hand) are shown as 1 to n in line order; an {@code updated_at} before the previous version's is
     * shown as that one's, and a file that names no key shows the {@code created_at} of the version before it in the
     * same life (seed 000 stamps each version file with its own time of creation). Files forge-memory wrote need none
     * of this. So every history can be restored elsewhere ({@link dev.forge.memory.EntryRules#checkChain}); the files
     * stay as written.
     */
    private static Map<String, Stamp> stamps(List<IndexedFile> line, Predicate<String> keyless) {
        boolean rising = true;
        long previous = 0;
        for (IndexedFile version : line) {
            rising &= version.file().version() > previous;
            previous = version.file().version();
        }
        Map<String, Stamp> stamps = new HashMap<>();
        Instant lastUpdated = null;
        Instant lifeCreated = null;
        boolean newLife = true;
        for (int i = 0; i < line.size(); i++) {
            MemoryFile file = line.get(i).file();
            long number = rising ? file.version() : i + 1;
            Instant updated = lastUpdated != null && file.updatedAt().isBefore(lastUpdated) ? lastUpdated : file.updatedAt();
            Instant created = newLife || !keyless.test(file.id()) ? file.createdAt() : lifeCreated;
            created = created.isAfter(updated) ? updated : created;
            if (number != file.version() || !updated.equals(file.updatedAt()) || !created.equals(file.createdAt())) {
                stamps.put(file.id(), new Stamp(number, created, updated));
            }
            lifeCreated = created;
            lastUpdated = updated;
            newLife = file.tombstone();
        }
        return stamps.isEmpty() ? Map.of() : stamps;
    }

    /** The entry of {@code version}, a version on the line, with the stamps the line gives it. */
    MemoryEntry present(IndexedFile version, MemoryEntry entry) {
        Stamp stamp = stamps.get(version.id());
        return stamp == null || entry == null ? entry : new MemoryEntry(entry.key(), entry.value(), entry.scope(),
                entry.tags(), entry.metadata(), stamp.createdAt(), stamp.updatedAt(), stamp.version());
    }

    /** The head's entry, as the line stamps it. */
    MemoryEntry headEntry() {
        return present(head, head.entry());
    }

    /** The head's version number, as the line stamps it. */
    long headVersion() {
        Stamp stamp = stamps.get(head.id());
        return stamp == null ? head.file().version() : stamp.version();
    }

    /** The key. */
    String key() {
        return key;
    }

    /** The newest version: the entry, or a tombstone if the key is deleted. */
    IndexedFile head() {
        return head;
    }

    /** Whether the key has an entry: its head is not a tombstone. */
    boolean live() {
        return !head.file().tombstone();
    }

    /** The versions from the first to the head, tombstones included. */
    List<IndexedFile> line() {
        return line;
    }

    /** Every file of the key in this directory, on the line or not. */
    List<IndexedFile> members() {
        return members;
    }

    /**
     * Whether a reference to version {@code id} reaches the current entry: the version is on the line, in the
     * current life, and the key is live. A reference into a life a deletion ended reaches nothing, so relations to a
     * deleted entry stay gone when the key is written again.
     */
    boolean reaches(String id) {
        Integer life = lifeOf.get(id);
        return life != null && live() && life.equals(lifeOf.get(head.id()));
    }

    /** Whether version {@code id} is on the line from the first version to the head. */
    boolean onLine(String id) {
        return lifeOf.containsKey(id);
    }

    /** The versions a finished restore replaced but did not get to remove: safe to remove, holding the lock. */
    List<IndexedFile> leftovers() {
        return leftovers;
    }

    /** What is wrong with the chain; empty if nothing. */
    List<String> problems() {
        return problems;
    }
}
