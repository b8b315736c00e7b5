package dev.forge.memory.support;

import dev.forge.memory.embedding.EmbeddingModel;
import java.util.List;

/**
 * An embedding model whose authors embed a search query differently from the texts searched, for instance with an
 * instruction put before the query (bge-small-en-v1.5). Stored texts are embedded with {@link #embed(List)} as with
 * any model; a provider embeds the text of a search with {@link #vectorOfQuery}, which uses {@link #embedQueries} when
 * the model is one of these. It lives here rather than in {@code memory-api} to keep the contract small: a model
 * that embeds queries and texts alike needs none of it.
 */
public interface QueryEmbedding extends EmbeddingModel {

    /**
     * The vectors of search queries, in order, as {@link #embed(List)} describes them. Changing how queries are
     * embedded does not change the stored vectors, so it is not part of the {@link #fingerprint()}.
     */
    List<float[]> embedQueries(List<String> queries);

    /** The vector of the search text {@code query} made by {@code model}: as a query if the model tells queries apart. */
    static float[] vectorOfQuery(EmbeddingModel model, String query) {
        return model instanceof QueryEmbedding asymmetric ? asymmetric.embedQueries(List.of(query)).get(0) : model.embed(query);
    }
}
