package dev.forge.memory.langchain4j;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.embedding.EmbeddingModelFactory;
import dev.forge.memory.spi.ProviderConfig;

import java.util.Set;

/**
 * The {@value LangChain4jEmbeddingModel#NAME} embedding model: a LangChain4j model the program registered with
 * {@link LangChain4jEmbeddingModels#register}, chosen by its id ({@code embedding: {model: langchain4j, id: ...}}).
 */
public final class LangChain4jEmbeddingModelFactory implements EmbeddingModelFactory {

    /** The setting naming the registered model. */
    static final String ID = "id";

    /** Does nothing; all work happens in {@link #open}. */
    public LangChain4jEmbeddingModelFactory() {
    }

    @Override
    public String name() {
        return LangChain4jEmbeddingModel.NAME;
    }

    @Override
    public String description() {
        return "A LangChain4j embedding model the program registered with LangChain4jEmbeddingModels.register (Ollama, "
                + "Bedrock, Azure, ...), chosen by its id.";
    }

    /**
     * The registered model named by {@code id}.
     *
     * @throws ConfigurationException for a missing or unknown id, or any other setting
     */
    @Override
    public EmbeddingModel open(ProviderConfig settings) {
        String field = settings.path() + "." + ID;
        for (String key : settings.values().keySet()) {
            if (!ID.equals(key)) {
                throw new ConfigurationException(settings.source() + ": unknown setting '" + key + "' of the "
                        + name() + " embedding model at " + settings.path() + "; the only setting is '" + ID + "'.",
                        settings.source(), settings.path() + "." + key, null);
            }
        }
        Object id = settings.values().get(ID);
        if (!(id instanceof String text) || text.isBlank()) {
            throw new ConfigurationException(settings.source() + ": the " + name() + " embedding model needs '" + ID
                    + "', the id its model was registered under (registered: " + describe(LangChain4jEmbeddingModels.ids())
                    + ").", settings.source(), field, null);
        }
        return LangChain4jEmbeddingModels.lookup(text, settings.source(), field);
    }

    private static String describe(Set<String> ids) {
        return ids.isEmpty() ? "none" : String.join(", ", ids);
    }

    @Override
    public String toString() {
        return "LangChain4jEmbeddingModelFactory[" + name() + "]";
    }
}
