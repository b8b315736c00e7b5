package dev.forge.memory.inmemory;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.Setting;
import dev.forge.memory.support.ConfiguredProviderFactory;
import java.util.List;

/**
 * Opens {@link InMemoryMemoryProvider}s, each on a new, empty {@link InMemoryStore}. Config keys:
 * {@code tombstones} (default false), whether deletions keep the history; {@code embedding}, a block naming an
 * {@link dev.forge.memory.embedding.EmbeddingModel} ({@code {model: hashing}}) for semantic and hybrid search.
 */
public final class InMemoryMemoryProviderFactory extends ConfiguredProviderFactory<InMemoryMemoryProviderFactory.Settings> {

    /** The config key of the embedding block. */
    static final String EMBEDDING = "embedding";

    /** Does nothing; see {@link #open}. */
    public InMemoryMemoryProviderFactory() {
        super(InMemoryMemoryProvider.NAME, Settings.class, InMemoryMemoryProvider.CAPABILITIES,
                "Everything in memory, nothing persisted: for tests and throw-away sessions.", EMBEDDING);
    }

    /** {@code tombstones} and the embedding block. */
    @Override
    public List<Setting> settings() {
        return List.of(
                Setting.of("tombstones", "boolean", "false", "true: delete and clear keep the history, as markdown and sqlite do"),
                Setting.of(EMBEDDING, "map", "{ model: hashing }", "semantic and hybrid search with this embedding "
                        + "model, its settings beside 'model'; none when left out"));
    }

    /**
     * Opens a provider on a new, empty store; with {@code tombstones: true}, deletions keep the history; with an
     * {@code embedding} block ({@code {model: hashing}}), semantic and hybrid search are offered.
     */
    @Override
    protected MemoryProvider open(ProviderContext context, Settings settings) {
        return withModel(context, model -> new InMemoryMemoryProvider(
                new InMemoryStore(Boolean.TRUE.equals(settings.tombstones())), context, model));
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
