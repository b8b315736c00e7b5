package dev.forge.memory.markdown.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.StorageException;
import dev.forge.memory.support.files.Interrupts;
import dev.forge.memory.support.files.StoreLock;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How the calls of one markdown store reach its files: one at a time under the index lock, after the index caught up
 * with the disk; writes also under the root's {@link StoreLock}, scanning again once they hold it (so that two
 * processes never write two versions on one head) and, with git on, committed before the lock is let go.
 */
final class StoreAccess {

    private final String provider;
    private final Shelves shelves;
    private final VersionFiles files;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile boolean closed;
    // The roots whose leftover temporary files this provider removed, at its first write to each.
    private final Set<Root> cleaned = new HashSet<>();
    // The roots whose restore leftovers this provider removed with every file read: no write needs to look again.
    private final Set<Root> tidied = new HashSet<>();

    StoreAccess(String provider, Shelves shelves, VersionFiles files) {
        this.provider = provider;
        this.shelves = shelves;
        this.files = files;
    }

    /**
     * Fails if the store is closed.
     *
     * @throws BackendUnavailableException if it is
     */
    void checkOpen() {
        if (closed) {
            throw new BackendUnavailableException("This " + provider + " provider is closed; open a new one.");
        }
    }

    /**
     * Runs {@code work} holding the index lock, after bringing the index in step with the disk, every file of every
     * directory read.
     */
    <T> T locked(String what, Supplier<T> work) {
        return locked(what, null, null, work);
    }

    /**
     * Runs {@code work}, which reads or writes only {@code key} in {@code shelf}, holding the index lock, after
     * bringing the index in step with the disk: of the files not read yet, only that key's are read (see
     * {@link Admission}).
     */
    <T> T locked(String what, Shelf shelf, String key, Supplier<T> work) {
        checkOpen();
        return Interrupts.deferred(() -> {
            lock.lock();
            try {
                checkOpen();
                if (shelf == null) {
                    shelves.byLookup().forEach(Shelf::admitAll);
                } else {
                    shelf.admit(key);
                }
                catchUp(what);
                return work.get();
            } finally {
                lock.unlock();
            }
        });
    }

    /**
     * Runs {@code work} holding the index lock and the lock of {@code root}, in step with the disk; with git on,
     * then commits the files it changed with the message {@code commit} makes of its result (or, if it failed part
     * way, with {@code what}), still holding the lock.
     */
    <T> T writing(Root root, String what, Function<? super T, String> commit, IoWork<T> work) {
        return writing(root, what, null, null, commit, work);
    }

    /**
     * As {@link #writing(Root, String, Function, IoWork)}, for {@code work} that reads and writes only {@code key} in
     * {@code shelf}: of the files not read yet, only that key's are read.
     */
    <T> T writing(Root root, String what, Shelf shelf, String key, Function<? super T, String> commit,
            IoWork<T> work) {
        return locked(what, shelf, key, () -> {
            try (StoreLock.Held held = root.exclusive()) {
                root.beginWrite();
                if (cleaned.add(root)) {
                    files.removeTemporaryFiles(root);
                }
                catchUp(what);
                if (!tidied.contains(root)) {
                    // After the catch-up: found by reading the chains, so only those of the keys read so far.
                    files.removeRestoreLeftovers(root);
                    if (shelves.under(root).stream().allMatch(Shelf::complete)) {
                        tidied.add(root);
                    }
                }
                T result;
                try {
                    result = work.run();
                } catch (IOException | RuntimeException e) {
                    root.endWrite(what + " (failed part way: " + e.getClass().getSimpleName() + ")");
                    throw e;
                }
                root.endWrite(commit.apply(result));
                return result;
            } catch (IOException e) {
                throw new StorageException("Cannot " + what + " in " + root.directory() + ": " + e + ". Check the "
                        + "directory's permissions and free space. A change of one file was not made; clear and "
                        + "purge may have been partly done (run them again).", e);
            }
        });
    }

    private void catchUp(String what) {
        try {
            boolean changed = catchUp(shelves.projectRoot, shelves.project, shelves.session);
            changed |= catchUp(shelves.globalRoot, shelves.global);
            if (changed) {
                shelves.changed();
            }
        } catch (IOException e) {
            throw new BackendUnavailableException("Cannot " + what + ": the memory directories cannot be read ("
                    + e + "). Check that they exist and are readable.", e);
        }
    }

    /**
     * Scans what changed under {@code root}: every shelf when another writer announced a change, else the shelves
     * whose directory time moved (a person's edit). Scans hold the root's lock shared, because listing a directory
     * is no snapshot: a listing during a purge could miss the head and keep an older version.
     */
    private static boolean catchUp(Root root, Shelf... shelves) throws IOException {
        boolean announced = root.changedGeneration() != null;
        if (!announced && Arrays.stream(shelves).noneMatch(s -> s.mayHaveChanged() || s.admissionPending())) {
            return false;
        }
        try (StoreLock.Held held = root.sharedIfPresent()) {
            String generation = root.generation();
            boolean changed = false;
            for (Shelf shelf : shelves) {
                if (announced || shelf.mayHaveChanged()) {
                    changed |= shelf.scan();
                } else if (shelf.admissionPending()) {
                    changed |= shelf.readAdmitted(); // the last listing still holds: no need to list again
                }
            }
            root.seen(generation);
            return changed;
        }
    }

    /** Scans every directory of the store, reading every file whose size or modification time changed. */
    void scanAll() throws IOException {
        scan(shelves.projectRoot, shelves.project, shelves.session);
        scan(shelves.globalRoot, shelves.global);
    }

    private static void scan(Root root, Shelf... shelves) throws IOException {
        try (StoreLock.Held held = root.sharedIfPresent()) {
            String generation = root.generation();
            for (Shelf shelf : shelves) {
                shelf.scan();
            }
            root.seen(generation);
        }
    }

    /**
     * Scans every directory again, reading every file whose size or modification time changed: picks up files a
     * person edited in place while the store was open.
     */
    void refresh() {
        locked("refresh the index", () -> {
            try {
                scanAll();
            } catch (IOException e) {
                throw new BackendUnavailableException("Cannot refresh the markdown memories: " + e + ".", e);
            }
            shelves.changed();
            return null;
        });
    }

    /** Closes the store: releases the locks; later calls fail with {@link BackendUnavailableException}. */
    void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            shelves.projectRoot.release();
            shelves.globalRoot.release();
        } finally {
            lock.unlock();
        }
    }

    boolean isClosed() {
        return closed;
    }
}
