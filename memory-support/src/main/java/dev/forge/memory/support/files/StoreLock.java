package dev.forge.memory.support.files;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.StorageException;
import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.FileLockInterruptionException;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lock of one store directory for one provider: an OS file lock on {@code <store>/.lock} against other
 * processes, combined with a read-write lock shared by every provider of this JVM on the same lock file.
 *
 * <p>Writers hold it exclusively; readers that catch up with the journal hold it shared. Inside the JVM the
 * read-write lock decides who may go; the OS lock (exclusive for a writer, one shared lock for all readers of
 * this JVM together) keeps other processes out. Both are needed: the OS lock is per process, and a second
 * {@link FileChannel#lock()} on the same file in one JVM fails with an {@link OverlappingFileLockException}.
 *
 * <p>The JVM-wide part is found by the lock file's identity (device and inode, or its real path where the file
 * system has no file keys), not by the path the store was opened with, so that one directory reached by two paths
 * (a bind mount) has one lock. There is exactly one channel per lock file per JVM, because on POSIX closing any
 * descriptor of a file drops every lock the process holds on it. After taking the OS lock, the holder checks that
 * {@code .lock} on disk is still the file it locked: if the directory was deleted and recreated, or the lock file
 * replaced, while the store was open, it lets go and locks the new file instead, as new processes do.
 */
public final class StoreLock {

    /** The name of the lock file in the store directory. */
    public static final String FILE_NAME = ".lock";

    private static final Logger LOG = LoggerFactory.getLogger(StoreLock.class);

    // Lock files open in this JVM, by identity. Its monitor is held only briefly: never while waiting for a lock.
    private static final Map<Object, LockFile> OPEN = new HashMap<>();

    private final Path store;
    private final Path lockPath;
    // Guarded by this.
    private LockFile current;
    private boolean released;

    private StoreLock(Path store) {
        this.store = store;
        this.lockPath = store.resolve(FILE_NAME);
    }

    /** Something held, released by {@link #close()}. */
    public interface Held extends AutoCloseable {
        /** Releases the lock. */
        @Override
        void close();
    }

    /**
     * The lock of {@code store} (a real path), usable until {@link #release()}.
     *
     * @throws IOException if the lock file cannot be created or opened
     */
    public static StoreLock acquire(Path store) throws IOException {
        StoreLock lock = new StoreLock(store);
        lock.current = LockFile.open(lock.lockPath);
        return lock;
    }

    /** Gives the lock up; the last user of a lock file in this JVM closes it. Idempotent. */
    public void release() {
        LockFile file;
        synchronized (this) {
            if (released) {
                return;
            }
            released = true;
            file = current;
        }
        file.release();
    }

    private synchronized LockFile current() {
        if (released) {
            throw new BackendUnavailableException("The file store at " + store + " is closed.");
        }
        return current;
    }

    /** The lock file on disk is no longer {@code stale}: use the one that is there now. */
    private void replaced(LockFile stale) {
        LockFile next;
        try {
            next = LockFile.open(lockPath);
        } catch (IOException e) {
            throw new BackendUnavailableException("The lock file " + lockPath + " was removed while the store was open, and it "
                    + "cannot be created again: " + e + ". Check that the store directory still exists.", e);
        }
        LockFile dropped;
        synchronized (this) {
            if (!released && current == stale) {
                LOG.warn("The lock file {} was replaced (was the store directory deleted and created again?); locking the new one",
                        lockPath);
                current = next;
                dropped = stale;
            } else {
                dropped = next;
            }
        }
        dropped.release();
    }

