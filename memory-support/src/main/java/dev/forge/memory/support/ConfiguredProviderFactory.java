package dev.forge.memory.support;

import dev.forge.memory.Capability;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.spi.MemoryProviderFactory;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What provider factories share: a fixed name, description and capabilities, and an {@link #open} that binds the
 * config block to the provider's config record first. A subclass has a public no-argument constructor that passes
 * those to this one and does nothing else, describes its keys in {@link #settings()}, and opens its provider in
 * {@link #open(ProviderContext, Object)}.
 *
 * @param <C> the provider's config record, bound with {@link ProviderConfig#bind}
 */
public abstract class ConfiguredProviderFactory<C> implements MemoryProviderFactory {

    private final String name;
    private final Class<C> configType;
    private final Set<Capability> capabilities;
    private final String description;
    private final String embeddingKey;

    /**
     * A factory whose whole config block binds to {@code configType}.
     *
     * @param capabilities what a provider reports with its default settings ({@link #capabilities()})
     * @param description  one sentence for listings
     */
    protected ConfiguredProviderFactory(String name, Class<C> configType, Set<Capability> capabilities,
            String description) {
        this(name, configType, capabilities, description, null);
    }

    /**
     * A factory whose config block holds, beside the keys of {@code configType}, an optional block at
     * {@code embeddingKey} naming an {@link EmbeddingModel} ({@code embedding: {model: hashing}}), which
     * {@link #withModel} opens.
     */
    protected ConfiguredProviderFactory(String name, Class<C> configType, Set<Capability> capabilities,
            String description, String embeddingKey) {
        this.name = Objects.requireNonNull(name, "name");
        this.configType = Objects.requireNonNull(configType, "configType");
        this.capabilities = Set.copyOf(capabilities);
        this.description = Objects.requireNonNull(description, "description");
        this.embeddingKey = embeddingKey;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public Set<Capability> capabilities() {
        return capabilities;
    }

    /**
     * Binds the config block (without the embedding block, if the constructor named one) and opens the provider.
     *
     * @throws dev.forge.memory.ConfigurationException      for an unknown key or a bad value
     * @throws dev.forge.memory.BackendUnavailableException if the backend cannot be reached
     */
    @Override
    public MemoryProvider open(ProviderContext context) {
        ProviderConfig config = context.config();
        return open(context, (embeddingKey == null ? config : config.without(embeddingKey)).bind(configType));
    }

    /** Opens the provider on its bound config: the subclass's whole work. */
    protected abstract MemoryProvider open(ProviderContext context, C config);

    /**
     * Opens the model the embedding block of the context's config names (none without the block) and gives it to
     * {@code opener}; closes it again if {@code opener} fails.
     *
     * @throws dev.forge.memory.ConfigurationException for an unknown model or a bad model setting
     */
    protected final MemoryProvider withModel(ProviderContext context, Function<Optional<EmbeddingModel>, MemoryProvider> opener) {
        Optional<EmbeddingModel> model = embeddingKey == null ? Optional.empty()
                : context.config().child(embeddingKey).map(block -> EmbeddingModels.load().open(block));
        try {
            return opener.apply(model);
        } catch (RuntimeException | Error e) {
            model.ifPresent(EmbeddingModel::close);
            throw e;
        }
    }
}
