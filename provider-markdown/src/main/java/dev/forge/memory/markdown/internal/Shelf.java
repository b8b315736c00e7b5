package dev.forge.memory.markdown.internal;

import dev.forge.memory.InvalidKeyException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.Scope;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.spi.Keys;
import dev.forge.memory.spi.files.AtomicFiles;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The index of one directory of memory files, all of one scope: every readable {@code mem_*.md} file by name and by
 * id, the chain of each key, and the files that could not be read, with the reason.
 *
 * <p>Not thread-safe: the provider guards it. {@link #scan} brings it in step with the disk by reading only the files
 * that are new or whose size or modification time changed, so that a rescan costs a directory listing and a
 * {@code stat} per file.
 */
final class Shelf {

    private static final Logger LOG = LoggerFactory.getLogger(Shelf.class);

    private final Scope scope;
    private final Path directory;
    private final Map<String, IndexedFile> byName = new HashMap<>();
    private final Map<String, IndexedFile> byId = new HashMap<>();
    private final Map<String, Map<String, IndexedFile>> byKey = new HashMap<>();
    private final Map<String, Chain> chains = new HashMap<>();
    private final Map<String, StoreProblem> unreadable = new TreeMap<>();
    // An unreadable file is read again only when its size or modification time changes.
    private final Map<String, String> unreadableStamps = new HashMap<>();
    private FileTime directoryModified;

    Shelf(Scope scope, Path directory) {
        this.scope = scope;
        this.directory = directory;
    }

    Scope scope() {
        return scope;
    }

    Path directory() {
        return directory;
    }

    /** The chain of {@code key}, or null if no version of it is here. */
    Chain chain(String key) {
        return chains.get(key);
    }

    /** Every chain. */
    Collection<Chain> chains() {
        return chains.values();
    }

    /** The readable file with this id, or null. */
    IndexedFile byId(String id) {
        return byId.get(id);
    }

    /** The modification time of the directory when it was last scanned (null before, or if it did not exist). */
    FileTime directoryModified() {
        return directoryModified;
    }

    /** Records that the index is in step with the directory as of its modification time {@code modified}. */
    void directoryScanned(FileTime modified) {
        directoryModified = modified;
    }

    /** The directory's modification time now, or null if it does not exist. */
    FileTime currentDirectoryModified() {
        try {
            return Files.getLastModifiedTime(directory);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Brings the index in step with the directory: reads new and changed files, forgets removed ones, relinks the
     * chains of the keys involved. Files that cannot be read are skipped, logged once and reported by
     * {@link #problems()}.
     *
     * @return whether anything changed
     * @throws IOException if the directory exists but cannot be listed
     */
    boolean scan(long maxFileSize) throws IOException {
        FileTime modifiedBefore = currentDirectoryModified();
        Set<String> present = new HashSet<>();
        Set<String> touchedKeys = new HashSet<>();
        boolean changed = false;
        // The directory itself may be a symbolic link (a memory directory kept with dotfiles); its files may not.
        if (Files.exists(directory) && !Files.isDirectory(directory)) {
            throw new IOException(directory + " is not a directory");
        }
        if (Files.isDirectory(directory)) {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
                for (Path path : files) {
                    String name = path.getFileName().toString();
                    if (!MemoryFileCodec.isMemoryFileName(name)) {
                        continue;
                    }
                    BasicFileAttributes attributes;
                    try {
                        attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    } catch (NoSuchFileException e) {
                        continue; // removed while listing
                    }
                    present.add(name);
                    IndexedFile known = byName.get(name);
                    if (known != null && known.size() == attributes.size()
                            && known.modified().equals(attributes.lastModifiedTime())) {
                        continue;
                    }
                    if (known == null && stamp(attributes).equals(unreadableStamps.get(name))) {
                        continue;
                    }
                    changed = true;
                    forget(name, touchedKeys);
                    read(path, attributes, maxFileSize, touchedKeys);
                }
            }
        }
        for (String name : new ArrayList<>(byName.keySet())) {
            if (!present.contains(name)) {
                changed = true;
                forget(name, touchedKeys);
            }
        }
        unreadable.keySet().retainAll(present);
        unreadableStamps.keySet().retainAll(present);
        relink(touchedKeys);
        directoryModified = modifiedBefore;
        return changed;
    }

    private static String stamp(BasicFileAttributes attributes) {
        return attributes.size() + "@" + attributes.lastModifiedTime();
    }

    private void read(Path path, BasicFileAttributes attributes, long maxFileSize, Set<String> touchedKeys) {
        String name = path.getFileName().toString();
        String problem;
        try {
            if (!attributes.isRegularFile()) {
                problem = "not a regular file (a link or a directory), so it is not read";
            } else if (attributes.size() > maxFileSize) {
                problem = "larger than max_file_size (" + attributes.size() + " > " + maxFileSize + " bytes), so it is not read";
            } else {
                byte[] bytes = AtomicFiles.readAtMost(path, (int) maxFileSize + 1);
                if (bytes.length > maxFileSize) {
                    throw new MemoryFileException("larger than max_file_size (" + maxFileSize + " bytes), so it is not read", null);
                }
                MemoryFile file = MemoryFileCodec.parse(bytes, name, attributes.lastModifiedTime().toInstant());
                problem = check(file, name);
                if (problem == null) {
                    MemoryEntry entry = Entries.toEntry(file, scope);
                    put(new IndexedFile(path, attributes.size(), attributes.lastModifiedTime(), file, entry), touchedKeys);
                    return;
                }
            }
        } catch (NoSuchFileException e) {
            return; // removed since it was listed: the next scan agrees
        } catch (MemoryFileException e) {
            problem = e.getMessage();
        } catch (MemoryException | IllegalArgumentException e) {
            problem = "its content is not a valid memory: " + e.getMessage();
        } catch (IOException e) {
            problem = "cannot be read: " + e;
        }
        LOG.warn("Skipping memory file {}: {}", path, problem);
        unreadable.put(name, new StoreProblem(path.toString(), problem));
        unreadableStamps.put(name, stamp(attributes));
    }

    /** Why a parsed file cannot be used, or null if it can. */
    private static String check(MemoryFile file, String name) {
        if (!(file.id() + ".md").equals(name)) {
            return "its id '" + file.id() + "' does not match the file name: rename the file to " + file.id()
                    + ".md or fix the id (a copied memory needs a new id)";
        }
        try {
            Keys.validate(file.key());
        } catch (InvalidKeyException e) {
            return "its key is not valid: " + e.getMessage();
        }
        return null;
    }

    /** Adds a file this provider wrote or rewrote; the caller relinks its key. */
    void put(IndexedFile file, Set<String> touchedKeys) {
        forget(file.name(), touchedKeys);
        byName.put(file.name(), file);
        byKey.computeIfAbsent(file.file().key(), k -> new HashMap<>()).put(file.name(), file);
        byId.put(file.id(), file); // ids are file names, so unique in a directory
        touchedKeys.add(file.file().key());
    }

    /** Adds or replaces one file and relinks its key. */
    void put(IndexedFile file) {
        Set<String> touched = new HashSet<>();
        put(file, touched);
        relink(touched);
    }

    /** Forgets the files named, after this provider removed them, and relinks their keys. */
    void remove(Collection<String> names) {
        Set<String> touched = new HashSet<>();
        for (String name : names) {
            forget(name, touched);
        }
        relink(touched);
    }

    private void forget(String name, Set<String> touchedKeys) {
        unreadable.remove(name);
        unreadableStamps.remove(name);
        IndexedFile known = byName.remove(name);
        if (known != null) {
            byId.remove(known.id(), known);
            Map<String, IndexedFile> ofKey = byKey.get(known.file().key());
            ofKey.remove(name);
            if (ofKey.isEmpty()) {
                byKey.remove(known.file().key());
            }
            touchedKeys.add(known.file().key());
        }
    }

    private void relink(Set<String> keys) {
        for (String key : keys) {
            Map<String, IndexedFile> ofKey = byKey.get(key);
            if (ofKey == null) {
                chains.remove(key);
            } else {
                chains.put(key, Chain.of(key, new ArrayList<>(ofKey.values())));
            }
        }
    }

    /** What is wrong here: unreadable files, then broken chains, in a stable order. */
    List<StoreProblem> problems() {
        List<StoreProblem> problems = new ArrayList<>(unreadable.values());
        new TreeMap<>(chains).forEach((key, chain) -> {
            for (String problem : chain.problems()) {
                problems.add(new StoreProblem(directory + " (key '" + Keys.abbreviate(key) + "', "
                        + scope.name().toLowerCase(Locale.ROOT) + ")", problem));
            }
        });
        return problems;
    }
}
