package dev.forge.memory.sqlite.internal;

import dev.forge.memory.StorageException;
import dev.forge.memory.support.files.AtomicFiles;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * Reading a database on a full disk.
 *
 * <p>A connection to a WAL database maps the shared-memory file ({@code -shm}) before it reads anything, and creating or
 * growing that file takes disk space: on a full disk every new connection fails with SQLITE_IOERR_SHMSIZE, so not even
 * a read is possible. A connection opened read-only with the URI parameter {@code readonly_shm=1} on an existing
 * {@code -shm} file, even an empty one, does not write it: where the file is not a live index kept by another
 * connection it reads the WAL into heap memory instead, and so still sees every commit (SQLite's "Write-Ahead Logging",
 * read-only databases; its tests {@code walro.test} and {@code walro2.test}). An empty file takes no space, only a name.
 *
 * <p>Such connections cannot write, and FTS5's {@code integrity-check} command runs as a write although it changes
 * nothing: {@link #onCopy} runs it on an in-memory copy of the database.
 */
final class FullDisk {

    private FullDisk() {
    }

    /** The JDBC URL of a read-only connection to {@code file} that does not write its shared-memory file. */
    static String readOnlyUrl(Path file) {
        StringBuilder uri = new StringBuilder("jdbc:sqlite:file:");
        String path = file.toAbsolutePath().toString().replace('\\', '/');
        if (!path.startsWith("/")) {
            uri.append('/'); // a Windows drive: file:/C:/...
        }
        for (char c : path.toCharArray()) {
            // In a URI file name '?' and '#' end the path and '%' starts an escape; everything else is taken as it is.
            switch (c) {
                case '%' -> uri.append("%25");
                case '?' -> uri.append("%3F");
                case '#' -> uri.append("%23");
                default -> uri.append(c);
            }
        }
        return uri.append("?readonly_shm=1").toString();
    }

    /**
     * Creates an empty, private {@code -shm} file beside {@code file} unless one exists: a read-only connection opens
     * an existing one and never creates it.
     *
     * @throws StorageException if it cannot be created (the disk is full, and no inode is free either)
     */
    static void prepareSharedMemory(Path file) {
        Path shm = file.resolveSibling(file.getFileName() + "-shm");
        try {
            Files.createFile(shm, AtomicFiles.privateFile(shm));
        } catch (FileAlreadyExistsException e) {
            // in use, or left by an earlier connection: SQLite checks it before it trusts it
        } catch (IOException e) {
            throw new StorageException("The disk holding the SQLite database " + file + " is full, and reading it needs the "
                    + "file " + shm + ", which cannot be created (" + e.getMessage() + "). Free some space and retry.", e);
        }
    }

    /**
     * Refuses a database whose schema is older than this code: bringing it up to date writes.
     *
     * @throws StorageException saying so
     */
    static void checkSchema(Connection connection, Path file) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet version = statement.executeQuery("PRAGMA user_version")) {
            int found = version.next() ? version.getInt(1) : 0;
            if (found != Migrations.CURRENT) {
                throw new StorageException("The disk holding the SQLite database " + file + " is full, and the database "
                        + (found == 0 ? "is new and must be created" : "has schema version " + found
                        + " and must be brought up to version " + Migrations.CURRENT) + ", which writes. Nothing was "
                        + "written; free some space and retry.");
            }
        }
    }

    /**
     * Runs {@code work} on an in-memory copy of what {@code source} reads (SQLite's {@code VACUUM INTO} a database of
     * the {@code memdb} VFS), for checks that SQLite runs as writes. Holds the whole database in memory until it ends.
     */
    static <T> T onCopy(Connection source, Database.Work<T> work) throws SQLException {
        String copy = "file:/forge-memory-check-" + UUID.randomUUID() + "?vfs=memdb";
        // The copy lives as long as a connection to it is open: this one, opened first, keeps it for the work.
        try (Connection target = DriverManager.getConnection("jdbc:sqlite:" + copy)) {
            try (Statement statement = source.createStatement()) {
                statement.execute("VACUUM INTO '" + copy + "'");
            }
            return work.run(target);
        }
    }
}
