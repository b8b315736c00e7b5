package dev.forge.memory.langchain4j;

import dev.forge.memory.Capability;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.forge.memory.config.Memories;
import dev.forge.memory.config.ResolvedConfig;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderRegistry;
import dev.forge.memory.spi.Setting;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingMatch;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.EmbeddingSearchResult;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.langchain4j.store.embedding.filter.Filter;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * A LangChain4j {@link EmbeddingStore} of {@link TextSegment}s on a forge-memory provider with semantic search (the
 * {@code vector} and {@code in-memory} providers, or {@code hybrid} with a {@code search} child, whose
 * {@code embedding} the store sets), opened from the project's configuration as
 * {@link Memories} opens it. Search is the provider's own vector search, on the very vectors LangChain4j gave: the
 * store opens the provider with an embedding model it feeds those vectors (see {@link LangChain4jEmbeddingModel} for
 * the fingerprint), and with {@code search_fields: [key]}, so that what is embedded is the segment's text.
 *
 * <p>Each embedding is one entry, {@code langchain4j/segment/<id>} in the store's scope (PROJECT by default), its
 * value the segment's text, its metadata the segment's metadata (UUIDs as text) plus the fields
 * {@code langchain4j:types}, {@code langchain4j:embedding} and {@code langchain4j:segment} that bring the segment and
 * the vector back exactly.
 *
 * <p>Scores follow LangChain4j: the relevance {@code (cosine + 1) / 2}. forge-memory returns only hits with a positive
 * cosine, so an embedding pointing away from the query (relevance 0.5 or less) is never a match. Filters map where
 * they mean the same (see {@link FilterMapping}); other filters throw {@link UnsupportedOperationException}.
 *
 * <p>A provider that embeds when it writes ({@code vector}) has indexed a given vector when {@code add} returns, and
 * the store forgets it; one that embeds when it searches ({@code in-memory}) gets the vectors kept in memory until
 * their entry is removed. Close the store to close its provider.
 */
public final class ForgeEmbeddingStore implements EmbeddingStore<TextSegment>, AutoCloseable {

    /** The key prefix of the store's entries. */
    public static final String PREFIX = "langchain4j/segment/";
    /** The tag of the store's entries. */
    public static final String TAG = "langchain4j-segment";
    private static final String QUERY_PREFIX = "langchain4j query ";

    private final MemoryProvider provider;
    private final GivenVectorsModel model;
    private final LangChain4jEmbeddingModels.Registration registration;
    private final Scope scope;

    private ForgeEmbeddingStore(MemoryProvider provider, GivenVectorsModel model,
            LangChain4jEmbeddingModels.Registration registration, Scope scope) {
        this.provider = provider;
        this.model = model;
        this.registration = registration;
        this.scope = scope;
    }

    /** A builder; see {@link Builder}. */
    public static Builder builder() {
        return new Builder();
    }

    /** The provider the store writes to, for search by text ({@link ForgeContentRetriever}), history and export. */
    public MemoryProvider provider() {
        return provider;
    }

    /** The scope the store's entries live in. */
    public Scope scope() {
        return scope;
    }

    @Override
    public String add(Embedding embedding) {
        String id = UUID.randomUUID().toString();
        add(id, embedding);
        return id;
    }

    @Override
    public void add(String id, Embedding embedding) {
        write(id, embedding, null);
    }

    @Override
    public String add(Embedding embedding, TextSegment segment) {
        String id = UUID.randomUUID().toString();
        write(id, embedding, segment);
        return id;
    }

    @Override
    public List<String> addAll(List<Embedding> embeddings) {
        List<String> ids = generateIds(embeddings.size());
        addAll(ids, embeddings, null);
        return ids;
    }

    @Override
    public void addAll(List<String> ids, List<Embedding> embeddings, List<TextSegment> segments) {
        Objects.requireNonNull(ids, "ids");
        Objects.requireNonNull(embeddings, "embeddings");
        if (ids.size() != embeddings.size() || segments != null && segments.size() != embeddings.size()) {
            throw new IllegalArgumentException("addAll needs as many ids (" + ids.size() + ") and segments ("
                    + (segments == null ? "none" : segments.size()) + ") as embeddings (" + embeddings.size() + ").");
        }
        for (int i = 0; i < ids.size(); i++) {
            write(ids.get(i), embeddings.get(i), segments == null ? null : segments.get(i));
        }
    }

    private void write(String id, Embedding embedding, TextSegment segment) {
        requireId(id);
        Objects.requireNonNull(embedding, "embedding");
        String key = PREFIX + id;
        String value = SegmentCodec.value(segment);
        Map<String, Object> metadata = SegmentCodec.metadata(id, embedding, segment);
        String text = key + "\n" + value;
        Optional<String> before = provider.get(key, scope).map(old -> key + "\n" + old.value());
        model.give(text, embedding.vector());
        boolean written = false;
        try {
            model.writing(text, () -> provider.set(key, value, scope, List.of(TAG), metadata));
            written = true;
        } finally {
            if (!written && before.filter(text::equals).isEmpty()) {
                model.forget(text);
            }
        }
        before.filter(old -> !old.equals(text)).ifPresent(model::forget);
    }