    /**
     * Takes the lock exclusively: no other writer or reader, in this JVM or another process, until closed.
     * Must not be called by a thread holding the shared lock.
     */
    public Held exclusive() {
        while (true) {
            LockFile file = current();
            ReentrantReadWriteLock jvmLock = file.jvmLock;
            if (jvmLock.getReadHoldCount() > 0 && !jvmLock.isWriteLockedByCurrentThread()) {
                throw new IllegalStateException("a shared holder cannot upgrade to exclusive");
            }
            jvmLock.writeLock().lock();
            if (jvmLock.getWriteHoldCount() > 1) {
                return () -> jvmLock.writeLock().unlock();
            }
            FileLock osLock;
            boolean stale;
            try {
                osLock = file.lockExclusive();
                try {
                    stale = !file.isAt(lockPath);
                } catch (RuntimeException | Error e) {
                    if (osLock != null) {
                        file.releaseOs(osLock);
                    }
                    throw e;
                }
                if (osLock != null && stale) {
                    file.releaseOs(osLock);
                    osLock = null;
                }
            } catch (RuntimeException | Error e) {
                jvmLock.writeLock().unlock();
                throw e;
            }
            if (osLock != null) {
                FileLock held = osLock;
                return () -> {
                    try {
                        file.releaseOs(held);
                    } finally {
                        jvmLock.writeLock().unlock();
                    }
                };
            }
            jvmLock.writeLock().unlock();
            if (stale) {
                replaced(file);
            }
        }
    }

    /** Takes the lock shared: writers wait until every reader has closed it. */
    public Held shared() {
        while (true) {
            LockFile file = current();
            ReentrantReadWriteLock jvmLock = file.jvmLock;
            jvmLock.readLock().lock();
            if (jvmLock.isWriteLockedByCurrentThread()) {
                // Already exclusive: the OS lock we hold covers this reader too.
                return () -> jvmLock.readLock().unlock();
            }
            boolean held;
            boolean stale;
            try {
                held = file.holdShared();
                try {
                    stale = !file.isAt(lockPath);
                } catch (RuntimeException | Error e) {
                    if (held) {
                        file.releaseShared();
                    }
                    throw e;
                }
                if (held && stale) {
                    file.releaseShared();
                    held = false;
                }
            } catch (RuntimeException | Error e) {
                jvmLock.readLock().unlock();
                throw e;
            }
            if (held) {
                return () -> {
                    try {
                        file.releaseShared();
                    } finally {
                        jvmLock.readLock().unlock();
                    }
                };
            }
            jvmLock.readLock().unlock();
            if (stale) {
                replaced(file);
            }
        }
    }

    /** One lock file (one inode) in this JVM: its only channel, the JVM-wide read-write lock, and its users. */
    private static final class LockFile {
        final Object key;
        final Path path;
        final ReentrantReadWriteLock jvmLock = new ReentrantReadWriteLock();
        // Guards channel, closed, sharedOsLock and sharedHolders.
        final Object monitor = new Object();
        FileChannel channel;
        boolean closed;
        FileLock sharedOsLock;
        int sharedHolders;
        // Guarded by OPEN.
        int references;
        CountDownLatch closing;

        private LockFile(Object key, Path path, FileChannel channel) {
            this.key = key;
            this.path = path;
            this.channel = channel;
        }

        /** The lock file at {@code path}, counted as one more user. Waits if this JVM is just closing it. */
        static LockFile open(Path path) throws IOException {
            while (true) {
                CountDownLatch closing;
                synchronized (OPEN) {
                    Object key = identity(create(path));
                    if (key == null) {
                        continue; // removed again at once; create it again
                    }
                    LockFile file = OPEN.get(key);
                    if (file == null) {
                        FileChannel channel = openChannel(path);
                        if (!key.equals(identity(path))) {
                            // Replaced between the stat and the open; we cannot tell which file the channel has.
                            channel.close();
                            continue;
                        }
                        file = new LockFile(key, path, channel);
                        OPEN.put(key, file);
                    }
                    if (file.closing == null) {
                        file.references++;
                        return file;
                    }
                    closing = file.closing;
                }
                awaitUninterruptibly(closing);
            }
        }

        private static Path create(Path path) throws IOException {
            try {
                Files.createFile(path, AtomicFiles.privateFile(path));
            } catch (FileAlreadyExistsException e) {
                // the usual case
            }
            return path;
        }

        private static FileChannel openChannel(Path path) throws IOException {
            return FileChannel.open(path, Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE),
                    AtomicFiles.privateFile(path));
        }

        /** The file's identity: its file key, or its real path where the file system has none; null if it is gone. */
        private static Object identity(Path path) throws IOException {
            try {
                Object key = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
                return key != null ? key : path.toRealPath();
            } catch (NoSuchFileException e) {
                return null;
            }
        }

