package dev.forge.memory.springai;

import dev.forge.memory.EntryRules;
import dev.forge.memory.Hit;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.KeyPattern;
import dev.forge.memory.Keys;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.springai.internal.IdKeys;
import dev.forge.memory.springai.internal.FilterMapping;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.springframework.ai.document.Document;
import org.springframework.ai.document.DocumentMetadata;
import org.springframework.ai.vectorstore.SearchRequest;
import org.springframework.ai.vectorstore.VectorStore;
import org.springframework.ai.vectorstore.filter.Filter;

/**
 * Spring AI's {@link VectorStore} over any forge-memory {@link MemoryProvider} with search: each {@link Document} is a
 * memory whose key is the collection's key prefix plus the document id (escaped as {@link ForgeChatMemoryRepository}
 * escapes conversation ids), whose value is the text and whose metadata is the document's metadata, tagged with the
 * collection's tag.
 *
 * <p>The provider embeds: similarity search is forge-memory's own {@link SearchMode#SEMANTIC} search (or the mode
 * the builder names), with the model of the provider's {@code embedding} block; no Spring AI {@code EmbeddingModel}
 * is used. Scores follow Spring AI's convention: {@link Document#getScore()} is the similarity, higher is closer, in
 * (0, 1] (the provider's hit score, see docs/spring-ai.md), and the metadata {@code distance} is {@code 1 - score}.
 * {@code similarityThreshold} is the lowest score returned.
 *
 * <p>Filter expressions: equalities joined by AND map exactly onto forge-memory's metadata filter (numbers compared
 * by value, so {@code year == 2020} matches {@code 2020.0}); any other expression is refused with an
 * {@link InvalidRequestException} naming it. Metadata values must be JSON values (strings, booleans, numbers, lists,
 * maps); whole numbers come back as {@code Long}, decimals as {@code Double}. Only text documents can be stored.
 * The store does not own the provider: close the provider yourself.
 */
public final class ForgeVectorStore implements VectorStore {

    /** The default collection: key prefix {@code doc:}, tag {@code spring-ai-doc}. */
    public static final String DEFAULT_COLLECTION = "doc";

    private final MemoryProvider provider;
    private final Scope scope;
    private final SearchMode mode;
    private final String keyPrefix;
    private final String tag;

    private ForgeVectorStore(Builder builder) {
        this.provider = builder.provider;
        this.scope = builder.scope;
        this.mode = builder.mode;
        this.keyPrefix = builder.collection + ":";
        this.tag = "spring-ai-" + builder.collection;
    }

    /** A store over {@code provider}: scope PROJECT, semantic search, the default collection. */
    public static ForgeVectorStore of(MemoryProvider provider) {
        return builder(provider).build();
    }

    /** A builder for a store over {@code provider}. */
    public static Builder builder(MemoryProvider provider) {
        return new Builder(provider);
    }

    @Override
    public String getName() {
        return "ForgeVectorStore(" + provider.name() + ")";
    }

    /** The provider, as {@code getNativeClient()} of other stores gives their client. */
    @Override
    @SuppressWarnings("unchecked")
    public <T> Optional<T> getNativeClient() {
        return Optional.of((T) provider);
    }

    /**
     * Stores the documents, replacing those with the same ids. Every document is checked against the entry rules and
     * the provider's limits before the first is written, so a bad one (no text, media, metadata that is not JSON, a
     * text or metadata over the limits, an id too long) stores none of the batch.
     *
     * @throws InvalidEntryException naming the document that cannot be stored
     */
    @Override
    public void add(List<Document> documents) {
        List<Map.Entry<String, Document>> checked = new ArrayList<>(documents.size());
        for (Document document : documents) {
            String key = key(document.getId());
            if (document.getText() == null || !document.isText()) {
                throw new InvalidEntryException("Document '" + Keys.abbreviate(document.getId()) + "' has no text (media "
                        + "documents cannot be stored): give it a text, such as a description of the media.");
            }
            EntryRules.checkValue(document.getText(), key, provider.limits());
            EntryRules.checkMetadataSize(EntryRules.normalizeMetadata(document.getMetadata(), key), key, provider.limits());
            checked.add(Map.entry(key, document));
        }
        for (Map.Entry<String, Document> item : checked) {
            Document document = item.getValue();
            provider.set(item.getKey(), document.getText(), scope, List.of(tag), document.getMetadata());
        }
    }

