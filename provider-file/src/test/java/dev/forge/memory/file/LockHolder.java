package dev.forge.memory.file;

import dev.forge.memory.conformance.ChildJvm;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

/**
 * Another process holding a store's lock, as a writer in the middle of a change would: locks
 * {@code <directory>/.lock}, creates {@code locked} in the signal directory, and holds the lock until
 * {@code release} appears there. Arguments: directory, signal directory. Exits 0, or 1 if never released.
 */
public final class LockHolder {

    private LockHolder() {
    }

    /** Runs the holder; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        Path directory = Path.of(args[0]);
        Path signals = Path.of(args[1]);
        try (FileChannel channel = FileChannel.open(directory.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock lock = channel.lock()) {
            ChildJvm.signal(signals.resolve("locked"));
            if (!ChildJvm.awaitFile(signals.resolve("release"), Duration.ofMinutes(5))) {
                System.exit(1);
            }
        }
        System.exit(0);
    }
}
