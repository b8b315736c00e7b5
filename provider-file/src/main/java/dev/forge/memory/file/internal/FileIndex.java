package dev.forge.memory.file.internal;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.file.internal.EntryFiles.Loaded;
import dev.forge.memory.file.internal.Journal.Line;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a {@link FileStore}'s index of entry files in step with the disk: applies journal lines, rescans directories,
 * re-reads single files, and records what a write changed. Runs under the store's index write lock.
 */
final class FileIndex {

    private static final Logger LOG = LoggerFactory.getLogger(FileIndex.class);

    private final FileStore store;

    FileIndex(FileStore store) {
        this.store = store;
    }

    /** Applies journal lines to the store.index; false if a line made no sense and everything must be rescanned. */
    boolean applyLines(List<Line> lines) throws IOException {
        Set<Namespace> cleared = new HashSet<>();
        Map<Namespace, Set<String>> touched = new LinkedHashMap<>();
        boolean relations = false;
        for (Line line : lines) {
            if (line.op() == Line.RELATIONS) {
                relations = true;
                continue;
            }
            Namespace namespace = Namespace.parse(line.namespace());
            if (namespace == null) {
                return false;
            }
            if (!store.index.containsKey(namespace)) {
                continue;
            }
            if (line.op() == Line.CLEAR) {
                cleared.add(namespace);
            } else if (Namespace.isFileNameOfKey(line.name())) {
                touched.computeIfAbsent(namespace, n -> new LinkedHashSet<>()).add(line.name());
            } else {
                return false;
            }
        }
        for (Namespace namespace : cleared) {
            FileStore.NamespaceIndex space = store.index.get(namespace);
            if (space.complete) {
                rescan(namespace);
            } else {
                space.forgetAll();
            }
        }
        for (Map.Entry<Namespace, Set<String>> change : touched.entrySet()) {
            FileStore.NamespaceIndex space = store.index.get(change.getKey());
            if (!cleared.contains(change.getKey())) {
                for (String name : change.getValue()) {
                    if (space.complete) {
                        reload(change.getKey(), name);
                    } else { // read again when asked for
                        space.entries.remove(name);
                        space.damaged.remove(name);
                        space.absent.remove(name);
                    }
                }
            }
        }
        if (relations) {
            store.graph.loadRelations();
        }
        return true;
    }

    /**
     * Forgets every entry file, so that each is read again when asked for: by key, or all of a namespace by the first
     * call that needs them all ({@link #complete}). Opening reads none.
     */
    void rescanAll() throws IOException {
        for (FileStore.NamespaceIndex space : store.index.values()) {
            space.forgetAll();
        }
        store.graph.loadRelations();
    }

    /** Reads every entry file of the {@code namespaces} whose files are not all in the index yet. */
    void complete(List<Namespace> namespaces) throws IOException {
        for (Namespace namespace : namespaces) {
            if (!store.index.get(namespace).complete) {
                rescan(namespace);
            }
        }
    }

    void rescan(Namespace namespace) throws IOException {
        FileStore.NamespaceIndex space = store.index.get(namespace);
        Map<String, Loaded> found = store.files.scan(namespace);
        Map<String, Loaded> wasDamaged = new HashMap<>(space.damaged);
        space.forgetAll();
        for (Map.Entry<String, Loaded> file : found.entrySet()) {
            record(space, file.getKey(), file.getValue(), wasDamaged.containsKey(file.getKey()));
        }
        space.complete = true;
    }

    /** Re-reads one entry file into the store.index: one small read. */
    void reload(Namespace namespace, String name) throws IOException {
        FileStore.NamespaceIndex space = store.index.get(namespace);
        Optional<Loaded> loaded = store.files.load(namespace, name);
        boolean known = space.damaged.containsKey(name);
        space.entries.remove(name);
        space.damaged.remove(name);
        loaded.ifPresent(l -> record(space, name, l, known));
        if (loaded.isEmpty() && !space.complete) {
            space.absent.add(name);
        } else {
            space.absent.remove(name);
        }
    }

    static void record(FileStore.NamespaceIndex space, String name, Loaded loaded, boolean alreadyReported) {
        if (loaded.ok()) {
            space.entries.put(name, loaded.entry());
        } else {
            space.damaged.put(name, loaded);
            if (!alreadyReported) {
                LOG.warn("Skipping the damaged entry file {}: {}. It was left in place; reading its key fails until it is "
                        + "repaired or the key is stored again.", loaded.file(), loaded.problem());
            }
        }
    }

    void indexPut(Namespace namespace, String name, MemoryEntry entry) {
        FileStore.NamespaceIndex space = store.index.get(namespace);
        if (space != null) {
            space.entries.put(name, entry);
            space.damaged.remove(name);
            space.absent.remove(name);
        }
    }

    void indexRemove(Namespace namespace, String name) {
        FileStore.NamespaceIndex space = store.index.get(namespace);
        if (space != null) {
            space.entries.remove(name);
            space.damaged.remove(name);
            if (!space.complete) {
                space.absent.add(name);
            }
        }
    }
}
