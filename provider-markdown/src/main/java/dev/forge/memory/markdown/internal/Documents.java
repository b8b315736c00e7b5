package dev.forge.memory.markdown.internal;

import dev.forge.memory.InvalidKeyException;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryException;
import dev.forge.memory.Scope;
import dev.forge.memory.StorageException;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.EntryRules;
import dev.forge.memory.Keys;
import dev.forge.memory.support.files.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The documents of the layered layout: the file {@code <path>/<key>.md} of every {@linkplain LayeredPaths layered
 * key}, holding the key's current value byte for byte. The Forge plugin and people read and edit these files
 * directly, so a document is the truth for its key's current value; the key's version chain (in the hidden version
 * directory) keeps the history, tags, metadata and relations.
 *
 * <p>{@link #scan} walks the project directory (hidden directories skipped, at most {@value #MAX_DEPTH} levels) and
 * reads only documents whose size or modification time changed; structural files ({@code index.md}, ...) are
 * skipped, and other {@code .md} files are reported by {@link #problems()}, as are documents that cannot be read.
 * {@link #presented} says what a key shows when its document and its chain disagree.
 *
 * <p>Not thread-safe: the store guards it, like a {@link Shelf}.
 */
final class Documents {

    private static final Logger LOG = LoggerFactory.getLogger(Documents.class);

    /** How deep the walk goes: the deepest document is three directories down ({@code skills/s/p/}); one more for strays. */
    static final int MAX_DEPTH = 4;

    /**
     * A readable document.
     *
     * @param path     the file
     * @param size     its size when read
     * @param modified its modification time when read
     * @param value    its content
     */
    record Document(Path path, long size, FileTime modified, String value) {
    }

    private final Path root;
    private final long maxFileSize;
    private final Map<String, Document> byKey = new HashMap<>();
    private final Map<String, StoreProblem> unreadable = new HashMap<>();
    private final Map<String, String> unreadableStamps = new HashMap<>();
    private Map<String, StoreProblem> strays = Map.of();
    // Every directory walked, with its modification time before it was listed: a change to any means a new walk.
    private final Map<Path, FileTime> directories = new HashMap<>();
    private long newestDirectory = Long.MIN_VALUE;
    private boolean racy;

    Documents(Path root, long maxFileSize) {
        this.root = root;
        this.maxFileSize = maxFileSize;
    }

    /** The project directory the documents are in. */
    Path root() {
        return root;
    }

    /** The readable document of {@code key}, if there is one. */
    Optional<Document> document(String key) {
        return Optional.ofNullable(byKey.get(key));
    }

    /** Why the document of {@code key} cannot be read, if it is there and cannot. */
    Optional<StoreProblem> unreadable(String key) {
        return Optional.ofNullable(unreadable.get(key));
    }

    /** Whether any document cannot be read. */
    boolean anyUnreadable() {
        return !unreadable.isEmpty();
    }

    /** The keys of every readable document. */
    Set<String> keys() {
        return Set.copyOf(byKey.keySet());
    }

    /** Unreadable documents and {@code .md} files that are not at a layered path, by path. */
    List<StoreProblem> problems() {
        Map<String, StoreProblem> all = new TreeMap<>();
        unreadable.values().forEach(problem -> all.put(problem.location(), problem));
        strays.values().forEach(problem -> all.put(problem.location(), problem));
        return List.copyOf(all.values());
    }

    // ---- reading

    /**
     * Brings the index in step with the directory: reads new and changed documents, forgets removed ones.
     *
     * @return the keys whose document appeared, changed or went
     * @throws IOException if the directory exists but cannot be listed
     */
    Set<String> scan() throws IOException {
        if (Files.exists(root) && !Files.isDirectory(root)) {
            throw new IOException(root + " is not a directory");
        }
        long started = System.currentTimeMillis();
        Set<String> present = new HashSet<>();
        Set<String> touched = new HashSet<>();
        Map<String, StoreProblem> found = new HashMap<>();
        directories.clear();
        newestDirectory = Long.MIN_VALUE;
        if (Files.isDirectory(root)) {
            walk(root, "", 0, present, touched, found);
        }
        Set<String> known = new HashSet<>(byKey.keySet());
        known.addAll(unreadable.keySet());
        for (String key : known) {
            if (!present.contains(key)) {
                forget(key);
                touched.add(key);
            }
        }
        strays = Map.copyOf(found);
        racy = !directories.isEmpty() && started - newestDirectory < DirectoryTime.RACY_WINDOW_MILLIS;
        return touched;
    }

    private void walk(Path directory, String prefix, int depth, Set<String> present, Set<String> touched,
            Map<String, StoreProblem> found) throws IOException {
        try {
            noteDirectory(directory, Files.getLastModifiedTime(directory));
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
                for (Path path : entries) {
                    String name = path.getFileName().toString();
                    if (name.startsWith(".")) {
                        continue; // the version directory, the lock, editors' and tools' own files
                    }
                    BasicFileAttributes attributes;
                    try {
                        attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    } catch (NoSuchFileException e) {
                        continue; // removed while listing
                    }
                    String relative = prefix + name;
                    boolean documentPath = name.endsWith(LayeredPaths.SUFFIX) && !LayeredPaths.isStructural(name);
                    // A directory in a document's place is that document, unreadable: never a key's absence.
                    if (attributes.isDirectory() && !(documentPath && LayeredPaths.keyOf(relative).isPresent())) {
                        if (depth < MAX_DEPTH) {
                            walk(path, relative + "/", depth + 1, present, touched, found);
                        }
                    } else if (documentPath) {
                        Optional<String> key = LayeredPaths.keyOf(relative);
                        if (key.isPresent()) {
                            present.add(key.get());
                            visit(key.get(), path, attributes, touched);
                        } else {
                            found.put(relative, new StoreProblem(path.toString(), strayProblem(name)));
                        }
                    }
                }
            }
        } catch (NoSuchFileException e) {
            LOG.debug("{} was removed while it was read", directory);
        }
    }

    private static String strayProblem(String name) {
        if (MemoryFileCodec.isMemoryFileName(name)) {
            return "a version file of the standard layout, which the layered layout does not read here (its version "
                    + "files are in .forge/versions): move it there to keep it";
        }
        return "not a layered memory path (projects/<project>/<file>.md, skills/<skill>/<project>/<file>.md, "
                + "commands/<project>/<file>.md or agents/<agent>/<file>.md, each name a letter or digit, then "
                + "letters, digits, '.', '_' or '-'), so it is not read";
    }

    private void visit(String key, Path path, BasicFileAttributes attributes, Set<String> touched) {
        Document known = byKey.get(key);
        if (known != null && known.path().equals(path) && known.size() == attributes.size()
                && known.modified().equals(attributes.lastModifiedTime())) {
            return;
        }
        if (known == null && unreadableStamps.containsKey(key)
                && FileReads.stamp(path, attributes).equals(unreadableStamps.get(key))) {
            return;
        }
        touched.add(key);
        forget(key);
        read(key, path, attributes, null);
    }

    private void forget(String key) {
        byKey.remove(key);
        unreadable.remove(key);
        unreadableStamps.remove(key);
    }

    /** Reads a document; {@code before} is the problem it had, if any, so that one still there is not logged again. */
    private void read(String key, Path path, BasicFileAttributes attributes, StoreProblem before) {
        String problem;
        try {
            String value = MemoryFileCodec.decode(FileReads.readWithin(path, attributes, maxFileSize));
            EntryRules.checkValue(value, key, Limits.DEFAULT);
            byKey.put(key, new Document(path, attributes.size(), attributes.lastModifiedTime(), value));
            return;
        } catch (NoSuchFileException e) {
            return; // removed since it was listed: the next scan agrees
        } catch (MemoryFileException e) {
            problem = e.getMessage();
        } catch (MemoryException e) {
            problem = "its content cannot be a memory's value: " + e.getMessage();
        } catch (IOException e) {
            problem = "cannot be read: " + e;
        }
        if (before == null || !before.problem().equals(problem)) {
            LOG.warn("Skipping memory document {}: {}", path, problem);
        } else {
            LOG.debug("Memory document {} still cannot be read: {}", path, problem);
        }
        unreadable.put(key, new StoreProblem(path.toString(), problem));
        unreadableStamps.put(key, FileReads.stamp(path, attributes));
    }

    /**
     * Whether a directory may have changed since the walk: a directory's modification time moved (a document added,
     * removed or saved by renaming), the directory appeared, or a time too recent to trust has aged.
     */
    boolean mayHaveChanged() {
        if (directories.isEmpty()) {
            return Files.isDirectory(root);
        }
        for (Map.Entry<Path, FileTime> directory : directories.entrySet()) {
            if (!Objects.equals(modified(directory.getKey()), directory.getValue())) {
                return true;
            }
        }
        return racy && System.currentTimeMillis() - newestDirectory >= DirectoryTime.RACY_WINDOW_MILLIS;
    }

    private static FileTime modified(Path path) {
        try {
            return Files.getLastModifiedTime(path);
        } catch (IOException e) {
            return null;
        }
    }

    private void noteDirectory(Path directory, FileTime modified) {
        if (modified == null) {
            directories.remove(directory);
            return;
        }
        directories.put(directory, modified);
        newestDirectory = Math.max(newestDirectory, modified.toMillis());
        racy |= System.currentTimeMillis() - modified.toMillis() < DirectoryTime.RACY_WINDOW_MILLIS;
    }

    /**
     * Reads the document of {@code key} again, its content whatever its size and modification time say, and notes
     * whether it appeared or went: before a write builds on it, so that an edit made in place is never overwritten
     * unseen, not even one of the same size within the file system's time resolution.
     *
     * @return whether it changed
     */
    boolean recheck(String key) throws IOException {
        Optional<String> relative = LayeredPaths.documentPath(key);
        if (relative.isEmpty()) {
            return false;
        }
        Path path = root.resolve(relative.get());
        boolean known = byKey.containsKey(key) || unreadable.containsKey(key);
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            forget(key);
            return known;
        }
        if (!known && !spelledExactly(relative.get())) {
            return false; // another key's document, reached through a name differing in case
        }
        // Read the content whatever size and time say: an edit of the same size within the file system's time
        // resolution keeps both, and a write must never replace an edit it has not seen.
        Document before = byKey.get(key);
        StoreProblem problemBefore = unreadable.get(key);
        forget(key);
        read(key, path, attributes, problemBefore);
        return !Objects.equals(before, byKey.get(key)) || !Objects.equals(problemBefore, unreadable.get(key));
    }

    // ---- what a key shows

    /**
     * The version a key shows instead of its chain's head, or null if the chain shows as it is: the document's content
     * as the next version when the document differs from the head (or the chain is deleted, or there is no chain),
     * or a deletion when the chain is live and its document is gone. The version takes the head's tags, metadata,
     * relations and creation time when the head is live; its time is the document's modification time (or the head's
     * time, if that is later: a copy that kept an old time does not go back before the version it follows). It is never
     * written as it is: the next write records it in the chain with an id of its own.
     *
     * @param stored the key's chain of version files, or null
     */
    IndexedFile presented(String key, Chain stored, Scope scope) {
        if (!LayeredPaths.isLayered(key) || unreadable.containsKey(key)) {
            return null; // not a document, or one a person must fix first: the chain shows as it is
        }
        Document document = byKey.get(key);
        boolean live = stored != null && stored.live();
        if (document == null) {
            if (!live) {
                return null;
            }
            MemoryFile head = stored.head().file();
            MemoryFile deleted = Entries.tombstone(head, syntheticId(key, "deleted", head.id()), head.updatedAt(),
                    head.sessionId().orElse(""));
            return new IndexedFile(root.resolve(key + LayeredPaths.SUFFIX), -1, FileTime.fromMillis(0), deleted,
                    Entries.toEntry(deleted, scope));
        }
        if (live && document.value().equals(stored.head().file().body())) {
            return null;
        }
        MemoryFile head = stored == null ? null : stored.head().file();
        Instant modified = MemoryFile.timestamp(clamp(document.modified().toInstant()), "modified");
        if (head != null && modified.isBefore(head.updatedAt())) {
            modified = head.updatedAt(); // a copy that kept an old time: versions never go back in time
        }
        long version = head == null ? 1 : head.version() + 1;
        String id = syntheticId(key, document.size() + "@" + document.modified(), head == null ? "" : head.id());
        MemoryFile file = live
                ? new MemoryFile(id, key, head.createdAt(), modified, version, head.scope(), head.category(),
                        head.tags(), head.metadata(), Optional.of(head.id()), head.related(), head.sessionId(),
                        head.trigger(), false, List.of(), Optional.empty(), head.extra(), document.value())
                : new MemoryFile(id, key, modified, modified, version, Optional.of(Entries.scopeName(scope)),
                        Optional.empty(), List.of(), Map.of(), Optional.ofNullable(head).map(MemoryFile::id), List.of(),
                        Optional.empty(), Optional.empty(), false, List.of(), Optional.empty(), Map.of(),
                        document.value());
        return new IndexedFile(document.path(), document.size(), document.modified(), file, Entries.toEntry(file, scope));
    }

    private static Instant clamp(Instant time) {
        return time.isBefore(MemoryFile.EARLIEST) ? MemoryFile.EARLIEST
                : time.isAfter(MemoryFile.LATEST) ? MemoryFile.LATEST : time;
    }

    /** An id for a version that is shown but not written; the same for the same document and head. */
    private static String syntheticId(String key, String state, String head) {
        return MemoryFileCodec.ID_PREFIX + UUID.nameUUIDFromBytes((key + '\u0000' + state + '\u0000' + head)
                .getBytes(StandardCharsets.UTF_8));
    }

    // ---- writing (holding the root's lock)

    /**
     * Replaces the document of {@code key} with {@code value}, atomically ({@code 0600}, new directories {@code 0700}).
     *
     * @param temporaries a directory on the same file system for the temporary file (the version directory, whose
     *                    leftovers the store removes)
     * @throws InvalidKeyException if the path reaches another key's document (a name differing in case on a
     *                             case-insensitive file system)
     * @throws StorageException    if the path goes through a link or holds something other than a file
     */
    void write(String key, String value, Path temporaries, boolean fsync) throws IOException {
        String relative = LayeredPaths.documentPath(key).orElseThrow();
        checkWritable(key, relative);
        Path target = root.resolve(relative);
        AtomicFiles.createDirectories(target.getParent(), fsync);
        AtomicFiles.write(temporaries, target, value.getBytes(StandardCharsets.UTF_8), fsync);
        forget(key);
        BasicFileAttributes attributes = Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        byKey.put(key, new Document(target, attributes.size(), attributes.lastModifiedTime(), value));
        noteDirectories(target.getParent());
    }

    /**
     * Removes the document of {@code key}, if it is there under exactly its name (never another key's document
     * reached through a name differing in case, or a file behind a link).
     *
     * @return whether a file was removed
     */
    boolean delete(String key, boolean fsync) throws IOException {
        Optional<String> relative = LayeredPaths.documentPath(key);
        if (relative.isEmpty()) {
            return false;
        }
        Path target = root.resolve(relative.get());
        if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS) || !spelledExactly(relative.get())
                || throughLink(relative.get())) {
            forget(key);
            return false;
        }
        try {
            Files.delete(target);
        } catch (NoSuchFileException e) {
            forget(key);
            return false;
        }
        if (fsync) {
            AtomicFiles.syncDirectory(target.getParent());
        }
        forget(key);
        noteDirectories(target.getParent());
        return true;
    }

    /** Records the times of the directories from {@code directory} up to the root, after this store changed them. */
    private void noteDirectories(Path directory) {
        for (Path at = directory; at != null && at.startsWith(root); at = at.getParent()) {
            noteDirectory(at, modified(at));
        }
    }

    private void checkWritable(String key, String relative) throws IOException {
        Path at = root;
        String[] parts = relative.split("/");
        for (int i = 0; i < parts.length; i++) {
            Path next = at.resolve(parts[i]);
            if (!Files.exists(next, LinkOption.NOFOLLOW_LINKS)) {
                return; // created with exactly these names
            }
            Optional<String> listed = listedName(at, parts[i]);
            if (listed.isPresent() && !listed.get().equals(parts[i])) {
                throw new InvalidKeyException("Key '" + Keys.abbreviate(key) + "' would be stored in " + next + ", but "
                        + "this file system does not tell names apart by case and that is '" + listed.get() + "', the "
                        + "document of another key. Nothing was written. Use the existing name's case in the key.");
            }
            if (Files.isSymbolicLink(next)) {
                throw new StorageException("Cannot write key '" + Keys.abbreviate(key) + "': " + next + " is a symbolic "
                        + "link, and documents are not written through links. Nothing was written. Replace the link "
                        + "with a directory or file.");
            }
            boolean last = i == parts.length - 1;
            if (last ? !Files.isRegularFile(next, LinkOption.NOFOLLOW_LINKS)
                    : !Files.isDirectory(next, LinkOption.NOFOLLOW_LINKS)) {
                throw new StorageException("Cannot write key '" + Keys.abbreviate(key) + "': " + next + " is not a "
                        + (last ? "file" : "directory") + ". Nothing was written. Move it away and write again.");
            }
            at = next;
        }
    }

    /** Whether every name of {@code relative} is listed in its directory exactly as spelled. */
    private boolean spelledExactly(String relative) throws IOException {
        Path at = root;
        for (String part : relative.split("/")) {
            if (!listedName(at, part).map(part::equals).orElse(false)) {
                return false;
            }
            at = at.resolve(part);
        }
        return true;
    }

    private boolean throughLink(String relative) {
        Path at = root;
        for (String part : relative.split("/")) {
            at = at.resolve(part);
            if (Files.isSymbolicLink(at)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The name under which {@code directory} lists {@code name}: {@code name} itself if listed, else a name equal
     * to it ignoring case (what a case-insensitive file system opens for {@code name}), else empty.
     */
    static Optional<String> listedName(Path directory, String name) throws IOException {
        Optional<String> other = Optional.empty();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path entry : entries) {
                String listed = entry.getFileName().toString();
                if (listed.equals(name)) {
                    return Optional.of(listed);
                }
                if (other.isEmpty() && listed.equalsIgnoreCase(name)) {
                    other = Optional.of(listed);
                }
            }
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        return other;
    }

    @Override
    public String toString() {
        return "Documents[" + root + ", " + byKey.size() + " readable, " + unreadable.size() + " unreadable]";
    }
}
