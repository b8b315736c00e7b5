package dev.forge.memory.langchain4j;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.embedding.EmbeddingModel;

import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The LangChain4j models a program has made available to providers by config. Providers open their embedding model
 * by name through {@link java.util.ServiceLoader}, so a model object cannot be handed to them; registered here under
 * an id, it is what an {@code embedding} block names:
 *
 * <pre>{@code
 * try (var registration = LangChain4jEmbeddingModels.register("ollama/nomic-embed-text", ollamaModel)) {
 *     // config: embedding: { model: langchain4j, id: ollama/nomic-embed-text }
 *     try (MemoryProvider memory = Memories.open(projectDirectory)) { ... }
 * }
 * }</pre>
 *
 * The registry is one per JVM (per class loader of this class); a registration lasts until it is closed.
 */
public final class LangChain4jEmbeddingModels {

    private static final ConcurrentMap<String, EmbeddingModel> MODELS = new ConcurrentHashMap<>();

    private LangChain4jEmbeddingModels() {
    }

    /**
     * Makes {@code model} available as {@code embedding: {model: langchain4j, id: <id>}}; its fingerprint names
     * {@code id} (see {@link LangChain4jEmbeddingModel}).
     *
     * @return the registration; closing it removes the model
     * @throws ConfigurationException if another model is registered under {@code id}
     */
    public static Registration register(String id, dev.langchain4j.model.embedding.EmbeddingModel model) {
        return register(id, (EmbeddingModel) new LangChain4jEmbeddingModel(model, id));
    }

    /** Registers a forge-memory model under {@code id}; the embedding store's own models go this way. */
    static Registration register(String id, EmbeddingModel model) {
        Objects.requireNonNull(model, "model");
        if (MODELS.putIfAbsent(Objects.requireNonNull(id, "id"), model) != null) {
            throw new ConfigurationException("A LangChain4j embedding model is registered under '" + id
                    + "' already; close its registration first, or register this one under another id.");
        }
        return new Registration(id, model);
    }

    /** The ids registered now, in order. */
    public static Set<String> ids() {
        return Set.copyOf(new TreeSet<>(MODELS.keySet()));
    }

    /**
     * The model registered under {@code id}.
     *
     * @throws ConfigurationException naming the registered ids when there is none
     */
    static EmbeddingModel lookup(String id, String source, String field) {
        EmbeddingModel model = MODELS.get(id);
        if (model == null) {
            throw new ConfigurationException(source + ": no LangChain4j embedding model is registered under '" + id
                    + "' (registered: " + (MODELS.isEmpty() ? "none" : String.join(", ", new TreeSet<>(MODELS.keySet())))
                    + "). Call LangChain4jEmbeddingModels.register(\"" + id + "\", model) before opening the provider.",
                    source, field, null);
        }
        return model;
    }

    /** A model's place in the registry; {@link #close()} frees the id. */
    public static final class Registration implements AutoCloseable {
        private final String id;
        private final EmbeddingModel model;

        private Registration(String id, EmbeddingModel model) {
            this.id = id;
            this.model = model;
        }

        /** The id the model is registered under. */
        public String id() {
            return id;
        }

        /** Removes the model from the registry; providers opened with it keep it. Idempotent. */
        @Override
        public void close() {
            MODELS.remove(id, model);
        }
    }
}
