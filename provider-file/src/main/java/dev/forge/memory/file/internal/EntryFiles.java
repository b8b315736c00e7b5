package dev.forge.memory.file.internal;

import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.ValueTooLargeException;
import dev.forge.memory.spi.Keys;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entry files of a store: where each lives, and reading, writing, scanning and removing them.
 *
 * <p>The entry of key {@code k} in namespace {@code ns} is {@code <store>/<ns>/<Keys.toFileName(k)>.json} (or
 * {@code .json.gz}); its earlier versions are {@code <store>/<ns>/.history/<name>/<version>.json}. Both
 * encodings are read whatever the configured one is, so switching {@code compression} keeps old files
 * readable; a write in one encoding removes the file in the other.
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

    /** The existing file of {@code name}, preferring the configured encoding. */
    public Optional<Path> existing(Namespace namespace, String name) {
        Path target = target(namespace, name);
        if (Files.exists(target)) {
            return Optional.of(target);
        }
        Path other = other(namespace, name);
        return Files.exists(other) ? Optional.of(other) : Optional.empty();
    }

    /**
     * Reads the entry of {@code name}, if a file exists, checking that it is the entry the name stands for (the
     * key maps to this name and the scope matches the namespace).
     */
    public Optional<Loaded> load(Namespace namespace, String name) throws IOException {
        Optional<Path> file = existing(namespace, name);
        if (file.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(read(namespace, name, file.get()));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    private Loaded read(Namespace namespace, String name, Path file) throws IOException {
        MemoryEntry entry;
        try {
            entry = EntryCodec.read(file);
        } catch (EntryCodec.MalformedException e) {
            return new Loaded(null, file, e.getMessage());
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

    /** Every entry file of a namespace, by file name without extension; damaged ones included, as such. */
    public Map<String, Loaded> scan(Namespace namespace) throws IOException {
        Map<String, Loaded> found = new HashMap<>();
        Path directory = directory(namespace);
        if (!Files.isDirectory(directory)) {
            return found;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path file : files) {
                String fileName = file.getFileName().toString();
                String name = stem(fileName);
                if (name == null || !Namespace.isFileNameOfKey(name) || !Files.isRegularFile(file)) {
                    continue;
                }
                boolean preferred = fileName.endsWith(gzip ? GZIP : PLAIN);
                Loaded earlier = found.get(name);
                if (earlier != null && !preferred) {
                    continue;
                }
                try {
                    found.put(name, read(namespace, name, file));
                } catch (NoSuchFileException e) {
                    // removed while we listed the directory
                }
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

    /** Writes the current entry file of {@code name} atomically, then removes its file in the other encoding. */
    public void writeCurrent(Namespace namespace, String name, byte[] bytes) throws IOException {
        Path directory = directory(namespace);
        ensureDirectory(directory);
        AtomicFiles.write(directory, target(namespace, name), bytes, fsync);
        Files.deleteIfExists(other(namespace, name));
    }

    /** Keeps {@code previous} as an earlier version of {@code name}. */
    public void writeHistory(Namespace namespace, String name, MemoryEntry previous) throws IOException {
        Path directory = directory(namespace);
        Path versions = historyDirectory(namespace, name);
        ensureDirectory(versions);
        String file = previous.version() + (gzip ? GZIP : PLAIN);
        AtomicFiles.write(directory, versions.resolve(file), EntryCodec.encode(previous, gzip), fsync);
    }

    /** Creates a directory and, when forcing writes to disk, the entries of the new directories in their parents. */
    private void ensureDirectory(Path directory) throws IOException {
        if (Files.isDirectory(directory)) {
            return;
        }
        Path existing = directory;
        while (existing != null && !Files.isDirectory(existing)) {
            existing = existing.getParent();
        }
        Files.createDirectories(directory);
        if (fsync) {
            for (Path created = directory.getParent(); created != null; created = created.getParent()) {
                AtomicFiles.syncDirectory(created);
                if (created.equals(existing)) {
                    break;
                }
            }
        }
    }

    private Path historyDirectory(Namespace namespace, String name) {
        return directory(namespace).resolve(HISTORY_DIRECTORY).resolve(name);
    }

    /**
     * Every version of the key whose current entry is {@code current}, oldest first, ending with {@code current}.
     * Files of versions at or above the current one are leftovers of an earlier life of the key and skipped.
     *
     * @throws CorruptEntryException if a version file is damaged
     */
    public List<MemoryEntry> versions(Namespace namespace, String name, MemoryEntry current) throws IOException {
        Path versions = historyDirectory(namespace, name);
        Map<Long, MemoryEntry> found = new HashMap<>();
        if (Files.isDirectory(versions)) {
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
                    } catch (NoSuchFileException e) {
                        continue;
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

    /** Removes the entry file of {@code name} (both encodings) and its history; returns whether a file was there. */
    public boolean delete(Namespace namespace, String name) throws IOException {
        boolean removed = Files.deleteIfExists(target(namespace, name));
        removed |= Files.deleteIfExists(other(namespace, name));
        deleteHistory(namespace, name);
        return removed;
    }

    /** Removes the history of {@code name}, if any. */
    public void deleteHistory(Namespace namespace, String name) throws IOException {
        AtomicFiles.deleteTree(historyDirectory(namespace, name));
    }

    /**
     * Moves a damaged entry file, and the history of its key, aside to {@code NAME.corrupt-TIMESTAMP}. Logged as a
     * warning, since the data is kept but no longer read.
     */
    public void moveAside(Namespace namespace, String name, Instant now) throws IOException {
        for (Path file : List.of(target(namespace, name), other(namespace, name))) {
            if (Files.exists(file)) {
                Path aside = AtomicFiles.moveAside(file, now);
                LOG.warn("Moved the damaged entry file {} aside to {} before replacing it", file, aside.getFileName());
            }
        }
        Path history = historyDirectory(namespace, name);
        if (Files.isDirectory(history)) {
            Path aside = AtomicFiles.moveAside(history, now);
            LOG.warn("Moved the history {} of a damaged entry aside to {}", history, aside.getFileName());
        }
    }

    /**
     * Whether the existing file of {@code name} is damaged; used where the index cannot tell (recovery of a
     * commit in another namespace).
     */
    public boolean isDamaged(Namespace namespace, String name) throws IOException {
        Optional<Loaded> loaded = load(namespace, name);
        return loaded.isPresent() && !loaded.get().ok();
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
            if (namespace.scope() == dev.forge.memory.Scope.SESSION) {
                Files.deleteIfExists(directory.getParent());
            }
        } catch (DirectoryNotEmptyException e) {
            // something is left, so the directory stays
        }
    }
}
