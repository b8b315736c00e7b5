package dev.forge.memory.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NotDirectoryException;

/**
 * A file the command itself writes (init's config file, search --out) cannot be written: exit 4, like any other
 * I/O failure, not 2 (the command line was fine; the file system refused).
 */
final class CliIoException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * @param what what could not be written, such as "The results cannot be written to /x/out.jsonl"
     */
    CliIoException(String what, IOException cause) {
        super(what + " (" + reason(cause) + ").", cause);
    }

    /** Why an I/O operation failed, in words. */
    static String reason(IOException e) {
        if (e instanceof AccessDeniedException denied) {
            return "permission denied: " + denied.getFile();
        }
        if (e instanceof FileAlreadyExistsException exists) {
            return exists.getFile() + " exists and is not a directory";
        }
        if (e instanceof NotDirectoryException notDirectory) {
            return notDirectory.getFile() + " is not a directory";
        }
        if (e instanceof FileSystemException failed && failed.getReason() != null) {
            return failed.getReason() + ": " + failed.getFile();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
