package dev.forge.memory.langchain4j;

import dev.forge.memory.Capability;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Query;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A LangChain4j {@link ContentRetriever} over forge-memory search: the query's text is searched by the provider
 * itself (keyword, semantic or hybrid, with the provider's own ranking and embedding model), and each hit becomes a
 * {@link Content} whose segment is the entry's value. An entry written by {@link ForgeEmbeddingStore} gives back its
 * segment's metadata as it was; any other entry gives its metadata fields that LangChain4j metadata can hold (text and
 * numbers; other values as their text) plus {@code forge_key} and {@code forge_scope}. The score in the content's
 * metadata is the provider's, in (0, 1].
 */
public final class ForgeContentRetriever implements ContentRetriever {

    private final MemoryProvider provider;
    private final SearchMode mode;
    private final Set<Scope> scopes;
    private final int maxResults;
    private final double minScore;
    private final dev.forge.memory.Filter filter;

    private ForgeContentRetriever(Builder b) {
        this.provider = b.provider;
        this.mode = b.mode != null ? b.mode
                : provider.capabilities().contains(Capability.SEMANTIC_SEARCH) ? SearchMode.HYBRID : SearchMode.KEYWORD;
        this.scopes = Set.copyOf(b.scopes);
        this.maxResults = b.maxResults;
        this.minScore = b.minScore;
        this.filter = b.filter;
        // Checked now, so that a misconfigured retriever fails when built, not at the first question.
        SearchRequest.builder("check").mode(mode).scopes(scopes).limit(maxResults).threshold(minScore).build();
    }

    /** A builder over {@code provider}: every scope, hybrid search where the provider has semantic search (else keyword), 5 results. */
    public static Builder builder(MemoryProvider provider) {
        return new Builder(provider);
    }

    /**
     * The best entries for the query's text.
     *
     * @throws dev.forge.memory.UnsupportedCapabilityException if the provider lacks the mode's search
     */
    @Override
    public List<Content> retrieve(Query query) {
        Objects.requireNonNull(query, "query");
        if (query.text() == null || query.text().isBlank()) {
            return List.of();
        }
        SearchRequest request = new SearchRequest(query.text(), scopes, mode, maxResults, minScore, filter);
        List<Content> contents = new ArrayList<>();
        for (Hit hit : provider.search(request)) {
            MemoryEntry entry = hit.entry();
            Map<ContentMetadata, Object> metadata = new LinkedHashMap<>();
            metadata.put(ContentMetadata.SCORE, hit.score());
            metadata.put(ContentMetadata.EMBEDDING_ID, entry.key());
            contents.add(Content.from(segment(entry), metadata));
        }
        return contents;
    }

    private static TextSegment segment(MemoryEntry entry) {
        if (entry.key().startsWith(ForgeEmbeddingStore.PREFIX) && entry.tags().contains(ForgeEmbeddingStore.TAG)) {
            TextSegment segment = SegmentCodec.segment(entry);
            if (segment != null) {
                return segment;
            }
        }
        Metadata metadata = new Metadata();
        for (Map.Entry<String, Object> field : entry.metadata().entrySet()) {
            Object value = field.getValue();
            if (value instanceof Long n) {
                metadata.put(field.getKey(), n);
            } else if (value instanceof Double d) {
                metadata.put(field.getKey(), d);
            } else if (value != null) {
                metadata.put(field.getKey(), value instanceof String s ? s : String.valueOf(value));
            }
        }
        metadata.put("forge_key", entry.key());
        metadata.put("forge_scope", entry.scope().id());
        return TextSegment.from(entry.value().isEmpty() ? " " : entry.value(), metadata);
    }

    @Override
    public String toString() {
        return "ForgeContentRetriever[" + provider.name() + ", " + mode + ", " + scopes + ", max " + maxResults + "]";
    }

    /** Builds a {@link ForgeContentRetriever}. */
    public static final class Builder {
        private final MemoryProvider provider;
        private SearchMode mode;
        private Set<Scope> scopes = EnumSet.allOf(Scope.class);
        private int maxResults = 5;
        private double minScore;
        private dev.forge.memory.Filter filter = dev.forge.memory.Filter.NONE;

        private Builder(MemoryProvider provider) {
            this.provider = Objects.requireNonNull(provider, "provider");
        }

        /** The search mode; default hybrid where the provider has semantic search, else keyword. */
        public Builder mode(SearchMode mode) {
            this.mode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /** The scopes searched; default all. */
        public Builder scopes(Scope... scopes) {
            this.scopes = scopes.length == 0 ? EnumSet.allOf(Scope.class) : EnumSet.copyOf(List.of(scopes));
            return this;
        }

        /** The most contents returned; default 5. */
        public Builder maxResults(int maxResults) {
            this.maxResults = maxResults;
            return this;
        }

        /** The lowest forge-memory score returned, in [0, 1]; default 0. */
        public Builder minScore(double minScore) {
            this.minScore = minScore;
            return this;
        }

        /** Conditions every entry must meet (tags, metadata, update times); default none. */
        public Builder filter(dev.forge.memory.Filter filter) {
            this.filter = Objects.requireNonNull(filter, "filter");
            return this;
        }

        /**
         * The retriever.
         *
         * @throws dev.forge.memory.InvalidRequestException for a limit or score out of range
         */
        public ForgeContentRetriever build() {
            return new ForgeContentRetriever(this);
        }
    }
}
