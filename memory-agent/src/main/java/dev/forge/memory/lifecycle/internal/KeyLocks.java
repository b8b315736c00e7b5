package dev.forge.memory.lifecycle.internal;

import java.util.Collection;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Serialises read-modify-write cycles per key within one JVM: a fixed set of lock stripes, a key's stripe chosen
 * by its hash. Several keys are locked in stripe order, so two callers locking the same keys cannot deadlock.
 */
public final class KeyLocks {

    private final ReentrantLock[] stripes;

    /** Locks over {@code stripes} stripes (at least 1). */
    public KeyLocks(int stripes) {
        this.stripes = new ReentrantLock[Math.max(1, stripes)];
        for (int i = 0; i < this.stripes.length; i++) {
            this.stripes[i] = new ReentrantLock();
        }
    }

    /** Runs {@code work} holding the locks of every key in {@code keys}. */
    public <T> T withLocks(Collection<String> keys, Supplier<T> work) {
        TreeSet<Integer> indexes = new TreeSet<>();
        keys.forEach(key -> indexes.add(Math.floorMod(key.hashCode(), stripes.length)));
        for (int index : indexes) {
            stripes[index].lock();
        }
        try {
            return work.get();
        } finally {
            for (int index : indexes.descendingSet()) {
                stripes[index].unlock();
            }
        }
    }
}
