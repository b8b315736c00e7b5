package dev.forge.memory.sqlite.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.MemoryException;
import dev.forge.memory.support.files.AtomicFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;

/**
 * One SQLite database file, open in WAL mode, shared by every provider of this JVM that opens the same file with
 * the same settings.
 *
 * <p>sqlite-jdbc connections are not safe for use by several threads at once, so: one write connection, used by
 * one thread at a time under a fair lock, every write in a {@code BEGIN IMMEDIATE} transaction (the write lock is
 * taken at the start, so two processes queue on {@code busy_timeout} instead of failing on a lock upgrade); and up
 * to {@value #MAX_READERS} read connections, each used by one thread at a time. In WAL mode readers never block the
 * writer nor wait for it, and each read statement sees the last commit before it started. Every connection gets
 * {@code busy_timeout}, {@code synchronous} and {@code foreign_keys=ON}; read connections also {@code query_only}.
 *
 * <p>Opened on a full disk, where SQLite cannot create or grow the shared-memory file every connection to a WAL
 * database needs, the database is <em>read-only</em> ({@link FullDisk}): reads use read-only connections that do not
 * write that file, and each write first tries to open the write connection again, so that writing resumes as soon as
 * there is space, or fails saying that the disk is full.
 */
public final class Database {

    private static final Logger LOG = LoggerFactory.getLogger(Database.class);

    /** The most read connections open at once; more readers wait for one to be free. */
    public static final int MAX_READERS = 4;

    private static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    private static final int HEADER_SIZE = 100;
    private static final int USER_VERSION_OFFSET = 60;

    /** Open databases of this JVM, by file and settings, so that providers on one file share one writer. */
    private static final Map<Key, Database> OPEN = new HashMap<>();

    /** Work on a connection. */
    @FunctionalInterface
    public interface Work<T> {
        /** Does the work; SQL errors are translated by the caller. */
        T run(Connection connection) throws SQLException;
    }

    private record Key(Path file, String synchronous, long busyTimeoutMillis) {
    }

    private final Key key;
    private final Path path;
    private final long busyTimeoutMillis;
    private final ReentrantLock writeLock = new ReentrantLock(true);
    /** The write connection; null while the database is read-only. Guarded by {@link #writeLock}. */
    private Connection writer;
    private final Semaphore readerPermits = new Semaphore(MAX_READERS, true);
    private final Deque<Connection> idleReaders = new ArrayDeque<>();
    /**
     * Read connections opened while the database was read-only, all closed (with every reader permit held, so none is
     * in use) when it becomes writable. Guarded by idleReaders.
     */
    private final Set<Connection> readOnlyReaders = Collections.newSetFromMap(new IdentityHashMap<>());
    /** The prepared statements kept for each read connection, closed with it. Guarded by idleReaders. */
    private final Map<Connection, StatementCache> statementCaches = new IdentityHashMap<>();
    /** Whether the disk was full at open and no write has found space since: every connection is read-only. */
    private volatile boolean readOnly;
    private int users;
    private boolean closed;

    private Database(Key key, Connection writer) {
        this.key = key;
        this.path = key.file();
        this.busyTimeoutMillis = key.busyTimeoutMillis();
        this.writer = writer;
        this.readOnly = writer == null;
    }

    /**
     * Opens the database at {@code path}, creating it (and its directory) when missing and bringing its schema up to
     * date, or joins this JVM's open instance of it. Release it with {@link #release()}.
     *
     * @param synchronous       {@code FULL} or {@code NORMAL}
     * @param busyTimeoutMillis how long to wait for another connection's lock
     * @throws ConfigurationException      if the file exists and is not a SQLite database (it is left untouched)
     * @throws BackendUnavailableException if a newer forge-memory wrote it (left untouched), or it cannot be opened
     */
    public static Database acquire(Path path, String synchronous, long busyTimeoutMillis) {
        return acquire(path, "path", synchronous, busyTimeoutMillis);
    }

