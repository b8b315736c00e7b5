package dev.forge.memory.file;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.Setting;
import dev.forge.memory.support.ConfiguredProviderFactory;
import java.util.List;

/**
 * Opens {@link FileMemoryProvider}s: the provider named {@value FileMemoryProvider#NAME}, configured by
 * {@link FileConfig}.
 */
public final class FileMemoryProviderFactory extends ConfiguredProviderFactory<FileConfig> {

    /** Does nothing; all work happens in {@link #open}. */
    public FileMemoryProviderFactory() {
        super(FileMemoryProvider.NAME, FileConfig.class, FileMemoryProvider.CAPABILITIES, "One JSON file per memory "
                + "under a scope directory, with history, relations and transactions; several processes may share a directory.");
    }

    /** {@link FileConfig}'s keys. */
    @Override
    public List<Setting> settings() {
        return FileConfig.settings();
    }

    /**
     * Opens the store the config names, creating it if needed.
     *
     * @throws dev.forge.memory.BackendUnavailableException if the directory cannot be created or read
     */
    @Override
    protected MemoryProvider open(ProviderContext context, FileConfig config) {
        return FileMemoryProvider.open(context, config);
    }
}
