package dev.forge.memory.support;

import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.embedding.EmbeddingModelFactory;
import dev.forge.memory.spi.ProviderConfig;
import java.util.Objects;

/**
 * What embedding model factories share: a fixed name and description, and an {@link #open} that binds the model's
 * settings to its settings record first. A subclass has a public no-argument constructor that passes those to this one
 * and does nothing else.
 *
 * @param <S> the model's settings record, bound with {@link ProviderConfig#bind}
 */
public abstract class ConfiguredModelFactory<S> extends NamedFactory implements EmbeddingModelFactory {

    private final Class<S> settingsType;

    /** A factory for the model config chooses by {@code name}, whose settings bind to {@code settingsType}. */
    protected ConfiguredModelFactory(String name, Class<S> settingsType, String description) {
        super(name, description);
        this.settingsType = Objects.requireNonNull(settingsType, "settingsType");
    }

    /**
     * Binds the settings and opens the model.
     *
     * @throws dev.forge.memory.ConfigurationException for an unknown setting or a bad value
     */
    @Override
    public EmbeddingModel open(ProviderConfig settings) {
        return open(settings.bind(settingsType), settings);
    }

    /**
     * Opens the model.
     *
     * @param settings the bound settings
     * @param raw      the block they came from, for what binding drops (such as which values are secrets)
     */
    protected abstract EmbeddingModel open(S settings, ProviderConfig raw);
}
