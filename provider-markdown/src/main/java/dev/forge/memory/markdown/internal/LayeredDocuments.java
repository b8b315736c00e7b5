package dev.forge.memory.markdown.internal;

import dev.forge.memory.support.files.AtomicFiles;
import java.io.IOException;
import java.util.Optional;

/**
 * Writes of the layered layout's documents, {@code <project directory>/<key>.md}, in step with the version files: the
 * document changes first, the chain follows, and what another tool did to a document is recorded as a version
 * before the next write. Used holding the index lock and the project root's store lock.
 */
final class LayeredDocuments {

    private final Shelves shelves;
    private final VersionFiles files;

    LayeredDocuments(Shelves shelves, VersionFiles files) {
        this.shelves = shelves;
        this.files = files;
    }

    /**
     * Records in the chain the version that {@code key} shows from its document (an edit or a removal by another
     * tool, a document nothing wrote yet), so that the history keeps it under the write that follows.
     */
    void settle(Root root, Shelf shelf, String key) throws IOException {
        if (!shelf.showsDocument(key)) {
            return;
        }
        IndexedFile shown = shelf.chain(key).head();
        MemoryFile file = shown.file().tombstone()
                ? Entries.tombstone(shelf.storedChain(key).head().file(), VersionIds.newId(key), files.now(),
                        files.sessionId())
                : Entries.toFile(shown.entry(), VersionIds.newId(key), shown.file().supersedes(),
                        shown.file().related(), files.sessionId(), shown.file().extra());
        files.create(root, shelf, file);
    }

    /**
     * Writes ({@code value} present) or removes the document of {@code key}, then runs {@code chainWrite}; if that
     * fails, puts the document back as it was. A crash in between leaves the document ahead of the chain, which
     * then shows it as the next version: the write in flight shows early, nothing is lost.
     */
    <T> T documentFirst(Shelf shelf, String key, Optional<String> value, IoWork<T> chainWrite) throws IOException {
        Optional<String> before = shelves.documents.document(key).map(Documents.Document::value);
        change(shelf, key, value);
        try {
            return chainWrite.run();
        } catch (IOException | RuntimeException e) {
            try {
                change(shelf, key, before);
            } catch (IOException | RuntimeException undo) {
                e.addSuppressed(undo);
            }
            throw e;
        }
    }

    /** Writes ({@code value} present) or removes the document of {@code key}, and tells the index. */
    void change(Shelf shelf, String key, Optional<String> value) throws IOException {
        Documents documents = shelves.documents;
        try {
            if (value.isPresent()) {
                AtomicFiles.createDirectories(shelf.directory(), files.fsync());
                documents.write(key, value.get(), shelf.directory(), files.fsync());
            } else {
                documents.delete(key, files.fsync());
            }
        } finally {
            shelves.projectRoot.changed(documents.root().resolve(key + LayeredPaths.SUFFIX));
            shelf.documentChanged(key);
            shelves.changed();
        }
    }
}
