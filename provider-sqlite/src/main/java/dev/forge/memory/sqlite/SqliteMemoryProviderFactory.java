package dev.forge.memory.sqlite;

import dev.forge.memory.Capability;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.spi.MemoryProviderFactory;
import dev.forge.memory.spi.ProviderContext;
import java.util.Set;

/**
 * Opens {@link SqliteMemoryProvider}s: the provider named {@value SqliteMemoryProvider#NAME}, configured by
 * {@link SqliteConfig}.
 */
public final class SqliteMemoryProviderFactory implements MemoryProviderFactory {

    /** Does nothing; all work happens in {@link #open}. */
    public SqliteMemoryProviderFactory() {
    }

    @Override
    public String name() {
        return SqliteMemoryProvider.NAME;
    }

    @Override
    public String description() {
        return "One embedded SQLite database file: FTS5 keyword search, transactions, history with tombstones and relations.";
    }

    @Override
    public Set<Capability> capabilities() {
        return SqliteMemoryProvider.CAPABILITIES;
    }

    /**
     * Binds the config to {@link SqliteConfig} and opens the database file it names, creating it when missing.
     *
     * @throws dev.forge.memory.ConfigurationException      for an unknown key, a bad value, or a file that is not a
     *                                                      SQLite database
     * @throws dev.forge.memory.BackendUnavailableException if the file was written by a newer forge-memory, or cannot be
     *                                                      opened
     */
    @Override
    public MemoryProvider open(ProviderContext context) {
        return SqliteMemoryProvider.open(context, context.config().bind(SqliteConfig.class));
    }
}
