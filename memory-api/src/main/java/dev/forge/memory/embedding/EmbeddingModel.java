package dev.forge.memory.embedding;

import java.util.List;

/**
 * Turns text into vectors whose closeness stands for closeness of meaning. Opened by an
 * {@link EmbeddingModelFactory}; safe for concurrent use.
 *
 * <p>An index built with one model cannot be searched with another: a provider stores the model's
 * {@link #fingerprint()} with its index and refuses to open it with a model of another fingerprint.
 */
public interface EmbeddingModel extends AutoCloseable {

    /** The name the model was chosen by, as its factory's {@link EmbeddingModelFactory#name()}. */
    String name();

    /** The number of components of every vector. */
    int dimension();

    /**
     * What identifies the vectors this model makes: model, version, settings that change the vectors, and the
     * normalisation. Two models with one fingerprint make the same vector for the same text.
     */
    String fingerprint();

    /**
     * The vectors of {@code texts}, in order, each of {@link #dimension()} components and of unit length (so that a
     * dot product is the cosine similarity), or all zeros for a text in which the model finds nothing (no words).
     *
     * @throws dev.forge.memory.BackendUnavailableException if the model cannot be reached (a remote model)
     */
    List<float[]> embed(List<String> texts);

    /** The vector of one text; see {@link #embed(List)}. */
    default float[] embed(String text) {
        return embed(List.of(text)).get(0);
    }

    /** Releases what the model holds (native sessions, connections); idempotent. */
    @Override
    default void close() {
    }
}