    @Override
    public void remove(String id) {
        requireId(id);
        removeAll(List.of(id));
    }

    /** Removes the entries of {@code ids}; none (null or empty) is a no-op, as is an id that is not stored. */
    @Override
    public void removeAll(Collection<String> ids) {
        if (ids == null) {
            return;
        }
        for (String id : ids) {
            requireId(id);
            delete(PREFIX + id);
        }
    }

    /**
     * Removes the entries whose metadata matches {@code filter}.
     *
     * @throws IllegalArgumentException      for a null filter
     * @throws UnsupportedOperationException for a filter with no exact forge-memory form
     */
    @Override
    public void removeAll(Filter filter) {
        if (filter == null) {
            throw new IllegalArgumentException("filter cannot be null");
        }
        Optional<Map<String, Object>> conditions = FilterMapping.equalities(filter);
        if (conditions.isEmpty()) {
            return;
        }
        Query.Builder query = Query.builder().pattern(PREFIX + "*").scopes(scope);
        conditions.get().forEach(query::metadata);
        provider.query(query.build()).forEach(entry -> delete(entry.key()));
    }

    /** Removes every entry of the store (and nothing else of its scope). */
    @Override
    public void removeAll() {
        provider.query(Query.of(PREFIX + "*", scope)).forEach(entry -> delete(entry.key()));
    }

    private void delete(String key) {
        provider.get(key, scope).ifPresent(old -> {
            provider.delete(key, scope);
            model.forget(key + "\n" + old.value());
        });
    }

    /**
     * The entries nearest to the request's query embedding, by the provider's vector search.
     *
     * @throws UnsupportedOperationException for a filter with no exact forge-memory form
     */
    @Override
    public EmbeddingSearchResult<TextSegment> search(EmbeddingSearchRequest request) {
        Objects.requireNonNull(request, "request");
        SearchRequest.Builder search = SearchRequest.builder(QUERY_PREFIX + UUID.randomUUID()).mode(SearchMode.SEMANTIC)
                .scopes(scope).limit(Math.min(request.maxResults(), SearchRequest.MAX_LIMIT))
                // A little below the cosine of minScore: the exact test is on the relevance below.
                .threshold(Math.max(0.0, Math.min(1.0, 2.0 * request.minScore() - 1.0 - 1e-9)));
        if (request.filter() != null) {
            Optional<Map<String, Object>> conditions = FilterMapping.equalities(request.filter());
            if (conditions.isEmpty()) {
                return new EmbeddingSearchResult<>(List.of());
            }
            conditions.get().forEach(search::metadata);
        }
        search.tag(TAG);
        SearchRequest built = search.build();
        model.give(built.text(), request.queryEmbedding().vector());
        List<Hit> hits;
        try {
            hits = provider.search(built);
        } finally {
            model.forget(built.text());
        }
        List<EmbeddingMatch<TextSegment>> matches = new ArrayList<>(hits.size());
        for (Hit hit : hits) {
            double relevance = (hit.score() + 1.0) / 2.0;
            if (relevance >= request.minScore()) {
                MemoryEntry entry = hit.entry();
                matches.add(new EmbeddingMatch<>(relevance, entry.key().substring(PREFIX.length()),
                        SegmentCodec.embedding(entry), SegmentCodec.segment(entry)));
            }
        }
        return new EmbeddingSearchResult<>(matches);
    }

