package dev.forge.memory.file.internal;

import dev.forge.memory.support.files.AtomicFiles;
import dev.forge.memory.support.files.ParallelReads;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.ValueTooLargeException;
import dev.forge.memory.Keys;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entry files of a store: where each lives, and reading, writing, scanning and removing them.
 *
 * <p>The entry of key {@code k} in namespace {@code ns} is {@code <store>/<ns>/<Keys.toFileName(k)>.json} (or
 * {@code .json.gz}); its earlier versions are {@code <store>/<ns>/.history/<name>/<version>.json}. Both
 * encodings are read whatever the configured one is, so switching {@code compression} keeps old files
 * readable; a write in one encoding removes the file in the other.
 *
 * <p>Writes and removals register how to undo each step with a {@link FileChanges}. An overwrite keeps the
 * replaced file as history by a hard link, not by writing it again. Symbolic links under {@code .history} are
 * never followed: a linked history directory is moved aside before a write, and ignored by reads and removals.
 */
public final class EntryFiles {

    private static final Logger LOG = LoggerFactory.getLogger(EntryFiles.class);

    /** The directory, inside a namespace, that holds earlier versions. */
    public static final String HISTORY_DIRECTORY = ".history";

    private static final String PLAIN = ".json";
    private static final String GZIP = ".json.gz";

    private final Path store;
    private final boolean gzip;
    private final boolean fsync;
    private final long maxFileSize;
    // Entry files read so far; what a test counts to tell that a call read only the files it needs.
    private final java.util.concurrent.atomic.LongAdder filesRead = new java.util.concurrent.atomic.LongAdder();

    /**
     * The entry files of the store in {@code store}.
     *
     * @param gzip        whether new files are gzip-compressed
     * @param fsync       whether writes are forced to the disk
     * @param maxFileSize the largest encoded entry file a write may produce
     */
    public EntryFiles(Path store, boolean gzip, boolean fsync, long maxFileSize) {
        this.store = store;
        this.gzip = gzip;
        this.fsync = fsync;
        this.maxFileSize = maxFileSize;
    }

    /** What reading one entry file gave: an entry, or the problem that kept it from being one. */
    public record Loaded(MemoryEntry entry, Path file, String problem) {
        /** Whether the file held a valid entry. */
        public boolean ok() {
            return entry != null;
        }

        /** The error a caller of {@code get} receives for a damaged file. */
        public CorruptEntryException corruption(String key) {
            return corrupt(file, key, problem);
        }
    }

    /** The error for a damaged file: names it, says it was left in place, and what to do. */
    public static CorruptEntryException corrupt(Path file, String key, String problem) {
        return new CorruptEntryException("The entry file " + file + (key == null ? "" : " of key '" + Keys.abbreviate(key) + "'")
                + " cannot be read: " + problem + ". The file was left in place; repair or remove it, or store the key again,"
                + " which first moves the damaged file aside to " + file.getFileName() + AtomicFiles.CORRUPT_INFIX + "<timestamp>.");
    }

    /** The directory of a namespace. */
    public Path directory(Namespace namespace) {
        return namespace.directory(store);
    }

    /** The file a write of {@code name} in {@code namespace} goes to. */
    public Path target(Namespace namespace, String name) {
        return directory(namespace).resolve(name + (gzip ? GZIP : PLAIN));
    }

    private Path other(Namespace namespace, String name) {
        return directory(namespace).resolve(name + (gzip ? PLAIN : GZIP));
    }

