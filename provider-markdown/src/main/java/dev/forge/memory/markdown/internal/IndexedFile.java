package dev.forge.memory.markdown.internal;

import dev.forge.memory.MemoryEntry;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

/**
 * One memory file as the index knows it: where it is, the size and modification time it had when it was read (a
 * change of either means it must be read again), and what it says.
 *
 * @param path     the file
 * @param size     its size when read
 * @param modified its modification time when read
 * @param file     its content; for versions older than the head, without the body (see {@link #withoutBody()})
 * @param entry    its content as an entry, in the scope of its directory; null for versions older than the head,
 *                 which are read from disk when asked for
 */
record IndexedFile(Path path, long size, FileTime modified, MemoryFile file, MemoryEntry entry) {

    /** The file's name, {@code mem_<uuid>.md}. */
    String name() {
        return path.getFileName().toString();
    }

    /**
     * This version without its body and entry: what the index keeps of versions older than the head, so that
     * memory use grows with the number of keys, not with every value ever written.
     */
    IndexedFile withoutBody() {
        return new IndexedFile(path, size, modified, Entries.withBody(file, ""), null);
    }

    /** The version's id. */
    String id() {
        return file.id();
    }
}
