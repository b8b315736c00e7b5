package dev.forge.memory.benchmarks.sqlite;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.sqlite.SQLiteConfig;

/**
 * The baseline's connections: plain sqlite-jdbc with the pragmas the sqlite provider sets on every connection
 * ({@code busy_timeout} 5000, {@code synchronous FULL}, {@code foreign_keys}, {@code secure_delete}, no generated keys,
 * {@code journal_size_limit} 64 MiB, {@code fullfsync}/{@code checkpoint_fullfsync}, WAL; readers
 * {@code query_only}), read from provider-sqlite's {@code Database.connect} and {@code openWriter}.
 */
public final class RawSqlite {

    private RawSqlite() {
    }

    /** A connection to {@code file} with the provider's pragmas; {@code readOnly} adds {@code query_only} as its readers do. */
    public static Connection open(Path file, boolean readOnly) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(5000);
        config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
        config.enforceForeignKeys(true);
        config.setPragma(SQLiteConfig.Pragma.SECURE_DELETE, "true");
        config.setPragma(SQLiteConfig.Pragma.JOURNAL_SIZE_LIMIT, String.valueOf(64L * 1024 * 1024));
        config.setGetGeneratedKeys(false); // as the provider's connections: no "SELECT last_insert_rowid()" per INSERT
        Connection connection = config.createConnection("jdbc:sqlite:" + file);
        try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA fullfsync = ON");
            statement.execute("PRAGMA checkpoint_fullfsync = ON");
            if (readOnly) {
                statement.execute("PRAGMA query_only = ON");
            } else {
                try (ResultSet mode = statement.executeQuery("PRAGMA journal_mode = WAL")) {
                    mode.next();
                    if (!"wal".equalsIgnoreCase(mode.getString(1))) {
                        throw new SQLException("WAL is not available for " + file);
                    }
                }
            }
        }
        return connection;
    }
}
