package dev.forge.memory.embedding;

import java.util.List;

/**
 * Turns text into vectors whose closeness stands for closeness of meaning. Opened by an
 * {@link EmbeddingModelFactory}; safe for concurrent use.
 *
 * <p>An index built with one model cannot be searched with another: a provider stores the model's
 * {@link #fingerprint()} with its index and refuses to open it with a model whose fingerprint it does not
 * {@linkplain #recognises recognise}. A model's fingerprint, its error messages and its {@code toString()} never hold
 * a secret of its settings (see {@link dev.forge.memory.spi.ProviderConfig#isSecret}); a provider shows a recorded
 * fingerprint through {@link #describe}.
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
     * Whether vectors recorded with {@code recordedFingerprint} were made by this model: its {@link #fingerprint()},
     * or a form of it an earlier version wrote (or one that differs only in a secret, such as a rotated key, which
     * does not change the vectors). A provider that recognises a fingerprint other than {@link #fingerprint()}
     * records {@link #fingerprint()} in its place. By default only the fingerprint itself.
     */
    default boolean recognises(String recordedFingerprint) {
        return fingerprint().equals(recordedFingerprint);
    }

    /**
     * A recorded fingerprint as messages and logs may show it: any part that may hold one of this model's secrets
     * (recorded by an earlier version, or with an earlier secret) masked. By default as it is.
     */
    default String describe(String recordedFingerprint) {
        return recordedFingerprint;
    }

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
