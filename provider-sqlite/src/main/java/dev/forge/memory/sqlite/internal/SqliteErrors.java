package dev.forge.memory.sqlite.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.MemoryException;
import dev.forge.memory.StorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** Turns SQLite's errors into forge-memory's typed ones, so that no {@link SQLException} crosses the SPI. */
public final class SqliteErrors {

    static final int BUSY = 5;
    static final int LOCKED = 6;
    static final int READONLY = 8;
    static final int IOERR = 10;
    static final int CORRUPT = 11;
    static final int FULL = 13;
    static final int CANTOPEN = 14;
    static final int NOTADB = 26;

    private SqliteErrors() {
    }

    /** The least free space that is not a full disk: two of the 32 KiB pieces SQLite grows its {@code -shm} file by. */
    private static final long LEAST_FREE_BYTES = 64 * 1024;

    /**
     * Whether {@code e} is SQLite failing for want of space on the disk holding {@code file}: SQLITE_FULL; SQLITE_IOERR_SHMSIZE,
     * the shared-memory file that could not be created or grown (what a new connection to a WAL database meets first on
     * a full disk); or another I/O error, or SQLITE_READONLY (a connection that could not grow that file reads it as
     * read-only), while the disk has next to no space left.
     */
    static boolean diskFull(SQLException e, Path file) {
        int code = code(e);
        if (code == FULL || extendedCode(e) == SQLiteErrorCode.SQLITE_IOERR_SHMSIZE.code) {
            return true;
        }
        return (code == IOERR || code == READONLY) && lowOnSpace(file);
    }

    /** Whether the disk holding {@code file} has too little space left for SQLite to grow its shared-memory file. */
    static boolean lowOnSpace(Path file) {
        try {
            return Files.getFileStore(file.toAbsolutePath().getParent()).getUsableSpace() < LEAST_FREE_BYTES;
        } catch (IOException | RuntimeException unknown) {
            return false;
        }
    }

    /** The error for a write refused because the disk holding {@code path} is full. */
    static StorageException diskFull(String what, Path path, SQLException cause) {
        return new StorageException("Could not " + what + ": the disk holding " + path
                + " is full. Nothing was written; free some space and retry.", cause);
    }

    private static int extendedCode(SQLException e) {
        return e instanceof SQLiteException sqlite ? sqlite.getResultCode().code : e.getErrorCode();
    }

    /** Whether the error is SQLITE_BUSY or SQLITE_LOCKED (another connection holds the lock). */
    static boolean isBusy(SQLException e) {
        int code = code(e);
        return code == BUSY || code == LOCKED;
    }

    /** The primary SQLite result code of {@code e}, or -1 when it carries none. */
    static int code(SQLException e) {
        if (e instanceof SQLiteException sqlite) {
            return sqlite.getResultCode().code & 0xff;
        }
        return e.getErrorCode() == 0 ? -1 : e.getErrorCode() & 0xff;
    }

    /**
     * The typed error for a failure of {@code what} (a phrase such as "store key 'x'") on the database at
     * {@code path}: {@link BackendUnavailableException} when a lock outlasted {@code busy_timeout} or the file cannot
     * be opened, {@link StorageException} for everything else (saying so where the disk is full).
     */
    public static MemoryException translate(SQLException e, Path path, String what, long busyTimeoutMillis) {
        int code = code(e);
        String detail = e.getMessage() == null ? "" : e.getMessage();
        if (diskFull(e, path)) {
            return diskFull(what, path, e);
        }
        return switch (code) {
            case BUSY, LOCKED -> new BackendUnavailableException("Could not " + what + ": the SQLite database " + path
                    + " stayed locked by another connection or process for longer than busy_timeout (" + busyTimeoutMillis
                    + "ms). Try again, or raise busy_timeout if other processes hold long transactions.", e);
            case CANTOPEN -> new BackendUnavailableException("Could not " + what + ": the SQLite database " + path
                    + " cannot be opened (" + detail + "). Check that its directory exists and is writable.", e);
            case READONLY -> new StorageException("Could not " + what + ": the SQLite database " + path
                    + " is read-only (" + detail + "). Check the permissions of the file and its directory.", e);
            // Not "run doctor": doctor reads the same damaged pages and fails with this same error.
            case CORRUPT, NOTADB -> new StorageException("Could not " + what + ": the SQLite database " + path
                    + " is damaged (" + detail + "). Restore the file from a backup.", e);
            case IOERR -> new StorageException("Could not " + what + ": an I/O error on " + path + " (" + detail + ").", e);
            default -> new StorageException("Could not " + what + " in the SQLite database " + path + ": " + detail, e);
        };
    }
}
