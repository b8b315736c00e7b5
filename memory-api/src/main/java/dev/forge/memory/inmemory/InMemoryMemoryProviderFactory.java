package dev.forge.memory.inmemory;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.spi.MemoryProviderFactory;
import dev.forge.memory.spi.ProviderContext;

/**
 * Opens {@link InMemoryMemoryProvider}s, each on a new, empty {@link InMemoryStore}. Takes no config keys.
 */
public final class InMemoryMemoryProviderFactory implements MemoryProviderFactory {

    /** Does nothing; see {@link #open}. */
    public InMemoryMemoryProviderFactory() {
    }

    @Override
    public String name() {
        return InMemoryMemoryProvider.NAME;
    }

    @Override
    public String description() {
        return "Everything in memory, nothing persisted: for tests and throw-away sessions.";
    }

    @Override
    public java.util.Set<dev.forge.memory.Capability> capabilities() {
        return InMemoryMemoryProvider.CAPABILITIES;
    }

    @Override
    public MemoryProvider open(ProviderContext context) {
        context.config().bind(Settings.class);
        return new InMemoryMemoryProvider(new InMemoryStore(), context);
    }

    /** The in-memory provider has no settings; binding to this empty record rejects any key. */
    record Settings() {
    }
}
