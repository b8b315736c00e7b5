package dev.forge.memory.markdown.internal;

import static dev.forge.memory.markdown.internal.CommitMessages.named;

import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.Keys;
import dev.forge.memory.MemoryEntry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A restore of one key's versions in a markdown store (see {@link #restore}): a new line of version files that
 * replaces the old one with the write of one file, its head.
 */
final class ChainRestore {

    private static final Logger LOG = LoggerFactory.getLogger(ChainRestore.class);

    private final StoreAccess access;
    private final Shelves shelves;
    private final VersionFiles files;
    private final LayeredDocuments documents;

    ChainRestore(StoreAccess access, Shelves shelves, VersionFiles files, LayeredDocuments documents) {
        this.access = access;
        this.shelves = shelves;
        this.files = files;
        this.documents = documents;
    }

    /**
     * Replaces the key's versions with {@code chain} (checked by {@link dev.forge.memory.EntryRules#checkChain}); see
     * {@link dev.forge.memory.Restoring#restore}.
     *
     * <p>Holding the root's lock, it writes the older versions first, each marked {@code committed_by} the head that
     * is not written yet, so that readers (a person, a provider opened after a crash) ignore them; then the head,
     * whose {@code replaces} names the versions of the old line: writing that one file is the switch from the old
     * line to the new one. Then it clears the marks and removes the old files. A crash before the switch leaves the
     * key as it was, after it the restored key; either way the next write removes what is left over. The head takes
     * the old head's relations, and its {@code replaces} keeps relations by id that reached the old line reaching
     * the key (in other sessions and projects too, whose files this provider cannot see).
     *
     * @throws InvalidEntryException if a version cannot be written to a file (a timestamp outside the years 0000 to
     *                               9999, a body UTF-8 cannot encode)
     */
    MemoryEntry restore(List<MemoryEntry> chain) {
        MemoryEntry current = chain.get(chain.size() - 1);
        String key = current.key();
        Shelf shelf = shelves.shelf(current.scope());
        Root root = shelves.root(current.scope());
        String what = "restore key '" + Keys.abbreviate(key) + "'";
        boolean documented = shelves.documented(current.scope(), key);
        return access.writing(root, what, shelf, key,
                head -> "restore " + named(current.scope(), key) + " (" + chain.size() + " versions)", () -> {
            shelf.recheck(key);
            shelf.requireReadableHead(key, what);
            if (documented) {
                documents.settle(root, shelf, key);
            }
            Chain old = shelf.chain(key);
            List<IndexedFile> oldFiles = new ArrayList<>(shelf.unfinished(key));
            if (old != null) {
                oldFiles.addAll(VersionFiles.ordered(old));
            }
            List<MemoryFile> restored = restoredFiles(chain, old);
            List<IndexedFile> written = new ArrayList<>();
            IoWork<IndexedFile> toSwitch = () -> {
                try {
                    for (MemoryFile file : restored.subList(0, restored.size() - 1)) {
                        written.add(files.create(root, shelf, file));
                    }
                    return files.create(root, shelf, restored.get(restored.size() - 1));
                } catch (IOException | RuntimeException e) {
                    discard(root, shelf, written, e);
                    throw e;
                }
            };
            IndexedFile head = documented
                    ? documents.documentFirst(shelf, key, Optional.of(current.value()), toSwitch) : toSwitch.run();
            // Switched: the key is restored whatever happens next, and leftovers are removed by the next write.
            try {
                for (IndexedFile file : written) {
                    files.rewrite(root, shelf, file, Entries.committed(file.file()));
                }
                files.deleteFiles(root, shelf, oldFiles);
            } catch (IOException e) {
                LOG.warn("Restored key '{}' in {}, but could not tidy up after it ({}); the next write does",
                        Keys.abbreviate(key), shelf.directory(), e.toString());
            }
            return head.entry();
        });
    }

    /** The files of a restored chain, oldest first, checked to be writable before anything is written. */
    private List<MemoryFile> restoredFiles(List<MemoryEntry> chain, Chain old) {
        String key = chain.get(0).key();
        String headId = VersionIds.newId(key);
        List<RelatedItem> related = List.of();
        LinkedHashSet<String> replaces = new LinkedHashSet<>();
        if (old != null) {
            replaces.add(old.head().id());
            if (old.live()) {
                // Relations to a deleted key stay gone, as after any deletion; those of a live one stay with it.
                related = old.head().file().related();
                for (IndexedFile version : old.line()) {
                    if (old.reaches(version.id())) {
                        replaces.add(version.id());
                        replaces.addAll(version.file().replaces());
                    }
                }
            }
        }
        List<MemoryFile> restored = new ArrayList<>(chain.size());
        Optional<String> previous = Optional.empty();
        try {
            for (int i = 0; i < chain.size(); i++) {
                boolean last = i == chain.size() - 1;
                String id = last ? headId : VersionIds.newId(key);
                MemoryFile file = Entries.toFile(chain.get(i), id, previous, last ? related : List.of(),
                        files.sessionId(), last ? List.copyOf(replaces) : List.of(),
                        last ? Optional.empty() : Optional.of(headId), Map.of());
                MemoryFileCodec.serialize(file);
                restored.add(file);
                previous = Optional.of(id);
            }
        } catch (IllegalArgumentException e) {
            throw new InvalidEntryException("Cannot restore key '" + Keys.abbreviate(chain.get(0).key()) + "': "
                    + e.getMessage() + ". Nothing was written.", e);
        }
        return restored;
    }

    /** Removes the versions a failed restore wrote before its switch; readers ignore them anyway. */
    private void discard(Root root, Shelf shelf, List<IndexedFile> written, Exception failure) {
        try {
            files.deleteFiles(root, shelf, written);
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }
}
