package dev.forge.memory.vector.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.MemoryException;
import dev.forge.memory.StorageException;
import dev.forge.memory.support.files.AtomicFiles;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.FSDirectory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** What both kinds of {@link VectorIndex} do alike: open the directory, read the recorded state, name failures. */
final class IndexFiles {

    private IndexFiles() {
    }

    /**
     * The real path of {@code directory}, created when missing.
     *
     * @param hint what to do when it cannot be created, for the message
     */
    static Path realDirectory(Path directory, String hint) {
        try {
            AtomicFiles.createDirectories(directory, false);
            return directory.toRealPath();
        } catch (IOException e) {
            throw new BackendUnavailableException("Cannot create or open the vector index directory " + directory + ": " + e
                    + ". " + hint, e);
        }
    }

    /** The Lucene directory at {@code real}, its new files owner-only. */
    static PrivateFiles open(Path real) {
        try {
            return new PrivateFiles(FSDirectory.open(real));
        } catch (IOException e) {
            throw new BackendUnavailableException("Cannot open the vector index directory " + real + ": " + e, e);
        }
    }

    /**
     * The state {@code userData} records, if any.
     *
     * @throws CorruptEntryException     if it records one this code cannot read
     * @throws ConfigurationException    if it records none while the index holds {@code documents} documents: a Lucene
     *                                   index this provider did not write
     */
    static Optional<IndexState> recorded(Iterable<Map.Entry<String, String>> userData, Path directory, int documents) {
        Map<String, String> data = new LinkedHashMap<>();
        if (userData != null) {
            userData.forEach(e -> data.put(e.getKey(), e.getValue()));
        }
        Optional<IndexState> recorded;
        try {
            recorded = IndexState.fromUserData(data);
        } catch (IllegalArgumentException e) {
            throw new CorruptEntryException("The vector index at " + directory + " cannot be read: " + e.getMessage()
                    + ". It is left as it is; open it with the forge-memory version that wrote it, or move it away and "
                    + "re-import the memories.", e);
        }
        if (recorded.isEmpty() && documents > 0) {
            throw new ConfigurationException("The directory " + directory + " holds a Lucene index that the vector "
                    + "provider did not write; it is left untouched. Configure another path.");
        }
        return recorded;
    }

    /**
     * The state the last commit of the index in {@code directory} records, read without opening the index or taking
     * its lock; empty if there is no index there yet, or it records none or cannot be read (opening it says why).
     */
    static Optional<IndexState> peek(Path directory) {
        if (!java.nio.file.Files.isDirectory(directory)) {
            return Optional.empty();
        }
        try (FSDirectory dir = FSDirectory.open(directory)) {
            if (!DirectoryReader.indexExists(dir)) {
                return Optional.empty();
            }
            return IndexState.fromUserData(SegmentInfos.readLatestCommit(dir).getUserData());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Runs {@code work} on a searcher of {@code manager}, given back afterwards. */
    static <T> T withSearcher(SearcherManager manager, VectorIndex.SearcherWork<T> work) throws IOException {
        IndexSearcher searcher = manager.acquire();
        try {
            return work.apply(searcher);
        } finally {
            manager.release(searcher);
        }
    }

    /** Whether {@code e} says the index files are damaged or of an unknown format. */
    static boolean damaged(Exception e) {
        return e instanceof CorruptIndexException || e instanceof IndexFormatTooOldException
                || e instanceof IndexFormatTooNewException;
    }

    /** The error for an index at {@code directory} that cannot be opened because of {@code e}. */
    static MemoryException unopenable(Path directory, Exception e) {
        if (damaged(e)) {
            return new CorruptEntryException("The vector index at " + directory + " is damaged or of an unknown format ("
                    + e.getMessage() + "). Nothing was changed: restore the directory from a backup, or move it away and "
                    + "re-import the memories (forge-memory import).", e);
        }
        return new BackendUnavailableException("Cannot open the vector index at " + directory + ": " + e, e);
    }

    /**
     * The error for a {@code what} (read, write, ...) of the index at {@code directory} that failed with {@code e}.
     *
     * @param tragic what closed the index's writer, if {@code e} says it was closed; else {@code null}
     */
    static MemoryException failed(Path directory, String what, Exception e, Throwable tragic) {
        if (e instanceof org.apache.lucene.store.AlreadyClosedException) {
            return new BackendUnavailableException("The vector index at " + directory + " was closed"
                    + (tragic != null ? " after an error: " + tragic : "") + "; the " + what + " failed. Open the "
                    + "provider again.", e);
        }
        if (e instanceof CorruptIndexException) {
            return new CorruptEntryException("The vector index at " + directory + " is damaged (" + e.getMessage()
                    + "); the " + what + " failed and nothing was changed. Run forge-memory doctor, then restore the "
                    + "directory from a backup or move it away and re-import the memories.", e);
        }
        return new StorageException("The " + what + " of the vector index at " + directory + " failed: " + e
                + ". Check the disk (space, permissions) and retry.", e);
    }
}
