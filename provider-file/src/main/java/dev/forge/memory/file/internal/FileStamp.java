package dev.forge.memory.file.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;

/**
 * What one {@code stat} shows of a file that is only ever appended to or replaced by a rename: equal stamps mean
 * it was not changed. The file key (device and inode on POSIX) changes with every replacement.
 *
 * @param size     the size in bytes, -1 for a missing file
 * @param fileKey  the file system's identity of the file, if it has one
 * @param modified the last modification time
 */
public record FileStamp(long size, Object fileKey, FileTime modified) {

    /** The stamp of a file that does not exist. */
    public static final FileStamp MISSING = new FileStamp(-1, null, null);

    /** One {@code stat} of {@code file}; {@link #MISSING} if there is none. */
    public static FileStamp of(Path file) throws IOException {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return new FileStamp(attributes.size(), attributes.fileKey(), attributes.lastModifiedTime());
        } catch (NoSuchFileException e) {
            return MISSING;
        }
    }
}
