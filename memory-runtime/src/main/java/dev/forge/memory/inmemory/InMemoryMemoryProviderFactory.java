package dev.forge.memory.inmemory;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.support.EmbeddingModels;
import dev.forge.memory.spi.MemoryProviderFactory;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.util.Optional;

/**
 * Opens {@link InMemoryMemoryProvider}s, each on a new, empty {@link InMemoryStore}. Config keys:
 * {@code tombstones} (default false), whether deletions keep the history; {@code embedding}, a block naming an
 * {@link dev.forge.memory.embedding.EmbeddingModel} ({@code {model: hashing}}) for semantic and hybrid search.
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

    /**
     * Opens a provider on a new, empty store; with {@code tombstones: true}, deletions keep the history; with an
     * {@code embedding} block ({@code {model: hashing}}), semantic and hybrid search are offered.
     */
    @Override
    public MemoryProvider open(ProviderContext context) {
        ProviderConfig config = context.config();
        Settings settings = config.without(EMBEDDING).bind(Settings.class);
        Optional<EmbeddingModel> model = config.child(EMBEDDING).map(block -> EmbeddingModels.load().open(block));
        return new InMemoryMemoryProvider(new InMemoryStore(Boolean.TRUE.equals(settings.tombstones())), context, model);
    }

    /** The config key of the embedding block. */
    static final String EMBEDDING = "embedding";

    /**
     * The in-memory provider's one setting, for testing code against both kinds of history.
     *
     * @param tombstones whether delete and clear keep the history ({@link dev.forge.memory.Capability#TOMBSTONES});
     *                   default false
     */
    record Settings(Boolean tombstones) {
    }
}
