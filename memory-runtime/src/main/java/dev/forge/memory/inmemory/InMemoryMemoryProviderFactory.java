package dev.forge.memory.inmemory;

import dev.forge.memory.spi.Setting;
import dev.forge.memory.support.ConfiguredProviderFactory;
import dev.forge.memory.support.SearchText;
import java.util.List;

/**
 * Opens {@link InMemoryMemoryProvider}s, each on a new, empty {@link InMemoryStore}. Config keys:
 * {@code tombstones} (default false), whether deletions keep the history; {@code embedding}, a block naming an
 * {@link dev.forge.memory.embedding.EmbeddingModel} ({@code {model: hashing}}) for semantic and hybrid search;
 * {@code search_fields}, what is searched besides the value ({@link SearchText}, default {@code [key, tags]}).
 */
public final class InMemoryMemoryProviderFactory extends ConfiguredProviderFactory<InMemoryMemoryProviderFactory.Settings> {

    /** The config key of the embedding block. */
    static final String EMBEDDING = "embedding";

    /** Does nothing; all work happens in {@link #open}. */
    public InMemoryMemoryProviderFactory() {
        super(InMemoryMemoryProvider.NAME, Settings.class, InMemoryMemoryProvider.CAPABILITIES,
                "Everything in memory, nothing persisted: for tests and throw-away sessions.", Settings::describe,
                EMBEDDING, (context, settings, model) -> new InMemoryMemoryProvider(
                        new InMemoryStore(Boolean.TRUE.equals(settings.tombstones())), context, model,
                        settings.searchFields() == null ? SearchText.DEFAULT : settings.searchFields()));
    }

    /**
     * The in-memory provider's settings: tombstones, for testing code against both kinds of history, and search_fields.
     *
     * @param tombstones whether delete and clear keep the history ({@link dev.forge.memory.Capability#TOMBSTONES});
     *                   default false
     * @param searchFields what keyword search and embeddings see besides the value; {@code null} for the default
     */
    record Settings(Boolean tombstones, SearchText searchFields) {

        /** {@code tombstones} and the embedding block, described for templates. */
        static List<Setting> describe() {
            return List.of(
                    Setting.of("tombstones", "boolean", "false", "true: delete and clear keep the history, as markdown and sqlite do"),
                    Setting.of(EMBEDDING, "map", "{ model: hashing }", "semantic and hybrid search with this embedding "
                            + "model, its settings beside 'model'; none when left out"),
                    SearchText.setting());
        }
    }
}
