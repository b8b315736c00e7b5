package dev.forge.memory.file.internal;

import dev.forge.memory.support.files.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file changes of one write, kept undoable until the write is complete: each step registers how to take it
 * back, files to remove are first renamed to a temporary name (a crash leaves them to be removed at the next
 * open), and what can only be done once everything succeeded waits for {@link #complete()}.
 */
final class FileChanges {

    private static final Logger LOG = LoggerFactory.getLogger(FileChanges.class);

    /** One step. */
    @FunctionalInterface
    interface IoAction {
        void run() throws IOException;
    }

    private final Deque<IoAction> undo = new ArrayDeque<>();
    private final List<IoAction> completion = new ArrayList<>();
    private boolean started;

    /** Notes that something (a journal line, a file) may have changed, so that a failure makes the index rescan. */
    void started() {
        started = true;
    }

    /** Whether anything may have changed. */
    boolean isStarted() {
        return started;
    }

    /** Registers how to take back the step about to be made; undone newest first. Must be harmless if the step did not happen. */
    void onUndo(IoAction action) {
        started = true;
        undo.push(action);
    }

    /** Registers what to do once every step succeeded. */
    void onComplete(IoAction action) {
        completion.add(action);
    }

    /**
     * Renames {@code path} (a file, a directory or a link, never followed) to a temporary name in {@code directory},
     * on the same file system: deleted when the write completes, renamed back if it is undone.
     */
    void trash(Path path, Path directory) throws IOException {
        Path temp = AtomicFiles.tempName(directory);
        onUndo(() -> {
            if (Files.exists(temp, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE);
            }
        });
        Files.move(path, temp, StandardCopyOption.ATOMIC_MOVE);
        onComplete(() -> AtomicFiles.deleteTree(temp));
    }

    /**
     * Takes back every step, newest first; the failures are returned (and logged), the rest still runs. Does
     * nothing the second time.
     */
    List<Exception> undo() {
        List<Exception> failures = new ArrayList<>();
        while (!undo.isEmpty()) {
            IoAction action = undo.pop();
            try {
                action.run();
            } catch (IOException | RuntimeException e) {
                LOG.error("Could not undo a step of a failed write: {}", e.toString());
                failures.add(e);
            }
        }
        completion.clear();
        return failures;
    }

    /**
     * Runs the completion steps once every change is in place. A failure there is logged, not thrown: what is
     * left is temporary files, removed at the next open.
     */
    void complete() {
        undo.clear();
        for (IoAction action : completion) {
            try {
                action.run();
            } catch (IOException | RuntimeException e) {
                LOG.warn("Could not remove a temporary file after a write ({}); it is removed at the next open", e.toString());
            }
        }
        completion.clear();
    }
}
