package dev.forge.memory.hybrid.internal;

import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.StoreProblem;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * How a child that keeps copies of the entries (a search or relationships child of the hybrid router) differs from the
 * storage: an entry the storage has and the child has not, or has with another value, tags or metadata, or one the
 * child still has after the storage lost it. A process killed between the storage's write and the child's update
 * leaves such a difference, which no later call notices (searches check their hits against the storage, but cannot
 * find what the child lacks): {@code doctor()} reports them and {@code forge-memory reindex} repairs them.
 */
public final class ChildCopies {

    /** What is wrong with the child's copy of one entry. */
    public enum Kind {
        /** The storage has the entry; the child has no copy. */
        MISSING,
        /** The child's copy has another value, tags or metadata than the storage's entry. */
        STALE,
        /** The child has a copy of an entry the storage does not have. */
        LEFT_OVER
    }

    /** One entry whose copy differs. */
    public record Difference(EntryRef ref, Kind kind) {

        /**
         * What the router's {@code doctor()} says of it: the key, what is wrong, and what to run.
         *
         * @param search whether the child is the search child, whose searches then miss the entry or find it by its
         *               earlier text
         */
        public String problem(boolean search) {
            String entry = "'" + ref.key() + "' in " + ref.scope().name().toLowerCase(Locale.ROOT) + " scope";
            String what = switch (kind) {
                case MISSING -> "has no copy of " + entry + ", which the storage has"
                        + (search ? ": searches cannot find it" : "");
                case STALE -> "has an older copy of " + entry + " than the storage"
                        + (search ? ": searches find it by what it held before" : "");
                case LEFT_OVER -> "still has " + entry + ", which the storage no longer has";
            };
            return what + " (a process stopped between the storage's write and this child's, or wrote to the storage"
                    + " alone). Run 'forge-memory reindex' to rebuild the child from the storage.";
        }
    }

    /** Compares one key holding the lock a router's writes of that key hold. */
    @FunctionalInterface
    public interface KeyLock {
        /** Runs {@code comparison} holding the lock of {@code ref}. */
        Optional<Kind> locked(EntryRef ref, Supplier<Optional<Kind>> comparison);
    }

    private ChildCopies() {
    }

    /**
     * What a router's {@code doctor()} reports of the child {@code label}: each entry whose copy in {@code copies}
     * differs from {@code storage}'s, found again holding its key's lock (so that a write of this JVM between the two
     * reads is no difference), but not those whose updates wait in the outbox ({@code waiting}, the router's own
     * records), which the outbox lists.
     */
    public static List<StoreProblem> problems(String label, Outbox.Child role, MemoryProvider storage,
            MemoryProvider copies, List<Outbox.Entry> waiting, KeyLock lock) {
        Set<EntryRef> queued = new HashSet<>();
        Set<Scope> clearing = EnumSet.noneOf(Scope.class);
        for (Outbox.Entry entry : waiting) {
            if (entry.child() == role && entry.op() == Outbox.Op.CLEAR) {
                clearing.add(entry.scope());
            } else if (entry.child() == role) {
                queued.add(EntryRef.of(entry.key(), entry.scope()));
            }
        }
        List<StoreProblem> problems = new ArrayList<>();
        try {
            Query all = Query.builder().build();
            for (Difference found : compare(storage.query(all), copies.query(all))) {
                EntryRef ref = found.ref();
                if (queued.contains(ref) || clearing.contains(ref.scope())) {
                    continue;
                }
                lock.locked(ref, () -> differs(storage.get(ref.key(), ref.scope()), copies.get(ref.key(), ref.scope())))
                        .ifPresent(kind -> problems.add(new StoreProblem(label,
                                new Difference(ref, kind).problem(role == Outbox.Child.SEARCH))));
            }
        } catch (MemoryException e) {
            problems.add(new StoreProblem(label, "its copies cannot be compared with the storage's entries ("
                    + e.getMessage() + "); run 'forge-memory doctor' again, or 'forge-memory reindex'"));
        }
        return problems;
    }

    /** The differences between {@code stored} (the storage's entries) and {@code copies} (the child's), in key order. */
    public static List<Difference> compare(List<MemoryEntry> stored, List<MemoryEntry> copies) {
        Map<EntryRef, MemoryEntry> childs = new LinkedHashMap<>();
        copies.forEach(copy -> childs.put(copy.ref(), copy));
        Map<EntryRef, Difference> found = new LinkedHashMap<>();
        for (MemoryEntry entry : stored) {
            MemoryEntry copy = childs.remove(entry.ref());
            Optional<Kind> kind = differs(Optional.of(entry), Optional.ofNullable(copy));
            kind.ifPresent(k -> found.put(entry.ref(), new Difference(entry.ref(), k)));
        }
        childs.keySet().forEach(ref -> found.put(ref, new Difference(ref, Kind.LEFT_OVER)));
        List<Difference> ordered = new ArrayList<>();
        new TreeSet<>(found.keySet()).forEach(ref -> ordered.add(found.get(ref)));
        return ordered;
    }

    /** How a child's {@code copy} differs from the storage's {@code stored} entry of one key, if it does. */
    public static Optional<Kind> differs(Optional<MemoryEntry> stored, Optional<MemoryEntry> copy) {
        if (stored.isEmpty()) {
            return copy.isPresent() ? Optional.of(Kind.LEFT_OVER) : Optional.empty();
        }
        if (copy.isEmpty()) {
            return Optional.of(Kind.MISSING);
        }
        return sameContent(stored.get(), copy.get()) ? Optional.empty() : Optional.of(Kind.STALE);
    }

    /** Whether a child's copy holds what the storage's entry holds (versions and times are the child's own). */
    public static boolean sameContent(MemoryEntry a, MemoryEntry b) {
        return a.value().equals(b.value()) && a.tags().equals(b.tags()) && a.metadata().equals(b.metadata());
    }

}
