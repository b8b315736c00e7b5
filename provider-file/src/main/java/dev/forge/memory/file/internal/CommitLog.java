package dev.forge.memory.file.internal;

import dev.forge.memory.support.files.AtomicFiles;
import com.fasterxml.jackson.databind.JsonNode;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Keys;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Commit records of transactions, {@code <store>/transactions/<id>.json}: written (and forced to disk) before a
 * commit changes any entry file, removed once every change is in place and journaled. A commit that fails in the
 * process undoes its changes and removes its record; a record still there when the store is next locked belongs
 * to a commit that was cut off (a crash) or could be neither undone nor finished. It is applied again from the
 * start, which gives the same result however far the first attempt got: each write carries the entry it
 * replaces, which becomes history whatever the file holds by then, and a restore carries the key's whole chain.
 *
 * <p>A restore goes through this log too, as a commit of one {@link Restore}: its current file and its history
 * directory are two things on disk that no single rename replaces together, so the record is what makes a restore
 * cut off by a crash end as the whole new chain rather than a mix of the old and the new.
 */
public final class CommitLog {

    /** The directory of commit records in the store. */
    public static final String DIRECTORY = "transactions";

    private static final String SUFFIX = ".json";

    /** One change of a commit. */
    public sealed interface Operation permits Write, Remove, Restore {
        /** Where the entry lives. */
        Namespace namespace();

        /** The entry's key. */
        String key();
    }

    /**
     * Stores {@code entry}; {@code previous} is the version it replaces, kept as history.
     *
     * @param namespace where
     * @param previous  the entry it replaces, if any
     * @param entry     the new entry
     */
    public record Write(Namespace namespace, Optional<MemoryEntry> previous, MemoryEntry entry) implements Operation {
        /** Rejects nulls. */
        public Write {
            Objects.requireNonNull(namespace, "namespace");
            Objects.requireNonNull(previous, "previous");
            Objects.requireNonNull(entry, "entry");
        }

        @Override
        public String key() {
            return entry.key();
        }
    }

    /**
     * Removes an entry, its history and its relations.
     *
     * @param namespace where
     * @param key       the key
     * @param previous  the entry it removes, where the record keeps it (the shared part of a spanning commit, so that
     *                  completing it again never removes what another project stored since)
     */
    public record Remove(Namespace namespace, String key, Optional<MemoryEntry> previous) implements Operation {
        /** Rejects nulls. */
        public Remove {
            Objects.requireNonNull(namespace, "namespace");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(previous, "previous");
        }

        /** A removal that does not record what it removes. */
        public Remove(Namespace namespace, String key) {
            this(namespace, key, Optional.empty());
        }
    }

    /**
     * Replaces everything stored under a key with {@code versions}: the last becomes the current entry, the earlier
     * ones its whole history.
     *
     * @param namespace where
     * @param versions  the key's chain, oldest first, at least one, checked by
     *                  {@link dev.forge.memory.EntryRules#checkChain}
     */
    public record Restore(Namespace namespace, List<MemoryEntry> versions) implements Operation {
        /** Rejects nulls, an empty chain and versions of another key or scope than the last. */
        public Restore {
            Objects.requireNonNull(namespace, "namespace");
            versions = List.copyOf(versions);
            if (versions.isEmpty()) {
                throw new IllegalArgumentException("a restore needs at least one version");
            }
            MemoryEntry last = versions.get(versions.size() - 1);
            for (MemoryEntry version : versions) {
                if (!version.ref().equals(last.ref()) || version.scope() != namespace.scope()) {
                    throw new IllegalArgumentException("a restore takes the versions of one key in its namespace");
                }
            }
        }

        /** The version that becomes the current entry. */
        public MemoryEntry current() {
            return versions.get(versions.size() - 1);
        }

        /** The versions that become its history. */
        public List<MemoryEntry> earlier() {
            return versions.subList(0, versions.size() - 1);
        }

        @Override
        public String key() {
            return current().key();
        }
    }

    /**
     * A commit record.
     *
     * @param file       where it is stored
     * @param operations the changes to this store, in order
     * @param shared     the GLOBAL changes of a transaction that spans this store and the shared global store, which
     *                   this record makes complete together with {@code operations}; empty otherwise
     */
    public record Record(Path file, List<Operation> operations, List<Operation> shared) {
        /** A record of this store's operations only. */
        public Record(Path file, List<Operation> operations) {
            this(file, operations, List.of());
        }
    }

    private final Path directory;

    /** The commit log of the store in {@code store}. */
    public CommitLog(Path store) {
        this.directory = store.resolve(DIRECTORY);
    }

    /** The directory of commit records. */
    public Path directory() {
        return directory;
    }

    /** Writes a commit record atomically and durably (when {@code fsync}); returns it. */
    public Record write(List<Operation> operations, boolean fsync) throws IOException {
        return write(operations, List.of(), fsync);
    }