    /** Deletes the documents with these ids; missing ids are skipped. */
    @Override
    public void delete(List<String> idList) {
        for (String id : idList) {
            provider.delete(key(id), scope);
        }
    }

    /**
     * Deletes every document of the collection matching the expression.
     *
     * @throws InvalidRequestException for an expression that is not equalities joined by AND
     */
    @Override
    public void delete(Filter.Expression filterExpression) {
        Objects.requireNonNull(filterExpression, "filterExpression");
        Optional<Map<String, Object>> wanted = FilterMapping.equalities(filterExpression);
        if (wanted.isEmpty()) {
            return;
        }
        Query.Builder query = Query.builder().pattern(KeyPattern.tag(tag)).scopes(scope);
        wanted.get().forEach(query::metadata);
        for (MemoryEntry entry : provider.query(query.build())) {
            if (entry.key().startsWith(keyPrefix)) {
                provider.delete(entry.key(), scope);
            }
        }
    }

    /**
     * The documents closest to the request's query, best first: at most {@code topK}, each scoring at least
     * {@code similarityThreshold}, meeting the filter expression.
     *
     * @throws InvalidRequestException for an empty query or a filter expression that cannot be mapped
     * @throws dev.forge.memory.UnsupportedCapabilityException if the provider cannot search in the store's mode
     */
    @Override
    public List<Document> similaritySearch(SearchRequest request) {
        if (request.getQuery() == null || request.getQuery().isBlank()) {
            throw new InvalidRequestException("A similarity search needs query text: SearchRequest.builder().query(\"...\").");
        }
        dev.forge.memory.SearchRequest.Builder search = dev.forge.memory.SearchRequest.builder(request.getQuery())
                .scopes(scope).mode(mode).limit(request.getTopK()).threshold(request.getSimilarityThreshold()).tag(tag);
        if (request.hasFilterExpression()) {
            Optional<Map<String, Object>> wanted = FilterMapping.equalities(request.getFilterExpression());
            if (wanted.isEmpty()) {
                return List.of();
            }
            wanted.get().forEach(search::metadata);
        }
        List<Document> documents = new ArrayList<>();
        for (Hit hit : provider.search(search.build())) {
            MemoryEntry entry = hit.entry();
            if (!entry.key().startsWith(keyPrefix)) {
                continue;
            }
            Map<String, Object> metadata = new LinkedHashMap<>(entry.metadata());
            metadata.put(DocumentMetadata.DISTANCE.value(), 1.0 - hit.score());
            documents.add(Document.builder().id(documentId(entry.key())).text(entry.value()).metadata(metadata)
                    .score(hit.score()).build());
        }
        return documents;
    }

    private String key(String id) {
        return IdKeys.key(keyPrefix, id, "document id");
    }

    private String documentId(String key) {
        return IdKeys.id(keyPrefix, key);
    }

    /** Builds a {@link ForgeVectorStore}. */
    public static final class Builder {
        private final MemoryProvider provider;
        private Scope scope = Scope.PROJECT;
        private SearchMode mode = SearchMode.SEMANTIC;
        private String collection = DEFAULT_COLLECTION;

        private Builder(MemoryProvider provider) {
            this.provider = Objects.requireNonNull(provider, "provider");
        }

        /** The scope documents are kept in (default PROJECT). */
        public Builder scope(Scope scope) {
            this.scope = Objects.requireNonNull(scope, "scope");
            return this;
        }

        /**
         * How {@code similaritySearch} matches (default SEMANTIC); KEYWORD serves providers without an embedding model
         * (sqlite, markdown) with BM25-style keyword search instead.
         */
        public Builder searchMode(SearchMode mode) {
            this.mode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /**
         * The collection: documents of different collections on one provider are kept apart (key prefix
         * {@code <collection>:}, tag {@code spring-ai-<collection>}). Lower-case letters, digits and '-'.
         */
        public Builder collection(String collection) {
            if (collection == null || !collection.matches("[a-z0-9][a-z0-9-]{0,63}")) {
                throw new InvalidRequestException("The collection name '" + collection + "' is not valid: use 1 to 64 "
                        + "lower-case letters, digits and '-', starting with a letter or digit.");
            }
            this.collection = collection;
            return this;
        }

        /** Builds the store. */
        public ForgeVectorStore build() {
            return new ForgeVectorStore(this);
        }
    }
}
