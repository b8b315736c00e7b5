package dev.forge.memory.embedding;

import dev.forge.memory.spi.ProviderConfig;

/**
 * Opens {@link EmbeddingModel}s; found by {@link java.util.ServiceLoader} under
 * {@code META-INF/services/dev.forge.memory.embedding.EmbeddingModelFactory}. The constructor takes no arguments and
 * does nothing; all work starts in {@link #open}.
 */
public interface EmbeddingModelFactory {

    /** The short name config chooses the model by ({@code embedding: {model: NAME}}): lower case, digits, '-'. */
    String name();

    /** One sentence for listings. */
    String description();

    /**
     * Opens the model with its settings (the {@code embedding} block without {@code model}).
     *
     * @throws dev.forge.memory.ConfigurationException for an unknown setting or a bad value
     */
    EmbeddingModel open(ProviderConfig settings);
}