    /**
     * {@link #acquire(Path, String, long)} for a file named by config key {@code setting} ({@code path} or
     * {@code global_path}), which messages name.
     */
    public static Database acquire(Path path, String setting, String synchronous, long busyTimeoutMillis) {
        NativeLibraryDirectory.prepare();
        Path file = prepareFile(path.toAbsolutePath().normalize(), setting);
        Key key = new Key(file, synchronous.toUpperCase(Locale.ROOT), busyTimeoutMillis);
        synchronized (OPEN) {
            Database open = OPEN.get(key);
            if (open == null) {
                open = open(key, setting);
                OPEN.put(key, open);
            }
            open.users++;
            return open;
        }
    }

    /** Checks an existing file's header without opening it with SQLite, or creates an empty, private one. */
    private static Path prepareFile(Path file, String setting) {
        if (Files.isDirectory(file)) {
            throw new ConfigurationException("The SQLite database path " + file + " is a directory; '" + setting + "' must name a file "
                    + "(such as .forge/memory.db).", null, setting, null);
        }
        if (Files.exists(file)) {
            checkHeader(file, setting);
        } else {
            try {
                AtomicFiles.createDirectories(file.getParent(), true);
                Files.createFile(file, AtomicFiles.privateFile(file));
            } catch (FileAlreadyExistsException e) {
                checkHeader(file, setting); // another process created it first
            } catch (IOException e) {
                throw new BackendUnavailableException("Cannot create the SQLite database " + file + ": " + e
                        + ". Check that its directory can be created and written.", e);
            }
        }
        try {
            return file.toRealPath();
        } catch (IOException e) {
            throw new BackendUnavailableException("Cannot open the SQLite database " + file + ": " + e, e);
        }
    }

    /**
     * Refuses a file that is not a SQLite database, or whose recorded schema is newer than this code, by reading its
     * header: nothing that could change the file runs before these checks.
     */
    private static void checkHeader(Path file, String setting) {
        byte[] header = new byte[HEADER_SIZE];
        int read = 0;
        try (InputStream in = Files.newInputStream(file)) {
            while (read < HEADER_SIZE) {
                int n = in.read(header, read, HEADER_SIZE - read);
                if (n < 0) {
                    break;
                }
                read += n;
            }
        } catch (IOException e) {
            throw new BackendUnavailableException("Cannot read the SQLite database " + file + ": " + e, e);
        }
        if (read == 0) {
            return; // an empty file is an empty database
        }
        boolean magic = read == HEADER_SIZE;
        for (int i = 0; magic && i < MAGIC.length; i++) {
            magic = header[i] == MAGIC[i];
        }
        if (!magic) {
            throw new ConfigurationException("The file " + file + " is not a SQLite database, so the sqlite provider will "
                    + "not use it; it was left untouched. Point '" + setting + "' at a new file or an existing forge-memory database.",
                    null, setting, null);
        }
        int version = ByteBuffer.wrap(header, USER_VERSION_OFFSET, 4).getInt();
        if (version > Migrations.CURRENT) {
            throw Migrations.newerThanThisCode(file, version);
        }
    }

    /** Opens the database with its write connection or, where the disk is full, read-only. */
    private static Database open(Key key, String setting) {
        try {
            return new Database(key, openWriter(key));
        } catch (SQLException e) {
            if (!SqliteErrors.diskFull(e, key.file())) {
                throw openFailure(e, key, setting);
            }
            FullDisk.prepareSharedMemory(key.file());
            Connection reader = null;
            try {
                reader = connect(key, Mode.READ_ONLY);
                FullDisk.checkSchema(reader, key.file());
            } catch (SQLException readFailure) {
                readFailure.addSuppressed(e);
                throw openFailure(readFailure, key, setting);
            } finally {
                closeQuietly(reader);
            }
            LOG.warn("The disk holding {} is full: the database is open read-only, and writes fail until there is space",
                    key.file());
            return new Database(key, null);
        }
    }