        /** Whether {@code .lock} on disk is still this file. One {@code stat}. */
        boolean isAt(Path lockPath) {
            try {
                return key.equals(identity(lockPath));
            } catch (IOException e) {
                throw new BackendUnavailableException("Cannot check the lock file " + lockPath + ": " + e + ".", e);
            }
        }

        /** One user fewer; the last waits for every holder in this JVM to finish, then closes the channel. */
        void release() {
            synchronized (OPEN) {
                if (--references > 0) {
                    return;
                }
                closing = new CountDownLatch(1);
            }
            jvmLock.writeLock().lock();
            try {
                synchronized (monitor) {
                    closed = true;
                    channel.close();
                }
            } catch (IOException e) {
                LOG.warn("Cannot close the lock file {}: {}", path, e.toString());
            } finally {
                jvmLock.writeLock().unlock();
                synchronized (OPEN) {
                    OPEN.remove(key, this);
                }
                closing.countDown();
            }
        }

        /** The exclusive OS lock, or null if the lock file was closed or replaced meanwhile. Called holding the JVM write lock. */
        FileLock lockExclusive() {
            synchronized (monitor) {
                return lockOs(false);
            }
        }

        /** One more holder of the shared OS lock; false if the lock file was closed or replaced meanwhile. */
        boolean holdShared() {
            synchronized (monitor) {
                if (sharedHolders == 0) {
                    FileLock lock = lockOs(true);
                    if (lock == null) {
                        return false;
                    }
                    sharedOsLock = lock;
                }
                sharedHolders++;
                return true;
            }
        }

        void releaseShared() {
            synchronized (monitor) {
                if (--sharedHolders == 0) {
                    FileLock held = sharedOsLock;
                    sharedOsLock = null;
                    releaseOs(held);
                }
            }
        }

        void releaseOs(FileLock lock) {
            try {
                lock.release();
            } catch (IOException e) {
                throw new StorageException("Cannot release the lock on " + path + ": " + e + ".", e);
            }
        }

        /**
         * Takes the OS lock; called under {@link #monitor} while no OS lock of this JVM is held on the file, so that
         * reopening a channel an interrupt closed is safe. An interrupt does not stop the wait: it closes the
         * channel, which is reopened, and the flag is set again on return.
         */
        private FileLock lockOs(boolean shared) {
            boolean interrupted = Thread.interrupted();
            try {
                for (int attempt = 1; ; attempt++) {
                    if (closed) {
                        return null;
                    }
                    try {
                        if (!channel.isOpen()) {
                            channel = openChannel(path);
                            if (!key.equals(identity(path))) {
                                // Replaced as well: the caller finds that out and moves to the new file.
                                channel.close();
                                return null;
                            }
                        }
                        return channel.lock(0, Long.MAX_VALUE, shared);
                    } catch (AsynchronousCloseException | FileLockInterruptionException e) {
                        // An interrupt (ClosedByInterruptException, or FileLockInterruptionException while waiting)
                        // closed the channel; reopen it and wait again.
                        Thread.interrupted();
                        interrupted = true;
                        if (attempt >= Interrupts.MAX_ATTEMPTS) {
                            throw new BackendUnavailableException("Interrupted " + attempt + " times while waiting for the lock on "
                                    + path + "; nothing was changed. The thread's interrupt flag is set.", e);
                        }
                    } catch (OverlappingFileLockException e) {
                        throw new BackendUnavailableException("The lock file " + path + " is already locked by other code in this JVM "
                                + "through another channel; nothing was changed. Only forge-memory may lock it.", e);
                    } catch (IOException e) {
                        throw new BackendUnavailableException("Cannot lock " + path + ": " + e
                                + ". Check that the directory is writable and on a file system that supports locks.", e);
                    }
                }
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        private static void awaitUninterruptibly(CountDownLatch latch) {
            boolean interrupted = false;
            while (true) {
                try {
                    latch.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public String toString() {
            return "LockFile[" + path + ", " + Objects.toString(key) + "]";
        }
    }
}
