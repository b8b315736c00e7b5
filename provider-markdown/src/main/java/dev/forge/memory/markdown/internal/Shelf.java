package dev.forge.memory.markdown.internal;

import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.Scope;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.Keys;
import dev.forge.memory.support.files.AtomicFiles;
import dev.forge.memory.support.files.ParallelReads;
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
import java.util.Optional;
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
    // The chain each key shows: its chain of version files, or, in the layered layout, that chain with the version its
    // document holds on top (see Documents#presented).
    private final Map<String, Chain> chains = new HashMap<>();
    // The chain of version files of each key.
    private final Map<String, Chain> stored = new HashMap<>();
    // The documents of the layered layout, for the PROJECT shelf in that layout; null otherwise.
    private final Documents documents;
    // Versions of a restore whose head was never written (it crashed), by key: not part of any chain.
    private final Map<String, List<IndexedFile>> unfinished = new HashMap<>();
    // Ids a restore replaced, to the version on a line that replaced them; built when asked, dropped at every relink.
    private Map<String, IndexedFile> aliases;
    // Ids a readable file here supersedes or replaces; built when asked, dropped at every relink.
    private Set<String> superseded;
    // The keys with a chain whose current version cannot be read (see unreadableHead); built when asked, dropped at
    // every relink.
    private Map<String, StoreProblem> heldBack;
    // The readable files that name no key (seed 000 and 003), whose key is their chain's.
    private final DerivedKeys keyless = new DerivedKeys();
    private final Map<String, StoreProblem> unreadable = new TreeMap<>();
    // An unreadable file is read again only when its size or modification time changes.
    private final Map<String, String> unreadableStamps = new HashMap<>();
    private final long maxFileSize;
    private final DirectoryTime time;
    // Memory files read so far, what a test counts to tell that a call read only the files it needs.
    private long filesRead;
    private final Admission admission = new Admission();

    Shelf(Scope scope, Path directory, long maxFileSize) {
        this(scope, directory, maxFileSize, null);
    }

    /** A shelf whose keys also show their {@code documents} (the PROJECT shelf of the layered layout). */
    Shelf(Scope scope, Path directory, long maxFileSize, Documents documents) {
        this.scope = scope;
        this.directory = directory;
        this.maxFileSize = maxFileSize;
        this.documents = documents;
        this.time = new DirectoryTime(directory);
        if (documents != null) {
            admission.admitAll(); // a document's key is no file name: the layered layout reads every file
        }
    }

    /** The documents the keys show, in the layered layout. */
    java.util.Optional<Documents> documents() {
        return java.util.Optional.ofNullable(documents);
    }

    Scope scope() {
        return scope;
    }

    Path directory() {
        return directory;
    }

    /** The chain {@code key} shows (with the version its document holds on top, if any), or null if none. */
    Chain chain(String key) {
        return chains.get(key);
    }

    /** The chain of {@code key}'s version files, or null if no version file of it is here. */
    Chain storedChain(String key) {
        return stored.get(key);
    }

    /** Every chain of version files. */
    Collection<Chain> storedChains() {
        return stored.values();
    }

    /**
     * Whether {@code key} shows a version that no file in this directory holds: the content of its document, or its
     * deletion by another tool (see {@link Documents#presented}). The next write records it first.
     */
    boolean showsDocument(String key) {
        return chains.get(key) != stored.get(key);
    }

    /** Shows the document of {@code key} as it is now, after the store wrote or removed it. */
    void documentChanged(String key) {
        relink(Set.of(key));
    }

    /** The versions of a restore of {@code key} whose head was never written; empty if none. */
    List<IndexedFile> unfinished(String key) {
        return unfinished.getOrDefault(key, List.of());
    }

    /** Every chain of a key whose current version can be read (see {@link #unreadableHead}). */
    Collection<Chain> chains() {
        Map<String, StoreProblem> held = heldBack();
        return held.isEmpty() ? chains.values()
                : chains.values().stream().filter(chain -> !held.containsKey(chain.key())).toList();
    }

    /**
     * Why the current version of {@code key} cannot be read, if it cannot: its document (layered layout) cannot be
     * read, or a version file whose id carries the key's fingerprint ({@link VersionIds}) cannot be read and no
     * readable version here supersedes it, so that it may be the newest. Such a key must show no version as current
     * (an older one would be taken for it), and no write may build on it (it would fork the chain). A file whose id
     * carries no fingerprint cannot be tied to a key: it is only reported.
     */
    Optional<StoreProblem> unreadableHead(String key) {
        Optional<StoreProblem> document = documents == null ? Optional.empty() : documents.unreadable(key);
        if (document.isPresent() || unreadable.isEmpty()) {
            return document;
        }
        for (Map.Entry<String, StoreProblem> file : unreadable.entrySet()) {
            String id = idOf(file.getKey());
            if (VersionIds.mayBelongTo(id, key) && !superseded().contains(id)) {
                return Optional.of(file.getValue());
            }
        }
        return Optional.empty();
    }

    /**
     * Refuses to read or write {@code key} while the file holding its current version cannot be read (see
     * {@link #unreadableHead}).
     *
     * @param what what was asked, for the message: {@code "write key 'x'"}
     * @throws CorruptEntryException naming the file
     */
    void requireReadableHead(String key, String what) {
        unreadableHead(key).ifPresent(problem -> {
            throw new CorruptEntryException("Cannot " + what + ": the current version of key '" + Keys.abbreviate(key)
                    + "' (" + scope.name().toLowerCase(Locale.ROOT) + ") is in " + problem.location() + ", which cannot "
                    + "be read (" + problem.problem() + "). Neither it nor an older version in its place is used, and "
                    + "nothing was written. Repair the file (its permissions or content) or move it out of the memory "
                    + "directory, then try again.");
        });
    }

    /** The chain {@code key} shows to readers: none while its current version cannot be read. */
    Chain readableChain(String key) {
        return unreadableHead(key).isPresent() ? null : chains.get(key);
    }

    private Map<String, StoreProblem> heldBack() {
        if (heldBack == null) {
            Map<String, StoreProblem> found = new HashMap<>();
            if (!unreadable.isEmpty() || documents != null && documents.anyUnreadable()) {
                for (String key : chains.keySet()) {
                    unreadableHead(key).ifPresent(problem -> found.put(key, problem));
                }
            }
            heldBack = found;
        }
        return heldBack;
    }

    private Set<String> superseded() {
        if (superseded == null) {
            Set<String> found = new HashSet<>();
            for (IndexedFile file : byName.values()) {
                file.file().supersedes().ifPresent(found::add);
                found.addAll(file.file().replaces());
            }
            superseded = found;
        }
        return superseded;
    }

    private static String idOf(String fileName) {
        return fileName.substring(0, fileName.length() - MemoryFileCodec.FILE_SUFFIX.length());
    }

    /** The readable file with this id, or null. */
    IndexedFile byId(String id) {
        return byId.get(id);
    }

    /** Records that the index is in step with the directory as of its modification time {@code modified}. */
    void directoryScanned(FileTime modified) {
        time.scanned(modified);
    }

    /** Whether the directory (or a document, in the layered layout) may have changed since it was scanned. */
    boolean mayHaveChanged() {
        return documents != null && documents.mayHaveChanged() || time.mayHaveChanged();
    }

    /** The directory's modification time now, or null if it does not exist. */
    FileTime currentDirectoryModified() {
        return time.current();
    }

    /**
     * Brings the index in step with the directory: reads new and changed files, forgets removed ones, relinks the
     * chains of the keys involved. Files that cannot be read are skipped, logged once and reported by
     * {@link #problems()}.
     *
     * @return whether anything changed
     * @throws IOException if the directory exists but cannot be listed
     */
    boolean scan() throws IOException {
        FileTime modifiedBefore = currentDirectoryModified();
        Set<String> present = new HashSet<>();
        Set<String> touchedKeys = new HashSet<>();
        boolean changed = false;
        List<FileReads.Listed> toRead = new ArrayList<>();
        // The directory itself may be a symbolic link (a memory directory kept with dotfiles); its files may not.
        if (Files.exists(directory) && !Files.isDirectory(directory)) {
            throw new IOException(directory + " is not a directory");
        }
        admission.listing();
        if (Files.isDirectory(directory)) {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
                for (Path path : files) {
                    String name = path.getFileName().toString();
                    if (!MemoryFileCodec.isMemoryFileName(name)) {
                        continue;
                    }
                    if (!admission.admits(name)) {
                        admission.held(name);
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
                    if (known == null && unreadableStamps.containsKey(name)
                            && FileReads.stamp(path, attributes).equals(unreadableStamps.get(name))) {
                        continue;
                    }
                    changed = true;
                    forget(name, touchedKeys);
                    toRead.add(new FileReads.Listed(path, attributes));
                }
            }
        }
        readAll(toRead, touchedKeys);
        for (String name : new ArrayList<>(byName.keySet())) {
            if (!present.contains(name)) {
                changed = true;
                forget(name, touchedKeys);
            }
        }
        unreadable.keySet().retainAll(present);
        unreadableStamps.keySet().retainAll(present);
        if (documents != null) {
            Set<String> documented = documents.scan();
            changed |= !documented.isEmpty();
            touchedKeys.addAll(documented);
        }
        relink(touchedKeys);
        directoryScanned(modifiedBefore);
        return changed;
    }

    /** Admits the files of {@code key} (see {@link Admission}); the next catch-up reads them. */
    void admit(String key) {
        admission.admit(key);
    }

    /** Admits every file; the next catch-up reads those not read yet. */
    void admitAll() {
        admission.admitAll();
    }

    /** Whether every file of the directory is read (as of the last catch-up). */
    boolean complete() {
        return admission.complete() && !admission.pending();
    }

    /** Whether files were admitted that were not read yet. */
    boolean admissionPending() {
        return admission.pending();
    }

    /**
     * Reads the files the last listing found that were admitted since: while the directory is unchanged, the files
     * of a key asked for, without listing it again.
     *
     * @return whether anything changed
     */
    boolean readAdmitted() throws IOException {
        List<FileReads.Listed> toRead = new ArrayList<>();
        for (String name : admission.takeAdmitted()) {
            Path path = directory.resolve(name);
            try {
                toRead.add(new FileReads.Listed(path, Files.readAttributes(path, BasicFileAttributes.class,
                        LinkOption.NOFOLLOW_LINKS)));
            } catch (NoSuchFileException e) {
                // removed since the listing, which left the directory's time moved: the next scan agrees
            }
        }
        if (toRead.isEmpty()) {
            return false;
        }
        Set<String> touchedKeys = new HashSet<>();
        readAll(toRead, touchedKeys);
        relink(touchedKeys);
        return true;
    }

    private void readAll(List<FileReads.Listed> toRead, Set<String> touchedKeys) {
        // Reading and parsing is most of an open's work, and needs nothing of the index: on several threads.
        List<FileReads.Parsed> parsed = ParallelReads.map(toRead, listed -> FileReads.parse(listed, maxFileSize));
        filesRead += toRead.size();
        for (int i = 0; i < toRead.size(); i++) {
            apply(toRead.get(i).path(), toRead.get(i).attributes(), parsed.get(i), touchedKeys);
        }
    }

    /** How many memory files this shelf read. */
    long filesRead() {
        return filesRead;
    }

    private void read(Path path, BasicFileAttributes attributes, Set<String> touchedKeys) {
        filesRead++;
        apply(path, attributes, FileReads.parse(new FileReads.Listed(path, attributes), maxFileSize), touchedKeys);
    }

    /** Puts a parsed file into the index, or records why it cannot be used. */
    private void apply(Path path, BasicFileAttributes attributes, FileReads.Parsed parsed, Set<String> touchedKeys) {
        if (parsed == FileReads.Parsed.GONE) {
            return; // removed since it was listed: the next scan agrees
        }
        String name = path.getFileName().toString();
        StoreProblem before = unreadable.get(name);
        String problem = parsed.problem();
        if (problem == null) {
            try {
                MemoryFile file = parsed.file();
                boolean derived = file.key().isEmpty();
                if (derived) {
                    file = Entries.withKey(file, keyless.keyOf(file, byId));
                }
                problem = FileReads.problemOf(file, name);
                if (problem == null) {
                    MemoryEntry entry = Entries.toEntry(file, scope);
                    put(new IndexedFile(path, attributes.size(), attributes.lastModifiedTime(), file, entry), touchedKeys);
                    if (derived) {
                        keyless.added(file.id());
                    }
                    return;
                }
            } catch (MemoryException | IllegalArgumentException e) {
                problem = "its content is not a valid memory: " + e.getMessage();
            }
        }
        if (before == null || !before.problem().equals(problem)) {
            LOG.warn("Skipping memory file {}: {}", path, problem);
        } else {
            LOG.debug("Memory file {} still cannot be read: {}", path, problem);
        }
        unreadable.put(name, new StoreProblem(path.toString(), problem));
        unreadableStamps.put(name, FileReads.stamp(path, attributes));
        heldBack = null;
    }

    /**
     * Gives every file that names no key its chain's key again, after such files came or went: a file read before
     * its predecessor, or a first version put back, changes the keys of the files after it.
     */
    private void rekey(Set<String> touchedKeys) {
        for (Map.Entry<String, String> changed : keyless.changedKeys(byId).entrySet()) {
            IndexedFile known = byId.get(changed.getKey());
            MemoryFile file = Entries.withKey(known.file(), changed.getValue());
            String problem = FileReads.problemOf(file, known.name());
            if (problem != null) {
                forget(known.name(), touchedKeys);
                unreadable.put(known.name(), new StoreProblem(known.path().toString(), problem));
                continue;
            }
            put(new IndexedFile(known.path(), known.size(), known.modified(), file,
                    known.entry() == null ? null : Entries.toEntry(file, scope)), touchedKeys);
            keyless.added(file.id());
        }
        keyless.settled();
    }

    /**
     * Reads again the files of {@code key} whose size or modification time changed since they were read (or that
     * are gone): before a write builds on them, so that an edit a person made in place is never overwritten or
     * ignored. Costs a {@code stat} per version of the key.
     */
    void recheck(String key) throws IOException {
        Set<String> touchedKeys = new HashSet<>();
        if (documents != null && documents.recheck(key)) {
            touchedKeys.add(key);
        }
        readUnreadableAgain(key, touchedKeys);
        Map<String, IndexedFile> ofKey = byKey.getOrDefault(key, Map.of());
        for (IndexedFile known : List.copyOf(ofKey.values())) {
            BasicFileAttributes attributes;
            try {
                attributes = Files.readAttributes(known.path(), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException e) {
                forget(known.name(), touchedKeys);
                continue;
            }
            if (known.size() != attributes.size() || !known.modified().equals(attributes.lastModifiedTime())) {
                forget(known.name(), touchedKeys);
                read(known.path(), attributes, touchedKeys);
            }
        }
        relink(touchedKeys);
    }

    /**
     * Reads again the files that keep {@code key}'s current version from being read (see {@link #unreadableHead}),
     * whatever their size and times say: a reader told to repair a file retries at once, and a repair of permissions
     * may change no time the directory scan watches. Failures leave the file as unreadable as it was.
     */
    void recheckUnreadable(String key) {
        if (unreadableHead(key).isEmpty()) {
            return;
        }
        Set<String> touchedKeys = new HashSet<>();
        try {
            if (documents != null && documents.unreadable(key).isPresent() && documents.recheck(key)) {
                touchedKeys.add(key);
            }
            readUnreadableAgain(key, touchedKeys);
        } catch (IOException e) {
            LOG.debug("Cannot look at the files of a memory again in {}", directory, e);
        }
        relink(touchedKeys);
    }

    private void readUnreadableAgain(String key, Set<String> touchedKeys) throws IOException {
        for (String name : List.copyOf(unreadable.keySet())) {
            if (!VersionIds.mayBelongTo(idOf(name), key)) {
                continue;
            }
            Path path = directory.resolve(name);
            BasicFileAttributes attributes;
            try {
                attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException e) {
                forget(name, touchedKeys);
                touchedKeys.add(key);
                continue;
            }
            read(path, attributes, touchedKeys);
            touchedKeys.add(key);
        }
    }

    /**
     * The entry a version holds. Only heads keep their bodies in memory; an older version is read from its file,
     * which is never changed by the provider. Null if the file cannot be read as it was indexed.
     */
    MemoryEntry entryOf(IndexedFile version) {
        if (version.entry() != null) {
            return version.entry();
        }
        filesRead++;
        try {
            MemoryFile file = MemoryFileCodec.parse(AtomicFiles.readAtMost(version.path(), Math.toIntExact(maxFileSize)),
                    version.name(), version.modified().toInstant());
            return Entries.toEntry(file.key().isEmpty() ? Entries.withKey(file, version.file().key()) : file, scope);
        } catch (IOException | MemoryFileException | MemoryException | IllegalArgumentException e) {
            LOG.warn("Cannot read version {} of a memory from {}: {}", version.file().version(), version.path(),
                    e.getMessage());
            return null;
        }
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
        superseded = null;
        keyless.removed(idOf(name));
        if (unreadable.remove(name) != null) {
            heldBack = null;
        }
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

    private void relink(Set<String> touched) {
        Set<String> keys = new HashSet<>(touched);
        rekey(keys);
        aliases = null;
        superseded = null;
        heldBack = null;
        for (String key : keys) {
            Map<String, IndexedFile> ofKey = byKey.get(key);
            Chain chain = link(key, ofKey);
            // An older version became the head again (a newer file was removed by hand): read its body back. If it
            // cannot be read any more it is dropped as unreadable and the chain is linked again, without it.
            Set<String> others = new HashSet<>();
            while (chain != null && chain.head().entry() == null) {
                IndexedFile head = chain.head();
                Set<String> ignored = new HashSet<>();
                forget(head.name(), ignored);
                try {
                    read(head.path(), Files.readAttributes(head.path(), BasicFileAttributes.class,
                            LinkOption.NOFOLLOW_LINKS), ignored);
                } catch (IOException e) {
                    LOG.debug("Version {} is gone", head.path(), e);
                }
                ignored.remove(key);
                others.addAll(ignored); // its key was edited: that key's chain changes too
                ofKey = byKey.get(key);
                chain = link(key, ofKey);
            }
            others.removeAll(keys);
            relink(others);
            if (chain == null) {
                stored.remove(key);
                show(key, null);
                continue;
            }
            boolean lightened = false;
            for (IndexedFile version : chain.members()) {
                if (version != chain.head() && version.entry() != null) {
                    IndexedFile light = version.withoutBody();
                    ofKey.put(light.name(), light);
                    byName.put(light.name(), light);
                    byId.put(light.id(), light);
                    lightened = true;
                }
            }
            Chain linked = lightened ? link(key, ofKey) : chain;
            stored.put(key, linked);
            show(key, linked);
        }
    }

    /** Records what {@code key} shows: {@code linked}, or it with the version of its document on top. */
    private void show(String key, Chain linked) {
        IndexedFile document = documents == null ? null : documents.presented(key, linked, scope);
        if (document == null) {
            if (linked == null) {
                chains.remove(key);
            } else {
                chains.put(key, linked);
            }
            return;
        }
        List<IndexedFile> versions = new ArrayList<>(linked == null ? List.of() : linked.members());
        versions.add(document);
        chains.put(key, Chain.of(key, versions, keyless::contains));
    }

    /**
     * Links the versions of {@code key}, leaving out (and recording in {@link #unfinished}) those of a restore whose
     * head was never written: they are not the key's versions, so readers see the key as it was before the restore.
     * Null if no version is left.
     */
    private Chain link(String key, Map<String, IndexedFile> ofKey) {
        if (ofKey == null) {
            unfinished.remove(key);
            return null;
        }
        Set<String> ids = new HashSet<>();
        ofKey.values().forEach(version -> ids.add(version.id()));
        List<IndexedFile> counted = new ArrayList<>();
        List<IndexedFile> pending = new ArrayList<>();
        for (IndexedFile version : ofKey.values()) {
            boolean committed = version.file().committedBy().map(ids::contains).orElse(true);
            (committed ? counted : pending).add(version);
        }
        if (pending.isEmpty()) {
            unfinished.remove(key);
        } else {
            pending.sort(java.util.Comparator.comparing(IndexedFile::name));
            unfinished.put(key, List.copyOf(pending));
        }
        return counted.isEmpty() ? null : Chain.of(key, counted, keyless::contains);
    }

    /**
     * The version that {@code id} names for a relation: the file with that id when it is on its key's line, else the
     * version on a line whose {@code replaces} lists it (a restore replaced the version), else the file with that id
     * (which reaches nothing), else null.
     */
    IndexedFile holder(String id) {
        IndexedFile file = byId.get(id);
        if (file != null) {
            Chain chain = chains.get(file.file().key());
            if (chain != null && chain.onLine(id)) {
                return file;
            }
        }
        if (aliases == null) {
            Map<String, IndexedFile> found = new HashMap<>();
            for (Chain chain : chains.values()) {
                for (IndexedFile version : chain.line()) {
                    version.file().replaces().forEach(replaced -> found.putIfAbsent(replaced, version));
                }
            }
            aliases = found;
        }
        IndexedFile restored = aliases.get(id);
        return restored != null ? restored : file;
    }

    /**
     * What unfinished restores left: versions whose head was never written, and versions a written head replaced
     * but that were not removed. Only a crashed restore leaves them, so a writer holding the lock may remove them.
     */
    List<IndexedFile> restoreLeftovers() {
        List<IndexedFile> leftovers = new ArrayList<>();
        unfinished.values().forEach(leftovers::addAll);
        stored.values().forEach(chain -> leftovers.addAll(chain.leftovers()));
        return leftovers;
    }

    /** What is wrong here: unreadable files, then broken chains, in a stable order. */
    List<StoreProblem> problems() {
        return ShelfProblems.of(scope, directory, unreadable, unfinished, stored, documents, superseded());
    }
}
