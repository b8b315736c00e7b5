package dev.forge.memory.langchain4j;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.IndexModelMismatchException;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingMatch;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import static dev.forge.memory.langchain4j.Stores.MODEL;
import static dev.forge.memory.langchain4j.Stores.memories;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What {@link ForgeEmbeddingStore} adds to LangChain4j's suites: restarts, reindexing, its errors. */
class ForgeEmbeddingStoreTest {

    @TempDir
    Path project;

    private ForgeEmbeddingStore open(String provider) {
        return ForgeEmbeddingStore.builder().memories(memories(project, provider)).embeddingModel(MODEL)
                .modelId("all-minilm-l6-v2-q").build();
    }

    private static EmbeddingSearchRequest nearest(String text, int max) {
        return EmbeddingSearchRequest.builder().queryEmbedding(MODEL.embed(text).content()).maxResults(max).build();
    }

    @Test
    void segments_vectors_and_metadata_come_back_after_a_restart_from_the_providers_index() {
        TextSegment segment = TextSegment.from("The deploy runs every Friday at noon.",
                new Metadata().put("team", "platform").put("run", UUID.fromString("00000000-0000-0000-0000-00000000002a"))
                        .put("priority", 2));
        Embedding embedding = MODEL.embed(segment).content();
        String id;
        try (ForgeEmbeddingStore store = open("vector")) {
            id = store.add(embedding, segment);
            store.add(MODEL.embed("Lunch is served in the canteen.").content(), TextSegment.from("Lunch is served in the canteen."));
        }
        try (ForgeEmbeddingStore store = open("vector")) {
            List<EmbeddingMatch<TextSegment>> matches = store.search(nearest("When is the deploy?", 2)).matches();
            assertThat(matches).hasSize(2);
            assertThat(matches.get(0).embeddingId()).isEqualTo(id);
            assertThat(matches.get(0).embedded()).isEqualTo(segment);
            assertThat(matches.get(0).embedding()).isEqualTo(embedding);
            assertThat(matches.get(0).score()).isGreaterThan(matches.get(1).score());
            MemoryEntry entry = store.provider().get(ForgeEmbeddingStore.PREFIX + id, Scope.PROJECT).orElseThrow();
            assertThat(entry.value()).isEqualTo(segment.text());
            assertThat(entry.metadata()).containsEntry("team", "platform").containsEntry("priority", 2L);
        }
    }

    @Test
    void a_reindex_after_a_restart_embeds_the_stored_segments_with_the_langchain4j_model() {
        try (ForgeEmbeddingStore store = open("vector")) {
            store.add(MODEL.embed("Backups are kept for thirty days.").content(), TextSegment.from("Backups are kept for thirty days."));
            store.add(MODEL.embed("The office cat is called Miso.").content(), TextSegment.from("The office cat is called Miso."));
        }
        try (ForgeEmbeddingStore store = open("vector")) {
            assertThat(store.provider().requireReindexing().reindex().entries()).isEqualTo(2);
            List<EmbeddingMatch<TextSegment>> matches = store.search(nearest("How long do we keep backups?", 1)).matches();
            assertThat(matches).singleElement().satisfies(m -> assertThat(m.embedded().text()).startsWith("Backups"));
        }
    }

    @Test
    void without_a_langchain4j_model_a_reindex_of_what_an_earlier_run_stored_says_what_to_give_the_builder() {
        try (ForgeEmbeddingStore store = open("vector")) {
            store.add(MODEL.embed("hello").content(), TextSegment.from("hello"));
        }
        try (ForgeEmbeddingStore store = ForgeEmbeddingStore.builder().memories(memories(project, "vector"))
                .modelId("all-minilm-l6-v2-q").dimension(384).build()) {
            assertThat(store.search(nearest("hello", 1)).matches()).hasSize(1);
            store.add(MODEL.embed("world").content(), TextSegment.from("world"));
            assertThatThrownBy(() -> store.provider().requireReindexing().reindex())
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("ForgeEmbeddingStore.builder().embeddingModel(model)");
            assertThat(store.search(nearest("hello", 2)).matches()).hasSize(2);
        }
    }

    @Test
    void the_given_vectors_serve_a_provider_that_embeds_when_it_searches_and_the_vector_provider_indexed_them_at_once() {
        try (ForgeEmbeddingStore store = ForgeEmbeddingStore.builder().memories(memories(project, "in-memory"))
                .modelId("all-minilm-l6-v2-q").dimension(384).build()) {
            store.add(MODEL.embed("Backups are kept for thirty days.").content(), TextSegment.from("Backups are kept for thirty days."));
            store.add(MODEL.embed("The office cat is called Miso.").content(), TextSegment.from("The office cat is called Miso."));
            assertThat(store.search(nearest("What is the cat's name?", 1)).matches())
                    .singleElement().satisfies(m -> assertThat(m.embedded().text()).contains("Miso"));
        }
        try (ForgeEmbeddingStore store = ForgeEmbeddingStore.builder().memories(memories(project, "vector"))
                .modelId("all-minilm-l6-v2-q").dimension(384).build()) {
            store.add(MODEL.embed("hello").content(), TextSegment.from("hello"));
            assertThat(store.search(nearest("hello", 1)).matches()).hasSize(1);
            assertThatThrownBy(() -> store.provider().requireReindexing().reindex()).as("nothing kept to reindex from")
                    .isInstanceOf(ConfigurationException.class);
        }
    }