    private static void requireId(String id) {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("id cannot be null or blank");
        }
    }

    /** Closes the provider and frees the model's registration. Idempotent. */
    @Override
    public void close() {
        try {
            provider.close();
        } finally {
            registration.close();
        }
    }

    @Override
    public String toString() {
        return "ForgeEmbeddingStore[" + provider.name() + ", " + scope.id() + ", " + model.fingerprint() + "]";
    }

    /**
     * Builds a {@link ForgeEmbeddingStore}: the provider comes from the project's configuration, as
     * {@link Memories#builder()} resolves it (give that builder to {@link #memories}); the store adds the
     * {@code embedding} and {@code search_fields} settings, so the configuration must not set them.
     */
    public static final class Builder {
        private Memories.Builder memories = Memories.builder();
        private dev.langchain4j.model.embedding.EmbeddingModel embeddingModel;
        private String modelId;
        private int dimension;
        private Scope scope = Scope.PROJECT;

        private Builder() {
        }

        /** How to find the provider: project directory, a provider override, a config file... (default: the working directory's). */
        public Builder memories(Memories.Builder memories) {
            this.memories = Objects.requireNonNull(memories, "memories");
            return this;
        }

        /**
         * The LangChain4j model that made the vectors: it embeds the texts the store was given no vector for (a
         * reindex, a search by text), and tells the dimension. Optional when {@link #dimension} is given.
         */
        public Builder embeddingModel(dev.langchain4j.model.embedding.EmbeddingModel embeddingModel) {
            this.embeddingModel = Objects.requireNonNull(embeddingModel, "embeddingModel");
            return this;
        }

        /**
         * What identifies the vectors (such as {@code all-minilm-l6-v2}), recorded with the index: reopening it with
         * another id is refused. Default: the model's {@code modelName()}, when it has one.
         */
        public Builder modelId(String modelId) {
            this.modelId = Objects.requireNonNull(modelId, "modelId");
            return this;
        }

        /** The number of components of every vector; needed without {@link #embeddingModel}. */
        public Builder dimension(int dimension) {
            if (dimension < 1) {
                throw new IllegalArgumentException("A dimension is at least 1, not " + dimension + ".");
            }
            this.dimension = dimension;
            return this;
        }

        /** The scope of the store's entries; default PROJECT. */
        public Builder scope(Scope scope) {
            this.scope = Objects.requireNonNull(scope, "scope");
            return this;
        }

        /**
         * Opens the provider and the store.
         *
         * @throws ConfigurationException          for a missing model id or dimension, a configuration that sets
         *                                         {@code embedding} or {@code search_fields}, or a bad configuration
         * @throws UnsupportedCapabilityException if the provider has no semantic search
         */
        public ForgeEmbeddingStore build() {
            String id = modelId != null ? modelId : modelName().orElseThrow(() -> new ConfigurationException(
                    "Say what made the vectors with ForgeEmbeddingStore.builder().modelId(\"...\") (the model's name and "
                            + "version): it is recorded with the index."));
            Optional<LangChain4jEmbeddingModel> fallback = Optional.ofNullable(embeddingModel)
                    .map(m -> new LangChain4jEmbeddingModel(m, id));
            int size = dimension > 0 ? dimension : fallback.map(LangChain4jEmbeddingModel::dimension)
                    .orElseThrow(() -> new ConfigurationException("Give ForgeEmbeddingStore.builder() the LangChain4j "
                            + "embedding model (embeddingModel) or the dimension of its vectors (dimension)."));
            GivenVectorsModel model = new GivenVectorsModel(id, size, fallback, PREFIX);
            LangChain4jEmbeddingModels.Registration registration =
                    LangChain4jEmbeddingModels.register("embedding-store-" + UUID.randomUUID(), model);
            try {
                MemoryProvider provider = open(registration.id());
                if (!provider.capabilities().contains(Capability.SEMANTIC_SEARCH)) {
                    String name = provider.name();
                    provider.close();
                    throw new UnsupportedCapabilityException(name, Capability.SEMANTIC_SEARCH);
                }
                return new ForgeEmbeddingStore(provider, model, registration, scope);
            } catch (RuntimeException e) {
                registration.close();
                throw e;
            }
        }

        private Optional<String> modelName() {
            if (embeddingModel == null) {
                return Optional.empty();
            }
            String name = embeddingModel.modelName();
            return name == null || name.isBlank() || name.equals("unknown") ? Optional.empty() : Optional.of(name);
        }

        private MemoryProvider open(String registered) {
            ProviderRegistry registry = memories.registry();
            ResolvedConfig resolved = memories.resolve(registry);
            ProviderConfig config = resolved.config();
            Set<String> settings = registry.factory(resolved.provider()).settings().stream().map(Setting::name)
                    .collect(Collectors.toSet());
            Map<String, Object> embedding = Map.of("model", LangChain4jEmbeddingModel.NAME,
                    LangChain4jEmbeddingModelFactory.ID, registered);
            Map<String, Object> values = new LinkedHashMap<>(config.values());
            refuseTaken(config, values, "", "search_fields");
            if (settings.contains("embedding")) {
                refuseTaken(config, values, "", "embedding");
                values.put("embedding", embedding);
            } else if (settings.contains("search") && values.get("search") instanceof Map<?, ?> child) {
                // A router (hybrid): its search child embeds; search_fields reaches every child from the top.
                Map<String, Object> search = new LinkedHashMap<>();
                child.forEach((k, v) -> search.put(k.toString(), v));
                refuseTaken(config, search, ".search", "embedding");
                refuseTaken(config, search, ".search", "search_fields");
                search.put("embedding", embedding);
                values.put("search", search);
            } else {
                // Said before opening: the provider would only call the store's settings unknown keys.
                throw new UnsupportedCapabilityException(resolved.provider(), Capability.SEMANTIC_SEARCH);
            }
            values.put("search_fields", List.of("key"));
            ProviderConfig adjusted = ProviderConfig.of(values, config.source(), config.path())
                    .withSecretPaths(config.secretPaths());
            return registry.open(resolved.provider(), memories.context(resolved, registry).withConfig(adjusted));
        }

        private static void refuseTaken(ProviderConfig config, Map<String, Object> block, String where, String taken) {
            if (block.containsKey(taken)) {
                String field = config.path() + where + "." + taken;
                throw new ConfigurationException(config.source() + ": '" + taken + "' is set at " + field
                        + ", but the LangChain4j embedding store sets it itself (it feeds the provider the vectors "
                        + "LangChain4j gives); remove it, or give the store a configuration of its own.",
                        config.source(), field, null);
            }
        }
    }
}
