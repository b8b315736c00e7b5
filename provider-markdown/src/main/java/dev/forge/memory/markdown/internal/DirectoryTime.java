package dev.forge.memory.markdown.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Objects;

/**
 * A directory's modification time as of the last scan of it, and whether it moved since: how a {@link Shelf} notices
 * files added, removed or renamed (as most editors save) without listing the directory at every call.
 */
final class DirectoryTime {

    /**
     * How close to now a directory's modification time may be before it is not trusted: file systems stamp times in
     * ticks (a few milliseconds on Linux before 6.13, up to 2 seconds on FAT), so a file added in the same tick as
     * the last scan leaves the time unchanged. Within this window the directory is scanned once more later.
     */
    static final long RACY_WINDOW_MILLIS = 2_000;

    private final Path directory;
    private FileTime scanned;
    // Set when the time was too close to the clock to trust: a change in the same tick would not show.
    private boolean racy;

    DirectoryTime(Path directory) {
        this.directory = directory;
    }

    /** Records that the index is in step with the directory as of its modification time {@code modified}. */
    void scanned(FileTime modified) {
        scanned = modified;
        racy = modified != null && System.currentTimeMillis() - modified.toMillis() < RACY_WINDOW_MILLIS;
    }

    /**
     * Whether the directory may have changed since it was scanned: its modification time differs, or the time
     * recorded was too recent to trust and that window has now passed.
     */
    boolean mayHaveChanged() {
        FileTime now = current();
        if (!Objects.equals(now, scanned)) {
            return true;
        }
        return racy && System.currentTimeMillis() - now.toMillis() >= RACY_WINDOW_MILLIS;
    }

    /** The directory's modification time now, or null if it does not exist. */
    FileTime current() {
        try {
            return Files.getLastModifiedTime(directory);
        } catch (IOException e) {
            return null;
        }
    }
}
