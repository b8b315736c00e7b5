package dev.forge.memory.langchain4j;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.query.Query;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link ForgeContentRetriever} on real providers: keyword search on sqlite, hybrid search on a store's vector index. */
class ForgeContentRetrieverTest {

    @TempDir
    Path project;

    @Test
    void keyword_search_on_sqlite_gives_the_entries_values_and_metadata() {
        try (MemoryProvider memory = Stores.memories(project, "sqlite").open()) {
            memory.set("decisions/db", "We chose PostgreSQL for the billing service.", Scope.PROJECT, List.of("decision"),
                    Map.of("author", "ana", "year", 2026, "final", true));
            memory.set("notes/lunch", "Soup on Mondays.", Scope.PROJECT);
            ForgeContentRetriever retriever = ForgeContentRetriever.builder(memory).build();
            List<Content> contents = retriever.retrieve(Query.from("which database for billing"));
            assertThat(contents).singleElement().satisfies(content -> {
                assertThat(content.textSegment().text()).isEqualTo("We chose PostgreSQL for the billing service.");
                Metadata metadata = content.textSegment().metadata();
                assertThat(metadata.getString("author")).isEqualTo("ana");
                assertThat(metadata.getLong("year")).isEqualTo(2026L);
                assertThat(metadata.getString("final")).isEqualTo("true");
                assertThat(metadata.getString("forge_key")).isEqualTo("decisions/db");
                assertThat(metadata.getString("forge_scope")).isEqualTo("project");
                assertThat(content.metadata()).containsKey(ContentMetadata.SCORE)
                        .containsEntry(ContentMetadata.EMBEDDING_ID, "decisions/db");
            });
            assertThatThrownBy(() -> ForgeContentRetriever.builder(memory).mode(SearchMode.SEMANTIC).build()
                    .retrieve(Query.from("billing"))).isInstanceOf(UnsupportedCapabilityException.class);
        }
    }

    @Test
    void hybrid_search_over_an_embedding_store_gives_back_the_segments_as_added() {
        try (ForgeEmbeddingStore store = ForgeEmbeddingStore.builder().memories(Stores.memories(project, "vector"))
                .embeddingModel(Stores.MODEL).modelId("all-minilm-l6-v2-q").build()) {
            TextSegment backups = TextSegment.from("Backups are kept for thirty days.", new Metadata().put("page", 12));
            store.add(Stores.MODEL.embed(backups).content(), backups);
            TextSegment cat = TextSegment.from("The office cat is called Miso.");
            store.add(Stores.MODEL.embed(cat).content(), cat);

            ForgeContentRetriever retriever = ForgeContentRetriever.builder(store.provider()).scopes(Scope.PROJECT)
                    .maxResults(1).build();
            assertThat(retriever.retrieve(Query.from("How long are backups retained?")))
                    .singleElement().satisfies(content -> assertThat(content.textSegment()).isEqualTo(backups));
        }
    }
}
