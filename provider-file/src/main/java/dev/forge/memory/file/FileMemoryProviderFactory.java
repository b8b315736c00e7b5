package dev.forge.memory.file;

import dev.forge.memory.support.ConfiguredProviderFactory;

/**
 * Opens {@link FileMemoryProvider}s: the provider named {@value FileMemoryProvider#NAME}, configured by
 * {@link FileConfig}, whose store directory is created when missing.
 */
public final class FileMemoryProviderFactory extends ConfiguredProviderFactory<FileConfig> {

    /** Does nothing; all work happens in {@link #open}. */
    public FileMemoryProviderFactory() {
        super(FileMemoryProvider.NAME, FileConfig.class, FileMemoryProvider.CAPABILITIES, "One JSON file per memory "
                + "under a scope directory, with history, relations and transactions; several processes may share a "
                + "directory.", FileConfig::settings, FileMemoryProvider::open);
    }
}
