package dev.forge.memory.sqlite;

import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;

/** Opening sqlite providers and plain JDBC connections on a test's directory. */
final class Stores {

    static final String PROJECT = "project-a";
    static final String SESSION = "session-1";

    private Stores() {
    }

    static ProviderContext context(Path directory, Map<String, ?> config) {
        return ProviderContext.builder()
                .projectId(PROJECT)
                .sessionId(SESSION)
                .baseDirectory(directory)
                .forgeHome(directory.resolve("forge-home"))
                .registry(ProviderRegistry.of())
                .config(ProviderConfig.of(config, "test", "memory.config"))
                .build();
    }

    /** A provider on {@code directory}'s default database file, {@code .forge/memory.db}. */
    static SqliteMemoryProvider open(Path directory) {
        return open(directory, Map.of());
    }

    static SqliteMemoryProvider open(Path directory, Map<String, ?> config) {
        return (SqliteMemoryProvider) new SqliteMemoryProviderFactory().open(context(directory, config));
    }

    /** The default database file of {@code directory}. */
    static Path databaseFile(Path directory) {
        return directory.resolve(".forge/memory.db");
    }

    /** A plain JDBC connection of the test's own, to look at or prepare a database file. */
    static Connection jdbc(Path file) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + file);
    }
}
