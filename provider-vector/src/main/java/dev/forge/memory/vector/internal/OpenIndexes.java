package dev.forge.memory.vector.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The indexes of one kind open in this JVM: one per real path, shared by every provider on it and closed when the last
 * one lets go, so that providers in one JVM never fight over Lucene's {@code write.lock}.
 */
final class OpenIndexes<T> {

    private static final Logger LOG = LoggerFactory.getLogger(OpenIndexes.class);

    private final Map<Path, T> open = new HashMap<>();
    private final Map<Path, Integer> references = new HashMap<>();

    /** The index at {@code real}, opened by {@code opener} if no provider of this JVM has it open. */
    synchronized T acquire(Path real, Function<Path, T> opener) {
        T index = open.get(real);
        if (index == null) {
            index = opener.apply(real);
            open.put(real, index);
        }
        references.merge(real, 1, Integer::sum);
        return index;
    }

    /** Gives up one reference to the index at {@code real}; the last one runs {@code close}. */
    synchronized void release(Path real, Runnable close) {
        if (references.merge(real, -1, Integer::sum) > 0) {
            return;
        }
        references.remove(real);
        open.remove(real);
        close.run();
    }

    /**
     * Closes the {@code parts} in order under {@code lock}'s write lock, so that no read or write is under way; they
     * are asked for under it, as a rollback may have replaced one.
     */
    static void closeUnder(java.util.concurrent.locks.ReentrantReadWriteLock lock,
            java.util.function.Supplier<java.util.List<AutoCloseable>> parts) {
        lock.writeLock().lock();
        try {
            for (AutoCloseable part : parts.get()) {
                closeQuietly(part);
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Closes {@code closeable}, logging instead of throwing: closing one part must not keep the others open. */
    static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.warn("Closing part of a vector index failed: {}", e.toString());
        }
    }
}