    /** Writes a commit record with the shared store's part of a spanning transaction; see {@link Record}. */
    public Record write(List<Operation> operations, List<Operation> shared, boolean fsync) throws IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("format", EntryCodec.FORMAT);
        root.put("operations", items(operations));
        if (!shared.isEmpty()) {
            root.put("shared_global", items(shared));
        }
        AtomicFiles.createDirectories(directory, fsync);
        Path file = directory.resolve(UUID.randomUUID() + SUFFIX);
        AtomicFiles.write(directory, file, EntryCodec.JSON.writeValueAsBytes(root), fsync);
        return new Record(file, List.copyOf(operations), List.copyOf(shared));
    }

    private static List<Map<String, Object>> items(List<Operation> operations) {
        List<Map<String, Object>> items = new ArrayList<>(operations.size());
        for (Operation operation : operations) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("namespace", operation.namespace().path());
            if (operation instanceof Write write) {
                item.put("op", "write");
                item.put("previous", write.previous().map(EntryCodec::toMap).orElse(null));
                item.put("entry", EntryCodec.toMap(write.entry()));
            } else if (operation instanceof Restore restore) {
                item.put("op", "restore");
                item.put("versions", restore.versions().stream().map(EntryCodec::toMap).toList());
            } else {
                item.put("op", "remove");
                item.put("key", operation.key());
                ((Remove) operation).previous().ifPresent(previous -> item.put("previous", EntryCodec.toMap(previous)));
            }
            items.add(item);
        }
        return items;
    }

    /** Whether any record is waiting; one directory listing. */
    public List<Path> pending() throws IOException {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> children = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
            for (Path child : children) {
                if (!AtomicFiles.isTempFile(child)) {
                    files.add(child);
                }
            }
        }
        files.sort(null);
        return files;
    }

    /**
     * Reads a commit record.
     *
     * @throws EntryCodec.MalformedException if it is damaged
     */
    public Record read(Path file) throws IOException, EntryCodec.MalformedException {
        JsonNode root;
        try {
            root = EntryCodec.JSON.readTree(AtomicFiles.readAll(file));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new EntryCodec.MalformedException(EntryCodec.notJson(e), e);
        }
        if (root == null || !root.path("operations").isArray()) {
            throw new EntryCodec.MalformedException("it has no 'operations' list", null);
        }
        List<Operation> shared = root.has("shared_global") ? operations(root.get("shared_global")) : List.of();
        return new Record(file, operations(root.get("operations")), shared);
    }

    private static List<Operation> operations(JsonNode list) throws EntryCodec.MalformedException {
        if (!list.isArray()) {
            throw new EntryCodec.MalformedException("a list of operations is not a list", null);
        }
        List<Operation> operations = new ArrayList<>();
        for (JsonNode item : list) {
            String path = item.path("namespace").textValue();
            Namespace namespace = path == null ? null : Namespace.parse(path);
            if (namespace == null) {
                throw new EntryCodec.MalformedException("an operation has no valid namespace", null);
            }
            String op = item.path("op").asText();
            if (op.equals("write")) {
                JsonNode previous = item.get("previous");
                Optional<MemoryEntry> before = previous == null || previous.isNull()
                        ? Optional.empty() : Optional.of(EntryCodec.fromTree(previous));
                MemoryEntry entry = EntryCodec.fromTree(item.get("entry"));
                if (entry.scope() != namespace.scope() || before.isPresent() && !before.get().ref().equals(entry.ref())) {
                    throw new EntryCodec.MalformedException("a write operation does not match its namespace", null);
                }
                operations.add(new Write(namespace, before, entry));
            } else if (op.equals("remove")) {
                String key = item.path("key").textValue();
                if (key == null) {
                    throw new EntryCodec.MalformedException("a remove operation has no key", null);
                }
                try {
                    Keys.validate(key);
                } catch (RuntimeException e) {
                    throw new EntryCodec.MalformedException("a remove operation has an invalid key", e);
                }
                JsonNode previous = item.get("previous");
                operations.add(new Remove(namespace, key, previous == null || previous.isNull()
                        ? Optional.empty() : Optional.of(EntryCodec.fromTree(previous))));
            } else if (op.equals("restore")) {
                operations.add(readRestore(namespace, item.get("versions")));
            } else {
                throw new EntryCodec.MalformedException("unknown operation '" + op + "'", null);
            }
        }
        return List.copyOf(operations);
    }

    private static Restore readRestore(Namespace namespace, JsonNode items) throws EntryCodec.MalformedException {
        if (items == null || !items.isArray() || items.isEmpty()) {
            throw new EntryCodec.MalformedException("a restore operation has no versions", null);
        }
        List<MemoryEntry> versions = new ArrayList<>(items.size());
        for (JsonNode version : items) {
            versions.add(EntryCodec.fromTree(version));
        }
        try {
            return new Restore(namespace, versions);
        } catch (IllegalArgumentException e) {
            throw new EntryCodec.MalformedException("a restore operation does not match its namespace", e);
        }
    }

    /** Removes a record whose changes are all in place. */
    public void remove(Record record, boolean fsync) throws IOException {
        Files.deleteIfExists(record.file());
        if (fsync) {
            AtomicFiles.syncDirectory(directory);
        }
    }
}