    @Test
    void on_the_hybrid_router_the_entries_live_in_sqlite_and_the_vectors_in_the_search_child() {
        Stores.writeConfig(project, Stores.HYBRID_CONFIG);
        TextSegment segment = TextSegment.from("Invoices are archived after seven years.", new Metadata().put("page", 3));
        String id;
        try (ForgeEmbeddingStore store = open("hybrid")) {
            assertThat(store.provider().name()).isEqualTo("hybrid");
            id = store.add(MODEL.embed(segment).content(), segment);
            assertThat(store.search(nearest("How long are invoices kept?", 1)).matches())
                    .singleElement().satisfies(m -> assertThat(m.embedded()).isEqualTo(segment));
        }
        try (var sqlite = memories(project, "sqlite").open()) {
            assertThat(sqlite.get(ForgeEmbeddingStore.PREFIX + id, Scope.PROJECT)).get()
                    .satisfies(e -> assertThat(e.value()).isEqualTo(segment.text()));
        }
    }

    @Test
    void a_hybrid_search_child_that_names_its_model_is_refused_naming_the_field() {
        Stores.writeConfig(project, """
                memory:
                  provider: hybrid
                  config:
                    storage: { provider: sqlite }
                    search: { provider: vector, embedding: { model: hashing } }
                """);
        assertThatThrownBy(() -> open("hybrid")).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("search.embedding");
    }

    @Test
    void an_index_made_with_one_model_id_is_refused_by_another() {
        open("vector").close();
        assertThatThrownBy(() -> ForgeEmbeddingStore.builder().memories(memories(project, "vector")).embeddingModel(MODEL)
                .modelId("another-model").build()).isInstanceOf(IndexModelMismatchException.class);
    }

    @Test
    void a_provider_without_semantic_search_is_refused_naming_it() {
        assertThatThrownBy(() -> open("sqlite")).isInstanceOf(UnsupportedCapabilityException.class)
                .hasMessageContaining("'sqlite'");
    }

    @Test
    void a_configuration_that_sets_the_embedding_is_refused_naming_the_file_and_field() throws Exception {
        Files.createDirectories(project.resolve(".forge"));
        Files.writeString(project.resolve(".forge/config.yaml"),
                "memory:\n  provider: vector\n  config:\n    embedding: { model: hashing }\n");
        assertThatThrownBy(() -> ForgeEmbeddingStore.builder().memories(memories(project, "vector").provider(null))
                .embeddingModel(MODEL).modelId("m").build()).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("config.yaml").hasMessageContaining("'embedding'");
    }

    @Test
    void the_model_id_or_dimension_must_be_given() {
        assertThatThrownBy(() -> ForgeEmbeddingStore.builder().memories(memories(project, "vector")).build())
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("modelId");
        assertThatThrownBy(() -> ForgeEmbeddingStore.builder().memories(memories(project, "vector")).modelId("m").build())
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("dimension");
    }

    @Test
    void metadata_named_like_the_stores_own_fields_is_refused_and_nothing_is_written() {
        try (ForgeEmbeddingStore store = open("in-memory")) {
            TextSegment segment = TextSegment.from("x", new Metadata().put("langchain4j:embedding", "mine"));
            assertThatThrownBy(() -> store.add(MODEL.embed("x").content(), segment))
                    .isInstanceOf(InvalidEntryException.class).hasMessageContaining("langchain4j:embedding");
            assertThat(store.search(nearest("x", 10)).matches()).isEmpty();
        }
    }

    @Test
    void the_store_keeps_to_its_scope_and_removes_only_its_own_entries() {
        try (ForgeEmbeddingStore store = ForgeEmbeddingStore.builder().memories(memories(project, "in-memory"))
                .embeddingModel(MODEL).modelId("m").scope(Scope.SESSION).build()) {
            store.provider().set("note", "an entry of someone else", Scope.SESSION);
            String id = store.add(MODEL.embed("hello").content(), TextSegment.from("hello"));
            assertThat(store.provider().get(ForgeEmbeddingStore.PREFIX + id, Scope.SESSION)).isPresent();
            assertThat(store.search(nearest("hello", 10)).matches()).extracting(EmbeddingMatch::embeddingId).containsExactly(id);
            store.removeAll();
            assertThat(store.search(nearest("hello", 10)).matches()).isEmpty();
            assertThat(store.provider().get("note", Scope.SESSION)).isPresent();
        }
    }
}
