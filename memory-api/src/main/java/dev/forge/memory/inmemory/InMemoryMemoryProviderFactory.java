package dev.forge.memory.inmemory;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.spi.MemoryProviderFactory;
import dev.forge.memory.spi.ProviderContext;

/**
 * Opens {@link InMemoryMemoryProvider}s, each on a new, empty {@link InMemoryStore}. One config key,
 * {@code tombstones} (default false): whether deletions keep the history.
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

    /** Opens a provider on a new, empty store; with {@code tombstones: true}, deletions keep the history. */
    @Override
    public MemoryProvider open(ProviderContext context) {
        Settings settings = context.config().bind(Settings.class);
        return new InMemoryMemoryProvider(new InMemoryStore(Boolean.TRUE.equals(settings.tombstones())), context);
    }

    /**
     * The in-memory provider's one setting, for testing code against both kinds of history.
     *
     * @param tombstones whether delete and clear keep the history ({@link dev.forge.memory.Capability#TOMBSTONES});
     *                   default false
     */
    record Settings(Boolean tombstones) {
    }
}
