package dev.forge.memory.langchain4j;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Keys;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Any LangChain4j {@link dev.langchain4j.model.embedding.EmbeddingModel} (Ollama, Bedrock, Azure, a local ONNX
 * model...) as a forge-memory {@link EmbeddingModel}. Vectors are brought to unit length, as the SPI asks.
 *
 * <p>The fingerprint is {@code langchain4j:<id>:<dimension>:l2}: {@code id} is what the caller says identifies the
 * vectors (a model name and version, such as {@code ollama/nomic-embed-text:v1.5}); an index built with one id is
 * refused by a model of another id, so change the id when the vectors change. The id holds no secret: it is recorded
 * with the index and shown in messages.
 *
 * <p>A provider reaches a model by config through {@link LangChain4jEmbeddingModels#register}.
 */
public final class LangChain4jEmbeddingModel implements EmbeddingModel {

    /** The name config chooses these models by ({@code embedding: {model: langchain4j, id: ...}}). */
    public static final String NAME = "langchain4j";

    private final dev.langchain4j.model.embedding.EmbeddingModel model;
    private final String id;
    private volatile int dimension;

    /**
     * Wraps {@code model}.
     *
     * @param model the LangChain4j model
     * @param id    what identifies the model's vectors: one line of text, part of the fingerprint
     * @throws dev.forge.memory.InvalidKeyException if {@code id} is empty, longer than 256 characters or not one line
     */
    public LangChain4jEmbeddingModel(dev.langchain4j.model.embedding.EmbeddingModel model, String id) {
        this.model = Objects.requireNonNull(model, "model");
        this.id = Keys.validate(Objects.requireNonNull(id, "id"), "embedding model id", 256);
    }

    /** The LangChain4j model behind this one. */
    public dev.langchain4j.model.embedding.EmbeddingModel model() {
        return model;
    }

    /** What identifies the vectors, as given. */
    public String id() {
        return id;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The model's dimension, asked of it once (a remote model may embed a text to find it). */
    @Override
    public int dimension() {
        int known = dimension;
        if (known == 0) {
            known = call(model::dimension);
            dimension = known;
        }
        return known;
    }

    @Override
    public String fingerprint() {
        return String.join(":", NAME, id, Integer.toString(dimension()), "l2");
    }

    @Override
    public List<float[]> embed(List<String> texts) {
        if (texts.isEmpty()) {
            return List.of();
        }
        List<TextSegment> segments = texts.stream().map(TextSegment::from).toList();
        List<Embedding> embeddings = call(() -> model.embedAll(segments).content());
        if (embeddings == null || embeddings.size() != texts.size()) {
            throw new BackendUnavailableException("The LangChain4j embedding model '" + id + "' returned "
                    + (embeddings == null ? "nothing" : embeddings.size() + " vectors") + " for " + texts.size()
                    + " texts.");
        }
        List<float[]> vectors = new ArrayList<>(embeddings.size());
        for (Embedding embedding : embeddings) {
            vectors.add(unitLength(embedding.vector(), dimension(), id));
        }
        return vectors;
    }

    /** {@code vector} scaled to unit length (a zero vector stays zero), after checking its dimension. */
    static float[] unitLength(float[] vector, int dimension, String id) {
        if (vector.length != dimension) {
            throw new BackendUnavailableException("The LangChain4j embedding model '" + id + "' made a vector of "
                    + vector.length + " components; its dimension is " + dimension + ".");
        }
        double sum = 0;
        for (float v : vector) {
            sum += (double) v * v;
        }
        float[] unit = vector.clone();
        if (sum > 0 && Math.abs(sum - 1.0) > 1e-6) {
            double norm = Math.sqrt(sum);
            for (int i = 0; i < unit.length; i++) {
                unit[i] = (float) (unit[i] / norm);
            }
        }
        return unit;
    }

    private <T> T call(java.util.function.Supplier<T> action) {
        try {
            return action.get();
        } catch (dev.forge.memory.MemoryException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new BackendUnavailableException("The LangChain4j embedding model '" + id + "' failed: " + e, e);
        }
    }

    @Override
    public String toString() {
        return "LangChain4jEmbeddingModel[" + id + ", " + model.getClass().getName() + "]";
    }
}
