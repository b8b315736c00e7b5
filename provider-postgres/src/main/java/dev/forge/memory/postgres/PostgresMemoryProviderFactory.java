package dev.forge.memory.postgres;

import dev.forge.memory.support.ConfiguredProviderFactory;

/**
 * Opens {@link PostgresMemoryProvider}s: the provider named {@value PostgresMemoryProvider#NAME}, configured by
 * {@link PostgresConfig}, on the database and schema it names (the schema and its tables created when missing).
 */
public final class PostgresMemoryProviderFactory extends ConfiguredProviderFactory<PostgresConfig> {

    /** Does nothing; all work happens in {@link #open}. */
    public PostgresMemoryProviderFactory() {
        super(PostgresMemoryProvider.NAME, PostgresConfig.class, PostgresMemoryProvider.CAPABILITIES, "A PostgreSQL "
                + "database shared by many processes and machines: tsvector keyword search, SQL transactions, history "
                + "with tombstones and relations; semantic and hybrid search through pgvector with an embedding model.",
                PostgresConfig::settings, PostgresMemoryProvider::open);
    }
}
