package dev.forge.memory.langchain4j;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.embedding.EmbeddingModel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The embedding model a {@link ForgeEmbeddingStore} opens its provider with. LangChain4j hands the store vectors, while
 * a provider embeds text itself: so the store gives this model the vector of each text it is about to write or search
 * for ({@link #give}), and the provider's own vector search runs on exactly the vectors LangChain4j gave. A text it was
 * not given (a reindex, or a search of the provider by text) goes to the LangChain4j model the store was built with;
 * without one, that is a {@link ConfigurationException} saying so.
 *
 * <p>Its fingerprint is that of a {@link LangChain4jEmbeddingModel} of the same id, since the vectors are that
 * model's: an index written through the store can be searched by text with that model.
 */
final class GivenVectorsModel implements EmbeddingModel {

    private final String id;
    private final int dimension;
    private final Optional<LangChain4jEmbeddingModel> fallback;
    private final Map<String, float[]> given = new ConcurrentHashMap<>();
    /** The text this thread is writing, and whether the provider embedded it in this thread during the write. */
    private final ThreadLocal<Write> writing = new ThreadLocal<>();

    private static final class Write {
        final String text;
        boolean embedded;

        Write(String text) {
            this.text = text;
        }
    }
    /** The prefix of the keys of the store's entries; their text is the key's line, then the value. */
    private final String entryPrefix;

    GivenVectorsModel(String id, int dimension, Optional<LangChain4jEmbeddingModel> fallback, String entryPrefix) {
        this.id = Objects.requireNonNull(id, "id");
        this.dimension = dimension;
        this.fallback = fallback;
        this.entryPrefix = entryPrefix;
    }

    /** Makes {@code vector} (unit length) the vector of {@code text} until {@link #forget}. */
    void give(String text, float[] vector) {
        given.put(text, LangChain4jEmbeddingModel.unitLength(vector, dimension, id));
    }

    /** Drops the vector of {@code text}. */
    void forget(String text) {
        given.remove(text);
    }

    /**
     * Runs {@code write}, which stores the entry whose text is {@code text}, and then drops the text's vector if the
     * provider embedded it in this very write (it indexed the vector): only a provider that embeds when it searches
     * (in-memory) needs given vectors kept. Other threads' searches do not count, so the answer is exact.
     */
    void writing(String text, Runnable write) {
        Write current = new Write(text);
        writing.set(current);
        try {
            write.run();
        } finally {
            writing.remove();
        }
        if (current.embedded) {
            given.remove(text);
        }
    }

    @Override
    public String name() {
        return LangChain4jEmbeddingModel.NAME;
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public String fingerprint() {
        return String.join(":", LangChain4jEmbeddingModel.NAME, id, Integer.toString(dimension), "l2");
    }

    @Override
    public List<float[]> embed(List<String> texts) {
        List<float[]> vectors = new ArrayList<>(texts.size());
        List<Integer> missing = new ArrayList<>();
        List<String> toEmbed = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            float[] vector = given.get(texts.get(i));
            vectors.add(vector);
            if (vector != null) {
                Write current = writing.get();
                if (current != null && current.text.equals(texts.get(i))) {
                    current.embedded = true;
                }
            } else {
                missing.add(i);
                toEmbed.add(withoutKeyLine(texts.get(i)));
            }
        }
        if (!missing.isEmpty()) {
            LangChain4jEmbeddingModel model = fallback.orElseThrow(() -> new ConfigurationException("The forge-memory "
                    + "embedding store for '" + id + "' was asked to embed " + missing.size() + " text(s) it was given "
                    + "no vector for (a reindex, or a search by text): build the store with "
                    + "ForgeEmbeddingStore.builder().embeddingModel(model), the LangChain4j model that made its vectors."));
            List<float[]> embedded = model.embed(toEmbed);
            for (int i = 0; i < missing.size(); i++) {
                vectors.set(missing.get(i), embedded.get(i));
            }
        }
        return vectors;
    }

    /** An entry's text is its key's line, then its value; the model made its vector from the value alone. */
    private String withoutKeyLine(String text) {
        int end = text.indexOf('\n');
        return text.startsWith(entryPrefix) && end >= 0 ? text.substring(end + 1) : text;
    }

    @Override
    public String toString() {
        return "GivenVectorsModel[" + fingerprint() + ", " + given.size() + " given]";
    }
}
