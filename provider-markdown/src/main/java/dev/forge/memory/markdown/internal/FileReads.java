package dev.forge.memory.markdown.internal;

import dev.forge.memory.InvalidKeyException;
import dev.forge.memory.Keys;
import dev.forge.memory.MemoryException;
import dev.forge.memory.support.files.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/** Reading the files a directory listing found: what they hold, and what tells whether they changed. */
final class FileReads {

    private FileReads() {
    }

    /**
     * What tells whether an unreadable file changed: its size and modification time, and its status change time where
     * the file system has one, since a repair of permissions changes only that.
     */
    static String stamp(Path path, BasicFileAttributes attributes) {
        String stamp = attributes.size() + "@" + attributes.lastModifiedTime();
        try {
            return stamp + "/" + Files.getAttribute(path, "unix:ctime", LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return stamp;
        }
    }

    /**
     * The content of a file that was listed with {@code attributes}, if it is a regular file of at most
     * {@code maxFileSize} bytes.
     *
     * @throws MemoryFileException saying why it is not read, if it is not such a file
     */
    static byte[] readWithin(Path path, BasicFileAttributes attributes, long maxFileSize)
            throws IOException, MemoryFileException {
        if (!attributes.isRegularFile()) {
            throw new MemoryFileException("not a regular file (a link or a directory), so it is not read", null);
        }
        if (attributes.size() > maxFileSize) {
            throw new MemoryFileException("larger than max_file_size (" + attributes.size() + " > " + maxFileSize
                    + " bytes), so it is not read", null);
        }
        byte[] bytes = AtomicFiles.readAtMost(path, Math.toIntExact(maxFileSize + 1));
        if (bytes.length > maxFileSize) {
            throw new MemoryFileException("larger than max_file_size (" + maxFileSize + " bytes), so it is not read",
                    null);
        }
        return bytes;
    }

    /** A memory file as a directory listing found it. */
    record Listed(Path path, BasicFileAttributes attributes) {
    }

    /**
     * What reading one memory file gave: its content, or why it cannot be used, or neither ({@link #GONE}) if it was
     * removed since it was listed.
     */
    record Parsed(MemoryFile file, String problem) {
        static final Parsed GONE = new Parsed(null, null);
    }

    /**
     * Reads and parses one memory file as it was listed. Touches no index, so that a scan may parse its
     * files on several threads at once.
     */
    static Parsed parse(Listed listed, long maxFileSize) {
        try {
            byte[] bytes = readWithin(listed.path(), listed.attributes(), maxFileSize);
            return new Parsed(MemoryFileCodec.parse(bytes, listed.path().getFileName().toString(),
                    listed.attributes().lastModifiedTime().toInstant()), null);
        } catch (NoSuchFileException e) {
            return Parsed.GONE; // removed since it was listed: the next scan agrees
        } catch (MemoryFileException e) {
            return new Parsed(null, e.getMessage());
        } catch (MemoryException | IllegalArgumentException e) {
            return new Parsed(null, "its content is not a valid memory: " + e.getMessage());
        } catch (IOException e) {
            return new Parsed(null, "cannot be read: " + e);
        }
    }

    /** Why a parsed file cannot be used, or null if it can. */
    static String problemOf(MemoryFile file, String name) {
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
}