    /**
     * The existing entry file of {@code name}: a regular file, in the configured encoding if both are there; else
     * whatever else is under one of its names (a link that leads nowhere, a directory), which {@link #load} reports as
     * unreadable rather than as no entry at all.
     */
    public Optional<Path> existing(Namespace namespace, String name) {
        Path target = target(namespace, name);
        Path other = other(namespace, name);
        for (Path file : List.of(target, other)) {
            if (Files.isRegularFile(file)) {
                return Optional.of(file);
            }
        }
        for (Path file : List.of(target, other)) {
            if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                return Optional.of(file);
            }
        }
        return Optional.empty();
    }

    /**
     * Why reading {@code file} failed with {@code e}, as a damaged file's problem; empty if the file is gone (removed
     * while it was listed or read), which is no problem. A file that is there but cannot be read (no permission, a
     * link loop, a directory, an I/O error) is reported, so that one such file never fails a whole directory.
     */
    static Optional<String> readFailure(Path file, IOException e) {
        if (e instanceof NoSuchFileException || !Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        return Optional.of("reading it failed (" + e + "); check that it is a regular file this process may read");
    }

    /**
     * Reads the entry of {@code name}, if a file exists, checking that it is the entry the name stands for (the
     * key maps to this name and the scope matches the namespace). A file that cannot be read is a damaged one.
     */
    public Optional<Loaded> load(Namespace namespace, String name) throws IOException {
        Optional<Path> file = existing(namespace, name);
        if (file.isEmpty()) {
            return Optional.empty();
        }
        return Optional.ofNullable(read(namespace, name, file.get()));
    }

    /** How many entry files this store read since it opened (current entries, not history). */
    public long filesRead() {
        return filesRead.sum();
    }

    /** What {@code file} holds, or null if it is gone. */
    private Loaded read(Namespace namespace, String name, Path file) {
        MemoryEntry entry;
        filesRead.increment();
        try {
            entry = EntryCodec.read(file);
        } catch (EntryCodec.MalformedException e) {
            return new Loaded(null, file, e.getMessage());
        } catch (IOException e) {
            return readFailure(file, e).map(problem -> new Loaded(null, file, problem)).orElse(null);
        }
        if (entry.scope() != namespace.scope()) {
            return new Loaded(null, file, "it holds an entry of scope " + entry.scope().id() + " but lies in the "
                    + namespace.scope().id() + " directory");
        }
        if (!Keys.toFileName(entry.key()).equals(name)) {
            return new Loaded(null, file, "it holds key '" + Keys.abbreviate(entry.key()) + "', which is not stored under this file name");
        }
        return new Loaded(entry, file, null);
    }

    /**
     * Every entry file of a namespace, by file name without extension; damaged and unreadable ones included, as such,
     * so that no single file can fail the scan.
     */
    public Map<String, Loaded> scan(Namespace namespace) throws IOException {
        Map<String, Loaded> found = new HashMap<>();
        Path directory = directory(namespace);
        if (!Files.isDirectory(directory)) {
            return found;
        }
        // Both encodings of a name count once: the one load() would read.
        Set<String> names = new LinkedHashSet<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path file : files) {
                String name = stem(file.getFileName().toString());
                if (name != null && Namespace.isFileNameOfKey(name)) {
                    names.add(name);
                }
            }
        }
        // Reading and parsing is most of an open's work: on several threads.
        List<String> listed = List.copyOf(names);
        List<Loaded> loaded = ParallelReads.map(listed,
                name -> existing(namespace, name).map(file -> read(namespace, name, file)).orElse(null));
        for (int i = 0; i < listed.size(); i++) {
            if (loaded.get(i) != null) { // else removed while we listed the directory
                found.put(listed.get(i), loaded.get(i));
            }
        }
        return found;
    }

    private static String stem(String fileName) {
        if (fileName.endsWith(GZIP)) {
            return fileName.substring(0, fileName.length() - GZIP.length());
        }
        if (fileName.endsWith(PLAIN)) {
            return fileName.substring(0, fileName.length() - PLAIN.length());
        }
        return null;
    }

    private static String extension(Path file) {
        return file.getFileName().toString().endsWith(GZIP) ? GZIP : PLAIN;
    }

    /**
     * Encodes an entry for writing, checking the file size limit.
     *
     * @throws ValueTooLargeException if the encoded file is over {@code max_file_size}
     */
    public byte[] encode(MemoryEntry entry) {
        byte[] bytes = EntryCodec.encode(entry, gzip);
        if (bytes.length > maxFileSize) {
            throw new ValueTooLargeException("The entry file of key '" + Keys.abbreviate(entry.key()) + "' would be " + bytes.length
                    + " bytes" + (gzip ? " compressed" : "") + "; this store's limit is " + maxFileSize
                    + " bytes (config key max_file_size). Store a smaller value, or raise max_file_size. Nothing was written.");
        }
        return bytes;
    }

    /**
     * Writes {@code bytes} as the current entry file of {@code name} atomically, keeping {@code previous} as an
     * earlier version, and removes the file in the other encoding. Without {@code previous}, history left by an
     * earlier life of the key is removed (versions restart at 1).
     *
     * @param previousOnDisk whether the existing file holds exactly {@code previous}, so that it is kept by a hard
     *                       link rather than written again
     */
    public void write(Namespace namespace, String name, Optional<MemoryEntry> previous, boolean previousOnDisk, byte[] bytes,
                      FileChanges changes) throws IOException {
        Path directory = directory(namespace);
        AtomicFiles.createDirectories(directory, fsync);
        Path target = target(namespace, name);
        Optional<Path> old = existing(namespace, name);
        boolean replacing = old.isPresent() && old.get().equals(target);
        // A second name of the file being replaced, to restore it from if a later step fails.
        Path restore = null;
        if (previous.isPresent()) {
            Path versions = historyDirectory(namespace, name);
            Path history;
            if (previousOnDisk && old.isPresent()) {
                history = versions.resolve(previous.get().version() + extension(old.get()));
                AtomicFiles.link(old.get(), history, directory, fsync);
                restore = history;
            } else {
                history = versions.resolve(previous.get().version() + (gzip ? GZIP : PLAIN));
                AtomicFiles.put(directory, history, EntryCodec.encode(previous.get(), gzip), fsync);
            }
            changes.onUndo(() -> Files.deleteIfExists(history));
            if (fsync) {
                AtomicFiles.syncDirectory(versions);
            }
        } else {
            trashHistory(namespace, name, changes);
        }
        if (replacing && restore == null) {
            Path backup = AtomicFiles.tempName(directory);
            AtomicFiles.link(old.get(), backup, directory, false);
            changes.onUndo(() -> Files.deleteIfExists(backup));
            changes.onComplete(() -> Files.deleteIfExists(backup));
            restore = backup;
        }
        // Each undo step is registered once its step happened, so that undoing never touches what was in the way.
        AtomicFiles.put(directory, target, bytes, fsync);
        if (replacing) {
            Path source = restore;
            changes.onUndo(() -> {
                AtomicFiles.link(source, target, directory, fsync);
                sync(namespace);
            });
        } else {
            changes.onUndo(() -> Files.deleteIfExists(target));
        }
        Path other = other(namespace, name);
        if (Files.exists(other, LinkOption.NOFOLLOW_LINKS)) {
            changes.trash(other, directory);
        }
        sync(namespace);
    }

    /**
     * Removes the entry files of {@code name} (both encodings) and its history: renamed out of the way now,
     * deleted when the write completes. Call {@link #sync} afterwards.
     *
     * @return whether there was a file
     */
    public boolean remove(Namespace namespace, String name, FileChanges changes) throws IOException {
        Path directory = directory(namespace);
        boolean removed = false;
        for (Path file : List.of(target(namespace, name), other(namespace, name))) {
            if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                changes.trash(file, directory);
                removed = true;
            }
        }
        trashHistory(namespace, name, changes);
        return removed;
    }

    /**
     * Makes {@code earlier} the whole history of {@code name}, replacing what it had: the version files are written
     * into a temporary directory, forced to the disk, and the directory is renamed into place, so that the history
     * directory never holds a part of the new versions. The old history is renamed out of the way, deleted when
     * the write completes. Call after {@link #write} with no previous entry, which removes the old history first.
     */
    public void replaceHistory(Namespace namespace, String name, List<MemoryEntry> earlier, FileChanges changes) throws IOException {
        trashHistory(namespace, name, changes);
        if (earlier.isEmpty()) {
            return;
        }
        Path directory = directory(namespace);
        Path staging = AtomicFiles.tempName(directory);
        // A temporary name in the namespace directory: left by a crash, it is removed at the next open.
        changes.onUndo(() -> AtomicFiles.deleteTree(staging));
        AtomicFiles.createDirectories(staging, false);
        for (MemoryEntry version : earlier) {
            AtomicFiles.put(staging, staging.resolve(version.version() + (gzip ? GZIP : PLAIN)), EntryCodec.encode(version, gzip), fsync);
        }
        if (fsync) {
            AtomicFiles.syncDirectory(staging);
        }
        Path base = realDirectory(directory.resolve(HISTORY_DIRECTORY));
        Path versions = base.resolve(name);
        Files.move(staging, versions, StandardCopyOption.ATOMIC_MOVE);
        // Registered once the rename happened: a failed rename means something else is in the way, not to be touched.
        changes.onUndo(() -> AtomicFiles.deleteTree(versions));
        if (fsync) {
            AtomicFiles.syncDirectory(base);
            sync(namespace);
        }
    }

    /** Forces the renames and removals in a namespace's directory to the disk, when {@code fsync}. */
    public void sync(Namespace namespace) throws IOException {
        if (fsync) {
            AtomicFiles.syncDirectory(directory(namespace));
        }
    }

    private void trashHistory(Namespace namespace, String name, FileChanges changes) throws IOException {
        Path base = directory(namespace).resolve(HISTORY_DIRECTORY);
        if (!Files.isDirectory(base, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Path versions = base.resolve(name);
        if (Files.exists(versions, LinkOption.NOFOLLOW_LINKS)) {
            changes.trash(versions, directory(namespace));
        }
    }

    /** The history directory of {@code name}, created if needed; a link or file in the way of it is moved aside. */
    private Path historyDirectory(Namespace namespace, String name) throws IOException {
        Path base = realDirectory(directory(namespace).resolve(HISTORY_DIRECTORY));
        return realDirectory(base.resolve(name));
    }

    private Path realDirectory(Path directory) throws IOException {
        if (Files.exists(directory, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
            Path aside = AtomicFiles.moveAside(directory, Instant.now());
            LOG.warn("{} is not a directory (a symbolic link or a file); moved it aside to {} instead of writing through it",
                    directory, aside.getFileName());
        }
        AtomicFiles.createDirectories(directory, fsync);
        return directory;
    }

    /**
     * Every version of the key whose current entry is {@code current}, oldest first, ending with {@code current}.
     * Files of versions at or above the current one are leftovers of an earlier life of the key and skipped; a
     * history directory that is a symbolic link is not followed.
     *
     * @throws CorruptEntryException if a version file is damaged
     */
    public List<MemoryEntry> versions(Namespace namespace, String name, MemoryEntry current) throws IOException {
        Path base = directory(namespace).resolve(HISTORY_DIRECTORY);
        Path versions = base.resolve(name);
        Map<Long, MemoryEntry> found = new HashMap<>();
        if (Files.isDirectory(base, LinkOption.NOFOLLOW_LINKS) && Files.isDirectory(versions, LinkOption.NOFOLLOW_LINKS)) {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(versions)) {
                for (Path file : files) {
                    String stem = stem(file.getFileName().toString());
                    long version = parseVersion(stem);
                    if (version < 1 || version >= current.version()) {
                        continue;
                    }
                    MemoryEntry entry;
                    try {
                        entry = EntryCodec.read(file);
                    } catch (EntryCodec.MalformedException e) {
                        throw corrupt(file, current.key(), e.getMessage());
                    } catch (IOException e) {
                        Optional<String> problem = readFailure(file, e);
                        if (problem.isEmpty()) {
                            continue;
                        }
                        throw corrupt(file, current.key(), problem.get());
                    }
                    if (!entry.key().equals(current.key()) || entry.scope() != current.scope() || entry.version() != version) {
                        throw corrupt(file, current.key(), "it holds " + entry + ", not version " + version + " of this key");
                    }
                    MemoryEntry earlier = found.get(version);
                    if (earlier == null || file.getFileName().toString().endsWith(gzip ? GZIP : PLAIN)) {
                        found.put(version, entry);
                    }
                }
            } catch (NoSuchFileException e) {
                // the key's history was removed while we read it
            }
        }
        List<MemoryEntry> result = new ArrayList<>(found.values());
        result.sort(Comparator.comparingLong(MemoryEntry::version));
        result.add(current);
        return result;
    }

    private static long parseVersion(String stem) {
        if (stem == null || stem.isEmpty() || stem.length() > 18) {
            return -1;
        }
        for (int i = 0; i < stem.length(); i++) {
            if (stem.charAt(i) < '0' || stem.charAt(i) > '9') {
                return -1;
            }
        }
        return Long.parseLong(stem);
    }

    /**
     * Moves a damaged entry file, and the history of its key, aside to {@code NAME.corrupt-TIMESTAMP} (moved back
     * if the write is undone). Logged as a warning, since the data is kept but no longer read.
     */
    public void moveAside(Namespace namespace, String name, Instant now, FileChanges changes) throws IOException {
        List<Path> paths = new ArrayList<>(List.of(target(namespace, name), other(namespace, name)));
        Path base = directory(namespace).resolve(HISTORY_DIRECTORY);
        if (Files.isDirectory(base, LinkOption.NOFOLLOW_LINKS)) {
            paths.add(base.resolve(name));
        }
        for (Path file : paths) {
            if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                Path aside = AtomicFiles.moveAside(file, now);
                changes.onUndo(() -> Files.move(aside, file));
                LOG.warn("Moved the damaged entry file {} (or its history) aside to {} before replacing it", file, aside.getFileName());
            }
        }
        sync(namespace);
    }

    /** Removes temporary files of writes that never finished. Call only under the exclusive store lock. */
    public void removeStaleTempFiles(Namespace namespace) throws IOException {
        AtomicFiles.removeStaleTempFiles(directory(namespace));
    }

    /** Removes a namespace's directory if nothing is left in it (an ended session). */
    public void removeIfEmpty(Namespace namespace) throws IOException {
        Path directory = directory(namespace);
        try {
            Files.deleteIfExists(directory.resolve(HISTORY_DIRECTORY));
            Files.deleteIfExists(directory);
            if (namespace.scope() == Scope.SESSION) {
                Files.deleteIfExists(directory.getParent());
            }
        } catch (DirectoryNotEmptyException e) {
            // something is left, so the directory stays
        }
    }
}
