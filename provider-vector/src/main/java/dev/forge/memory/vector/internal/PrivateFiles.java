package dev.forge.memory.vector.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;

/**
 * A Lucene directory whose new files are owner-only ({@code 0600}) on POSIX file systems whatever the umask, as the
 * other providers' files are: Lucene creates its files with the process's default permissions. Each file is restricted
 * as soon as it is created, before anything is written to it.
 */
final class PrivateFiles extends FilterDirectory {

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private final Path path;
    private final boolean posix;

    PrivateFiles(FSDirectory in) {
        super(in);
        this.path = in.getDirectory();
        this.posix = path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    @Override
    public IndexOutput createOutput(String name, IOContext context) throws IOException {
        return restrict(super.createOutput(name, context));
    }

    @Override
    public IndexOutput createTempOutput(String prefix, String suffix, IOContext context) throws IOException {
        return restrict(super.createTempOutput(prefix, suffix, context));
    }

    /** Makes every file now in the directory (such as Lucene's {@code write.lock}) owner-only. */
    void restrictAll() throws IOException {
        if (!posix) {
            return;
        }
        for (String name : in.listAll()) {
            Path file = path.resolve(name);
            if (Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                Files.setPosixFilePermissions(file, OWNER_ONLY);
            }
        }
    }

    private IndexOutput restrict(IndexOutput output) throws IOException {
        if (posix) {
            try {
                Files.setPosixFilePermissions(path.resolve(output.getName()), OWNER_ONLY);
            } catch (IOException | RuntimeException e) {
                output.close();
                throw e;
            }
        }
        return output;
    }
}
