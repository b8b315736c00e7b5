package dev.forge.memory.file;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.spi.MemoryProviderFactory;
import dev.forge.memory.spi.ProviderContext;

/**
 * Opens {@link FileMemoryProvider}s: the provider named {@value FileMemoryProvider#NAME}, configured by
 * {@link FileConfig}.
 */
public final class FileMemoryProviderFactory implements MemoryProviderFactory {

    /** Does nothing; all work happens in {@link #open}. */
    public FileMemoryProviderFactory() {
    }

    @Override
    public String name() {
        return FileMemoryProvider.NAME;
    }

    @Override
    public String description() {
        return "One JSON file per memory under a scope directory, with history, relations and transactions; "
                + "several processes may share a directory.";
    }

    @Override
    public java.util.Set<dev.forge.memory.Capability> capabilities() {
        return FileMemoryProvider.CAPABILITIES;
    }

    /**
     * Binds the config to {@link FileConfig} and opens the store it names, creating it if needed.
     *
     * @throws dev.forge.memory.ConfigurationException      for an unknown key or a bad value
     * @throws dev.forge.memory.BackendUnavailableException if the directory cannot be created or read
     */
    @Override
    public MemoryProvider open(ProviderContext context) {
        FileConfig config = context.config().bind(FileConfig.class);
        return FileMemoryProvider.open(context, config);
    }
}
