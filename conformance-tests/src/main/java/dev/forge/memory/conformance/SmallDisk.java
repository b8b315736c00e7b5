package dev.forge.memory.conformance;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real, small file system for disk-full tests: a tmpfs of a few KiB mounted on a directory, which a test fills
 * with a ballast file so that the next write fails with {@code ENOSPC} ("No space left on device"), then empties again.
 *
 * <p>Mounting needs Linux and root (as in a container); {@link #mount} returns empty elsewhere, and the caller skips
 * or falls back to a simulated fault. The file system is always unmounted by {@link #close()}, and whatever it held
 * is gone with it.
 */
public final class SmallDisk implements AutoCloseable {

    private static final String BALLAST = "ballast.bin";

    private final Path mountPoint;
    private final Path root;
    private boolean mounted = true;

    private SmallDisk(Path mountPoint) {
        this.mountPoint = mountPoint;
        this.root = mountPoint.resolve("store");
    }

    /**
     * Mounts a tmpfs of {@code kib} KiB on {@code mountPoint} (an empty directory), or returns empty when this
     * machine cannot: not Linux, not root, or {@code mount} refused.
     */
    public static Optional<SmallDisk> mount(Path mountPoint, int kib) {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux") || !"root".equals(System.getProperty("user.name"))) {
            return Optional.empty();
        }
        try {
            Files.createDirectories(mountPoint);
            if (run("mount", "-t", "tmpfs", "-o", "size=" + kib + "k,mode=0700", "tmpfs", mountPoint.toString()) != 0) {
                return Optional.empty();
            }
            SmallDisk disk = new SmallDisk(mountPoint);
            Files.createDirectories(disk.root);
            return Optional.of(disk);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Whether {@link #mount} can work here, tried on a throw-away directory under {@code scratch}. */
    public static boolean available(Path scratch) {
        Optional<SmallDisk> disk = mount(scratch.resolve("probe-" + System.nanoTime()), 16);
        disk.ifPresent(SmallDisk::close);
        return disk.isPresent();
    }

    /** The directory for the store under test: a subdirectory of the small file system. */
    public Path root() {
        return root;
    }

    /** The bytes still free on the file system. */
    public long freeBytes() {
        try {
            return Files.getFileStore(mountPoint).getUsableSpace();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Takes all free space with a ballast file beside {@link #root()}, so that the next write that needs a new block
     * fails. Adds to an earlier ballast if called again (for space freed by the store since).
     *
     * @return the bytes the ballast holds now
     */
    public long fill() {
        Path ballast = mountPoint.resolve(BALLAST);
        byte[] block = new byte[4096];
        try (OutputStream out = Files.newOutputStream(ballast, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND)) {
            while (true) {
                try {
                    out.write(block);
                    out.flush();
                } catch (IOException full) {
                    break;
                }
            }
        } catch (IOException e) {
            // the close (a final flush) may hit the full disk too: what was written stays
        }
        // Partial blocks: fill byte by byte what a 4 KiB write could not.
        try (OutputStream out = Files.newOutputStream(ballast, java.nio.file.StandardOpenOption.APPEND)) {
            for (int i = 0; i < block.length; i++) {
                out.write(0);
                out.flush();
            }
        } catch (IOException full) {
            // full
        }
        try {
            return Files.size(ballast);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes the ballast: the space is back. */
    public void free() {
        try {
            Files.deleteIfExists(mountPoint.resolve(BALLAST));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Unmounts the file system (lazily if something still holds a file open); everything on it is gone. */
    @Override
    public void close() {
        if (!mounted) {
            return;
        }
        mounted = false;
        try {
            if (run("umount", mountPoint.toString()) != 0) {
                run("umount", "-l", mountPoint.toString());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not unmount the small disk at " + mountPoint, e);
        }
    }

    private static int run(String... command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return -1;
            }
            if (process.exitValue() != 0 && !output.isBlank()) {
                System.err.println("[small-disk] " + String.join(" ", command) + ": " + output.strip());
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            return -1;
        }
    }
}
