package dev.forge.memory.benchmarks.vector;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.embedding.EmbeddingModelFactory;
import dev.forge.memory.spi.ProviderConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code bench-precomputed} embedding model: the MiniLM vectors the vector benchmark computed in its setup, looked
 * up by text. The vector provider's {@code search} takes a query text, not a vector; with this model it gets the
 * query's MiniLM vector without running MiniLM inside the timed part, so the timing is the search alone (the
 * embedding cost is reported apart). A text nobody registered is refused.
 */
public final class PrecomputedEmbeddingModelFactory implements EmbeddingModelFactory {

    /** The name the benchmark's provider config chooses this model by. */
    public static final String NAME = "bench-precomputed";

    private static final Map<String, float[]> VECTORS = new ConcurrentHashMap<>();
    private static volatile String sourceFingerprint = "";
    private static volatile int dimension;

    /** Does nothing; see {@link #open}. */
    public PrecomputedEmbeddingModelFactory() {
    }

    /**
     * Registers the vector {@code text} is to get, made by the model of {@code fingerprint}.
     *
     * @throws IllegalArgumentException if its dimension differs from the vectors registered before
     */
    static void register(String fingerprint, String text, float[] vector) {
        synchronized (VECTORS) {
            if (VECTORS.isEmpty()) {
                dimension = vector.length;
                sourceFingerprint = fingerprint;
            } else if (vector.length != dimension || !fingerprint.equals(sourceFingerprint)) {
                throw new IllegalArgumentException("a vector of " + vector.length + " components by " + fingerprint
                        + " among vectors of " + dimension + " by " + sourceFingerprint);
            }
            VECTORS.put(text, vector.clone());
        }
    }

    /** Forgets every registered vector. */
    static void clear() {
        VECTORS.clear();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "benchmarks only: vectors computed beforehand, looked up by text.";
    }

    /**
     * Opens the model on the vectors registered so far.
     *
     * @throws ConfigurationException if nothing was registered, or for any setting (it has none)
     */
    @Override
    public EmbeddingModel open(ProviderConfig settings) {
        if (!settings.values().isEmpty()) {
            throw new ConfigurationException("The " + NAME + " model has no settings; remove " + settings.values().keySet() + ".");
        }
        if (VECTORS.isEmpty()) {
            throw new ConfigurationException("The " + NAME + " model has no vectors: the benchmark registers them before it opens a provider.");
        }
        int size = dimension;
        String fingerprint = NAME + ":" + sourceFingerprint;
        return new EmbeddingModel() {
            @Override
            public String name() {
                return NAME;
            }

            @Override
            public int dimension() {
                return size;
            }

            @Override
            public String fingerprint() {
                return fingerprint;
            }

            @Override
            public List<float[]> embed(List<String> texts) {
                List<float[]> vectors = new ArrayList<>(texts.size());
                for (String text : texts) {
                    float[] vector = VECTORS.get(text);
                    if (vector == null) {
                        throw new BackendUnavailableException("The " + NAME + " model has no vector for a text of "
                                + text.length() + " characters; the benchmark registers every text it indexes or searches.");
                    }
                    vectors.add(vector.clone());
                }
                return vectors;
            }
        };
    }
}
