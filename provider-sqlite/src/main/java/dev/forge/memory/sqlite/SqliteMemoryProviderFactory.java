package dev.forge.memory.sqlite;

import dev.forge.memory.support.ConfiguredProviderFactory;

/**
 * Opens {@link SqliteMemoryProvider}s: the provider named {@value SqliteMemoryProvider#NAME}, configured by
 * {@link SqliteConfig}, on the database file it names, created when missing.
 */
public final class SqliteMemoryProviderFactory extends ConfiguredProviderFactory<SqliteConfig> {

    /** Does nothing; all work happens in {@link #open}. */
    public SqliteMemoryProviderFactory() {
        super(SqliteMemoryProvider.NAME, SqliteConfig.class, SqliteMemoryProvider.CAPABILITIES, "One embedded SQLite "
                + "database file: FTS5 keyword search, transactions, history with tombstones and relations.",
                SqliteConfig::settings, SqliteMemoryProvider::open);
    }
}
