package dev.forge.memory.sqlite;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.Setting;
import dev.forge.memory.support.ConfiguredProviderFactory;
import java.util.List;

/**
 * Opens {@link SqliteMemoryProvider}s: the provider named {@value SqliteMemoryProvider#NAME}, configured by
 * {@link SqliteConfig}.
 */
public final class SqliteMemoryProviderFactory extends ConfiguredProviderFactory<SqliteConfig> {

    /** Does nothing; all work happens in {@link #open}. */
    public SqliteMemoryProviderFactory() {
        super(SqliteMemoryProvider.NAME, SqliteConfig.class, SqliteMemoryProvider.CAPABILITIES, "One embedded SQLite "
                + "database file: FTS5 keyword search, transactions, history with tombstones and relations.");
    }

    /** {@link SqliteConfig}'s keys. */
    @Override
    public List<Setting> settings() {
        return SqliteConfig.settings();
    }

    /**
     * Opens the database file the config names, creating it when missing.
     *
     * @throws dev.forge.memory.ConfigurationException      if the file is not a SQLite database
     * @throws dev.forge.memory.BackendUnavailableException if the file was written by a newer forge-memory, or cannot be
     *                                                      opened
     */
    @Override
    protected MemoryProvider open(ProviderContext context, SqliteConfig config) {
        return SqliteMemoryProvider.open(context, config);
    }
}
