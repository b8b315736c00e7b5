package dev.forge.memory.file.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.StorageException;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The lock of one store directory, shared by every provider of this JVM that has it open and held against
 * other processes with an OS file lock on {@code <store>/.lock}.
 *
 * <p>Writers hold it exclusively; readers that catch up with the journal hold it shared. Inside the JVM a
 * read-write lock decides who may go; the OS lock (exclusive for a writer, one shared lock for all readers of
 * this JVM together) keeps other processes out. Both are needed: the OS lock is per process, and a second
 * {@link FileChannel#lock()} on the same file in one JVM fails with an {@code OverlappingFileLockException}.
 * There is exactly one channel on the lock file per JVM, because on POSIX closing any descriptor of a file
 * drops every lock the process holds on it.
 */
public final class StoreLock {

    /** The name of the lock file in the store directory. */
    public static final String FILE_NAME = ".lock";

    private static final Map<Path, StoreLock> OPEN = new HashMap<>();

    private final Path store;
    private final Path lockFile;
    private final ReentrantReadWriteLock jvmLock = new ReentrantReadWriteLock();
    private final Object osMonitor = new Object();
    private final Object channelMonitor = new Object();
    private FileChannel channel;
    private boolean closed;
    private FileLock sharedOsLock;
    private int sharedHolders;
    private int references;

    private StoreLock(Path store) {
        this.store = store;
        this.lockFile = store.resolve(FILE_NAME);
    }

    /** Something held, released by {@link #close()}. */
    public interface Held extends AutoCloseable {
        /** Releases the lock. */
        @Override
        void close();
    }

    /**
     * The lock of {@code store} (a real path), counted as one more user until {@link #release()}.
     *
     * @throws IOException if the lock file cannot be created or opened
     */
    public static StoreLock acquire(Path store) throws IOException {
        synchronized (OPEN) {
            StoreLock lock = OPEN.get(store);
            if (lock == null) {
                lock = new StoreLock(store);
                lock.channel = lock.openChannel();
                OPEN.put(store, lock);
            }
            lock.references++;
            return lock;
        }
    }

    /** Gives up one use; the last one closes the lock file. */
    public void release() {
        synchronized (OPEN) {
            if (--references > 0) {
                return;
            }
            OPEN.remove(store);
            // Wait for any holder in this JVM to finish before closing the channel that carries its OS lock.
            // Holders never take the OPEN monitor, so waiting here while holding it cannot deadlock.
            jvmLock.writeLock().lock();
            try {
                synchronized (channelMonitor) {
                    closed = true;
                    channel.close();
                }
            } catch (IOException e) {
                throw new StorageException("Cannot close the lock file " + lockFile + ": " + e.getMessage(), e);
            } finally {
                jvmLock.writeLock().unlock();
            }
        }
    }

    private FileChannel openChannel() throws IOException {
        return FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    /**
     * Takes the lock exclusively: no other writer or reader, in this JVM or another process, until closed.
     * Must not be called by a thread holding the shared lock.
     */
    public Held exclusive() {
        if (jvmLock.getReadHoldCount() > 0 && !jvmLock.isWriteLockedByCurrentThread()) {
            throw new IllegalStateException("a shared holder cannot upgrade to exclusive");
        }
        jvmLock.writeLock().lock();
        if (jvmLock.getWriteHoldCount() > 1) {
            return () -> jvmLock.writeLock().unlock();
        }
        FileLock osLock;
        try {
            osLock = lockOs(false);
        } catch (RuntimeException | Error e) {
            jvmLock.writeLock().unlock();
            throw e;
        }
        return () -> {
            try {
                osLock.release();
            } catch (IOException e) {
                throw new StorageException("Cannot release the lock on " + lockFile + ": " + e.getMessage(), e);
            } finally {
                jvmLock.writeLock().unlock();
            }
        };
    }

    /** Takes the lock shared: writers wait until every reader has closed it. */
    public Held shared() {
        jvmLock.readLock().lock();
        if (jvmLock.isWriteLockedByCurrentThread()) {
            // Already exclusive: the OS lock we hold covers this reader too.
            return () -> jvmLock.readLock().unlock();
        }
        try {
            synchronized (osMonitor) {
                if (sharedHolders == 0) {
                    sharedOsLock = lockOs(true);
                }
                sharedHolders++;
            }
        } catch (RuntimeException | Error e) {
            jvmLock.readLock().unlock();
            throw e;
        }
        return () -> {
            try {
                synchronized (osMonitor) {
                    if (--sharedHolders == 0) {
                        FileLock held = sharedOsLock;
                        sharedOsLock = null;
                        held.release();
                    }
                }
            } catch (IOException e) {
                throw new StorageException("Cannot release the lock on " + lockFile + ": " + e.getMessage(), e);
            } finally {
                jvmLock.readLock().unlock();
            }
        };
    }

    /** Called while no OS lock of this JVM is held on the file, so reopening a channel lost to an interrupt is safe. */
    private FileLock lockOs(boolean shared) {
        // An interrupt during FileChannel.lock closes the channel for every user; take the lock uninterrupted.
        boolean interrupted = Thread.interrupted();
        try {
            for (int attempt = 0; ; attempt++) {
                try {
                    FileChannel current;
                    synchronized (channelMonitor) {
                        if (closed) {
                            throw new BackendUnavailableException("The file store at " + store + " is closed.");
                        }
                        if (!channel.isOpen()) {
                            channel = openChannel();
                        }
                        current = channel;
                    }
                    return current.lock(0, Long.MAX_VALUE, shared);
                } catch (ClosedChannelException e) {
                    if (attempt >= 3) {
                        throw new BackendUnavailableException("Cannot lock " + lockFile + ": the lock file was closed.", e);
                    }
                    interrupted |= Thread.interrupted();
                } catch (IOException e) {
                    throw new BackendUnavailableException("Cannot lock " + lockFile + ": " + e.getMessage()
                            + ". Check that the directory is writable and on a file system that supports locks.", e);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