    private static MemoryException openFailure(SQLException e, Key key, String setting) {
        if (SqliteErrors.code(e) == SqliteErrors.NOTADB) {
            return new ConfigurationException("The file " + key.file() + " is not a SQLite database (" + e.getMessage()
                    + "); point '" + setting + "' at a new file or an existing forge-memory database.", null, setting, e);
        }
        return SqliteErrors.translate(e, key.file(), "open the database", key.busyTimeoutMillis());
    }

    /** Opens the write connection in WAL mode and brings the schema up to date; an SQL failure is the caller's to translate. */
    private static Connection openWriter(Key key) throws SQLException {
        Connection connection = null;
        try {
            connection = connect(key, Mode.WRITER);
            String journalMode = switchToWal(connection, key);
            {
                if (!"wal".equalsIgnoreCase(journalMode)) {
                    throw new BackendUnavailableException("The SQLite database " + key.file() + " cannot use write-ahead "
                            + "logging (its journal mode stays '" + journalMode + "'); keep it on a local file system "
                            + "that supports shared memory, not a network share.");
                }
            }
            Migrations.migrate(connection, key.file());
            if (SqliteErrors.lowOnSpace(key.file())) {
                // A connection that could not grow the shared-memory file opens all the same, read-only: find out now.
                try (Statement statement = connection.createStatement()) {
                    statement.execute("BEGIN IMMEDIATE");
                    statement.execute("ROLLBACK");
                }
            }
            return connection;
        } catch (SQLException | RuntimeException e) {
            closeQuietly(connection);
            throw e;
        }
    }

    /**
     * Switches the file to write-ahead logging. Changing the journal mode needs an exclusive lock and does not wait
     * for {@code busy_timeout}: when several processes open a new file at once it fails with SQLITE_BUSY, so it is
     * tried again until the busy timeout has passed.
     */
    private static String switchToWal(Connection connection, Key key) throws SQLException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(key.busyTimeoutMillis());
        while (true) {
            try (Statement statement = connection.createStatement();
                 ResultSet mode = statement.executeQuery("PRAGMA journal_mode = WAL")) {
                return mode.next() ? mode.getString(1) : "";
            } catch (SQLException e) {
                if (!SqliteErrors.isBusy(e) || System.nanoTime() >= deadline) {
                    throw e;
                }
                try {
                    Thread.sleep(5);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** The kinds of connection: the one writer, a reader, and a reader of a database opened on a full disk. */
    private enum Mode {
        WRITER, READER, READ_ONLY
    }

    private static Connection connect(Key key, Mode mode) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout((int) key.busyTimeoutMillis());
        config.setSynchronous(SQLiteConfig.SynchronousMode.valueOf(key.synchronous()));
        config.enforceForeignKeys(true);
        // Deleted rows are overwritten, so that a purge really removes private text from the file.
        config.setPragma(SQLiteConfig.Pragma.SECURE_DELETE, "true");
        // Keep the WAL file from staying at its largest size after a burst of writes.
        config.setPragma(SQLiteConfig.Pragma.JOURNAL_SIZE_LIMIT, String.valueOf(64L * 1024 * 1024));
        // Else the driver compiles and runs "SELECT last_insert_rowid()" after every INSERT, for getGeneratedKeys(),
        // which this code never calls: a third of the cost of a small insert.
        config.setGetGeneratedKeys(false);
        if (mode == Mode.READ_ONLY) {
            config.setReadOnly(true);
        }
        Connection connection = config.createConnection(mode == Mode.READ_ONLY ? FullDisk.readOnlyUrl(key.file())
                : "jdbc:sqlite:" + key.file());
        if ("FULL".equals(key.synchronous())) {
            // On macOS only F_FULLFSYNC pushes data past the drive's cache; elsewhere these pragmas do nothing.
            try (Statement statement = connection.createStatement()) {
                statement.execute("PRAGMA fullfsync = ON");
                statement.execute("PRAGMA checkpoint_fullfsync = ON");
            } catch (SQLException e) {
                closeQuietly(connection);
                throw e;
            }
        }
        if (mode == Mode.READER) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("PRAGMA query_only = ON");
            } catch (SQLException e) {
                closeQuietly(connection);
                throw e;
            }
        }
        return connection;
    }

