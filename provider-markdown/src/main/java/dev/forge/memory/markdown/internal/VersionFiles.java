package dev.forge.memory.markdown.internal;

import dev.forge.memory.StorageException;
import dev.forge.memory.support.files.AtomicFiles;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes and removes the version files of a markdown store, keeping the index and the other processes told: every
 * file written or removed is indexed (or forgotten) at once and announced through its root's generation file. Used
 * holding the index lock and the root's store lock.
 */
final class VersionFiles {

    private static final Logger LOG = LoggerFactory.getLogger(VersionFiles.class);

    private final Shelves shelves;
    private final Clock clock;
    private final String sessionId;
    private final boolean fsync;

    VersionFiles(Shelves shelves, Clock clock, String sessionId, boolean fsync) {
        this.shelves = shelves;
        this.clock = clock;
        this.sessionId = sessionId;
        this.fsync = fsync;
    }

    /** The time a write records, to the millisecond a memory file holds. */
    Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    /** The session that writes: named in every version file it writes. */
    String sessionId() {
        return sessionId;
    }

    boolean fsync() {
        return fsync;
    }

    /** Writes a new version file into {@code shelf}, announces it and indexes it. */
    IndexedFile create(Root root, Shelf shelf, MemoryFile file) throws IOException {
        AtomicFiles.createDirectories(shelf.directory(), fsync);
        Path path = shelf.directory().resolve(file.id() + ".md");
        try {
            AtomicFiles.create(shelf.directory(), path, MemoryFileCodec.serialize(file), fsync);
        } catch (FileAlreadyExistsException e) {
            throw new StorageException("A memory file named " + path.getFileName() + " exists already; ids are never "
                    + "reused, so nothing was written. Try again.", e);
        }
        return indexWritten(root, shelf, path, file);
    }

    /** Replaces a file in place (relations changed), announces it and indexes it. */
    IndexedFile rewrite(Root root, Shelf shelf, IndexedFile old, MemoryFile file) throws IOException {
        AtomicFiles.write(shelf.directory(), old.path(), MemoryFileCodec.serialize(file), fsync);
        return indexWritten(root, shelf, old.path(), file);
    }

    /**
     * Indexes a file just written and announces it. The file is in place, so nothing after this fails the call: a
     * caller that retried would write a second version.
     */
    private IndexedFile indexWritten(Root root, Shelf shelf, Path path, MemoryFile file) {
        root.changed(path);
        try {
            root.bump();
        } catch (IOException e) {
            LOG.warn("Cannot announce a change in {} ({}); other providers see it when they next scan", root.directory(),
                    e.toString());
        }
        long size = -1;
        FileTime modified = FileTime.fromMillis(0);
        try {
            BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            size = attributes.size();
            modified = attributes.lastModifiedTime();
        } catch (IOException e) {
            LOG.debug("Cannot read the attributes of {}; it is read again at the next scan", path, e);
        }
        IndexedFile indexed = new IndexedFile(path, size, modified, file, Entries.toEntry(file, shelf.scope()));
        shelf.put(indexed);
        shelf.directoryScanned(shelf.currentDirectoryModified());
        shelves.changed();
        return indexed;
    }

    /** Removes every file of {@code chains}, their unfinished versions too; see {@link #ordered}. */
    void removeFiles(Root root, Shelf shelf, List<Chain> chains) throws IOException {
        List<IndexedFile> files = new ArrayList<>();
        for (Chain chain : chains) {
            files.addAll(shelf.unfinished(chain.key()));
            files.addAll(ordered(chain));
        }
        deleteFiles(root, shelf, files);
    }

    /**
     * Every file of {@code chain}: off-chain files first, then the line oldest first and the head last, so that a
     * reader (or a crash) part way through a removal sees the key as it was, never an older version as its head.
     */
    static List<IndexedFile> ordered(Chain chain) {
        List<IndexedFile> order = new ArrayList<>(chain.members());
        order.removeAll(chain.line());
        order.addAll(chain.line());
        return order;
    }

    /** Deletes {@code files} in this order, forgets them and announces it. */
    void deleteFiles(Root root, Shelf shelf, List<IndexedFile> files) throws IOException {
        if (files.isEmpty()) {
            return;
        }
        List<String> names = new ArrayList<>();
        try {
            for (IndexedFile file : files) {
                try {
                    Files.delete(file.path());
                } catch (NoSuchFileException e) {
                    // removed by hand meanwhile: gone all the same
                }
                names.add(file.name());
                root.changed(file.path());
            }
            if (fsync) {
                AtomicFiles.syncDirectory(shelf.directory());
            }
        } finally {
            if (!names.isEmpty()) {
                shelf.remove(names);
                shelf.directoryScanned(shelf.currentDirectoryModified());
                shelves.changed();
                root.bump();
            }
        }
    }

    /** Removes the temporary files crashed writers left in the directories of {@code root}; holding its lock. */
    void removeTemporaryFiles(Root root) throws IOException {
        for (Shelf shelf : shelves.under(root)) {
            if (Files.isDirectory(shelf.directory())) {
                AtomicFiles.removeStaleTempFiles(shelf.directory());
            }
        }
    }

    /**
     * Removes what restores that crashed left in the directories of {@code root}, holding its lock: versions whose
     * head was never written, and versions a written head replaced. Readers ignore both already.
     */
    void removeRestoreLeftovers(Root root) throws IOException {
        for (Shelf shelf : shelves.under(root)) {
            List<IndexedFile> leftovers = shelf.restoreLeftovers();
            if (!leftovers.isEmpty()) {
                LOG.info("Removing {} memory files left by a restore that did not finish in {}", leftovers.size(),
                        shelf.directory());
                deleteFiles(root, shelf, leftovers);
            }
        }
    }
}
