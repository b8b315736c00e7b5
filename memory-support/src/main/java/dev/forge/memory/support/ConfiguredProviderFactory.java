package dev.forge.memory.support;

import dev.forge.memory.Capability;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.spi.MemoryProviderFactory;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.Setting;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * What provider factories share: a fixed name, description, capabilities and settings, and an {@link #open} that
 * binds the config block to the provider's config record before it opens anything. A subclass is a public
 * no-argument constructor that passes those to this one, and nothing else:
 *
 * <pre>{@code
 * public FileMemoryProviderFactory() {
 *     super(FileMemoryProvider.NAME, FileConfig.class, FileMemoryProvider.CAPABILITIES, "One JSON file per memory...",
 *             FileConfig::settings, FileMemoryProvider::open);
 * }
 * }</pre>
 *
 * @param <C> the provider's config record, bound with {@link ProviderConfig#bind}
 */
public abstract class ConfiguredProviderFactory<C> extends NamedFactory implements MemoryProviderFactory {

    /**
     * Opens a provider on its bound config and the model its embedding block names, if any.
     *
     * @param <C> the provider's config record
     */
    @FunctionalInterface
    public interface Opener<C> {
        /** Opens the provider; {@code model} is the caller's to close if this throws. */
        MemoryProvider open(ProviderContext context, C config, Optional<EmbeddingModel> model);
    }

    private final Class<C> configType;
    private final Set<Capability> capabilities;
    private final Supplier<List<Setting>> settings;
    private final String embeddingKey;
    private final Opener<C> opener;

    /**
     * A factory whose whole config block binds to {@code configType}.
     *
     * @param capabilities what a provider reports with its default settings ({@link #capabilities()})
     * @param description  one sentence for listings
     * @param settings     the keys of the block, described ({@link #settings()}); called when asked, not here
     * @param opener       opens the provider on the bound config
     */
    protected ConfiguredProviderFactory(String name, Class<C> configType, Set<Capability> capabilities, String description,
            Supplier<List<Setting>> settings, BiFunction<ProviderContext, C, MemoryProvider> opener) {
        this(name, configType, capabilities, description, settings, null,
                (context, config, model) -> opener.apply(context, config));
        Objects.requireNonNull(opener, "opener");
    }

    /**
     * A factory whose config block holds, beside the keys of {@code configType}, an optional block at
     * {@code embeddingKey} naming an {@link EmbeddingModel} ({@code embedding: {model: hashing}}) that
     * {@code opener} is given.
     */
    protected ConfiguredProviderFactory(String name, Class<C> configType, Set<Capability> capabilities, String description,
            Supplier<List<Setting>> settings, String embeddingKey, Opener<C> opener) {
        super(name, description);
        this.configType = Objects.requireNonNull(configType, "configType");
        this.capabilities = Set.copyOf(capabilities);
        this.settings = Objects.requireNonNull(settings, "settings");
        this.embeddingKey = embeddingKey;
        this.opener = Objects.requireNonNull(opener, "opener");
    }

    @Override
    public final Set<Capability> capabilities() {
        return capabilities;
    }

    @Override
    public final List<Setting> settings() {
        return List.copyOf(settings.get());
    }

    /**
     * Binds the config block (without the embedding block, if there is an embedding key), opens the model the
     * embedding block names, and opens the provider; closes the model again if the provider fails to open.
     *
     * @throws dev.forge.memory.ConfigurationException      for unknown keys (all of them at once, with what to use
     *                                                      instead where known), a bad value or an unknown model
     * @throws dev.forge.memory.BackendUnavailableException if the backend cannot be reached
     */
    @Override
    public final MemoryProvider open(ProviderContext context) {
        ProviderConfig config = context.config();
        if (configType.isRecord()) {
            Set<String> known = new java.util.TreeSet<>(UnknownKeys.keysOf(configType));
            if (embeddingKey != null) {
                known.add(embeddingKey);
            }
            UnknownKeys.check(config, known, name(), description());
        }
        C bound = (embeddingKey == null ? config : config.without(embeddingKey)).bind(configType);
        Optional<EmbeddingModel> model = embeddingKey == null ? Optional.empty()
                : config.child(embeddingKey).map(block -> EmbeddingModels.load().open(block));
        try {
            return opener.open(context, bound, model);
        } catch (RuntimeException | Error e) {
            model.ifPresent(EmbeddingModel::close);
            throw e;
        }
    }
}