    /** The database file. */
    public Path path() {
        return path;
    }

    /** The busy timeout every connection uses, in milliseconds. */
    public long busyTimeoutMillis() {
        return busyTimeoutMillis;
    }

    /**
     * Runs {@code work} in one write transaction ({@code BEGIN IMMEDIATE} ... {@code COMMIT}) on the write connection:
     * all of it is applied or, when it throws, none of it.
     *
     * @param what what the work does, for messages ("store key 'k'")
     */
    public <T> T write(String what, Work<T> work) {
        writeLock.lock();
        try {
            if (isClosed()) {
                throw closedError();
            }
            Connection writer = writer(what);
            try (Statement statement = writer.createStatement()) {
                statement.execute("BEGIN IMMEDIATE");
                boolean committed = false;
                try {
                    T result = work.run(writer);
                    statement.execute("COMMIT");
                    committed = true;
                    return result;
                } finally {
                    if (!committed) {
                        rollbackQuietly(statement);
                    }
                }
            }
        } catch (SQLException e) {
            throw translate(e, what);
        } finally {
            writeLock.unlock();
        }
    }

    /** Runs {@code work} on the write connection outside a transaction, for statements such as {@code PRAGMA}. */
    public <T> T onWriter(String what, Work<T> work) {
        writeLock.lock();
        try {
            if (isClosed()) {
                throw closedError();
            }
            return work.run(writer(what));
        } catch (SQLException e) {
            throw translate(e, what);
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * The write connection, opened again first where the database is read-only and the disk has space now. Call under
     * {@link #writeLock}.
     *
     * @throws dev.forge.memory.StorageException if the disk is still full
     */
    private Connection writer(String what) {
        if (writer != null) {
            return writer;
        }
        if (SqliteErrors.lowOnSpace(path)) {
            throw SqliteErrors.diskFull(what, path, null);
        }
        // An open read-only connection keeps SQLite from setting the shared-memory file up again, and the write
        // connection would come out read-only too: wait for the reads in progress, and close every such connection.
        readerPermits.acquireUninterruptibly(MAX_READERS);
        try {
            synchronized (idleReaders) {
                idleReaders.removeIf(readOnlyReaders::contains);
                readOnlyReaders.forEach(this::closeReader);
                readOnlyReaders.clear();
            }
            try {
                writer = openWriter(key);
            } catch (SQLException e) {
                throw SqliteErrors.diskFull(e, path) ? SqliteErrors.diskFull(what, path, e) : translate(e, what);
            }
            readOnly = false;
        } finally {
            readerPermits.release(MAX_READERS);
        }
        LOG.info("The disk holding {} has space again: the database is writable", path);
        return writer;
    }

    /**
     * Runs {@code work}, which SQLite runs as a write although it changes nothing (FTS5's {@code integrity-check}), in
     * a write transaction; while the database is read-only, on an in-memory copy of it.
     */
    public <T> T check(String what, Work<T> work) {
        return readOnly ? read(what, connection -> FullDisk.onCopy(connection, work)) : write(what, work);
    }

    /**
     * Runs {@code work} on a read connection. Each statement sees the database as the last commit before it began left
     * it; statements and result sets must be closed before {@code work} returns, or the connection would keep an old
     * snapshot.
     */
    public <T> T read(String what, Work<T> work) {
        return read(() -> what, work);
    }

    /** {@link #read(String, Work)}, saying what the work does only when a message needs it (reads by key are hot). */
    public <T> T read(Supplier<String> what, Work<T> work) {
        Connection connection = borrowReader(what);
        boolean failed = true;
        try {
            T result = work.run(connection);
            failed = false;
            return result;
        } catch (SQLException e) {
            throw translate(e, what.get());
        } finally {
            returnReader(connection, failed);
        }
    }

    /**
     * The prepared statement of {@code sql} on {@code connection}, a read connection lent by {@link #read}: compiled on
     * its first use on that connection and kept until the connection closes. Do not close it; close its result sets
     * before the work returns (that resets it, so it holds no snapshot). After the work fails it is closed.
     *
     * @throws IllegalArgumentException if {@code connection} is not a read connection of this database
     */
    public PreparedStatement prepared(Connection connection, String sql) throws SQLException {
        StatementCache cache;
        synchronized (idleReaders) {
            cache = statementCaches.get(connection);
        }
        if (cache == null) {
            throw new IllegalArgumentException("not a read connection of " + this);
        }
        return cache.prepare(sql);
    }

    private Connection borrowReader(Supplier<String> what) {
        readerPermits.acquireUninterruptibly();
        Connection connection;
        synchronized (idleReaders) {
            if (closed) {
                readerPermits.release();
                throw closedError();
            }
            connection = idleReaders.poll();
        }
        if (connection != null) {
            return connection;
        }
        try {
            Connection reader = connect(key, readOnly ? Mode.READ_ONLY : Mode.READER);
            synchronized (idleReaders) {
                if (readOnly) {
                    readOnlyReaders.add(reader);
                }
                statementCaches.put(reader, new StatementCache(reader));
            }
            return reader;
        } catch (SQLException e) {
            readerPermits.release();
            throw translate(e, what.get());
        }
    }

    private void returnReader(Connection connection, boolean failed) {
        synchronized (idleReaders) {
            StatementCache cache = statementCaches.get(connection);
            if (cache != null) {
                cache.endUse(failed);
            }
            if (closed) {
                closeReader(connection);
            } else {
                idleReaders.push(connection);
            }
        }
        readerPermits.release();
    }

    /** Closes a read connection and the statements kept for it. Call holding idleReaders. */
    private void closeReader(Connection connection) {
        StatementCache cache = statementCaches.remove(connection);
        if (cache != null) {
            cache.close();
        }
        closeQuietly(connection);
    }

    private boolean isClosed() {
        synchronized (idleReaders) {
            return closed;
        }
    }

    private BackendUnavailableException closedError() {
        return new BackendUnavailableException("The SQLite database " + path + " is closed; open the provider again.");
    }

    /** Translates an SQL error of this database. */
    public MemoryException translate(SQLException e, String what) {
        return SqliteErrors.translate(e, path, what, busyTimeoutMillis);
    }

    /**
     * Gives up one use of this database; the last one closes its connections (waiting for a write in progress; a read
     * in progress closes its connection when it ends). Idempotent per use only: call once per {@link #acquire}.
     */
    public void release() {
        synchronized (OPEN) {
            if (--users > 0) {
                return;
            }
            OPEN.remove(key, this);
        }
        writeLock.lock();
        try {
            synchronized (idleReaders) {
                closed = true;
                idleReaders.forEach(this::closeReader);
                idleReaders.clear();
            }
            if (writer != null) {
                try (Statement statement = writer.createStatement()) {
                    // Keeps the planner's statistics fresh, as SQLite advises before closing a long-lived connection.
                    statement.execute("PRAGMA optimize");
                } catch (SQLException e) {
                    LOG.debug("PRAGMA optimize on {} failed", path, e);
                }
                closeQuietly(writer);
            }
        } finally {
            writeLock.unlock();
        }
        LOG.debug("Closed SQLite database {}", path);
    }

    private static void rollbackQuietly(Statement statement) {
        try {
            statement.execute("ROLLBACK");
        } catch (SQLException ignored) {
            // SQLite rolls back by itself after some errors (a full disk, say): then nothing is left to roll back.
        }
    }

    private static void closeQuietly(Connection connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (SQLException e) {
            LOG.debug("Closing a SQLite connection failed", e);
        }
    }

    @Override
    public String toString() {
        return "Database[" + path + "]";
    }
}
