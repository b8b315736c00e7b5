package dev.forge.memory.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.UnsupportedCapabilityException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.content.Media;
import org.springframework.ai.document.Document;
import org.springframework.ai.vectorstore.SearchRequest;
import org.springframework.ai.vectorstore.filter.Filter;
import org.springframework.ai.vectorstore.filter.FilterExpressionBuilder;
import org.springframework.util.MimeTypeUtils;

/** The vector store over the vector provider: scores, thresholds, filters mapped or refused, bad documents. */
class ForgeVectorStoreTest {

    @TempDir
    Path directory;

    MemoryProvider provider;
    ForgeVectorStore store;

    @BeforeEach
    void open() {
        provider = Providers.open("vector", directory);
        store = ForgeVectorStore.of(provider);
        store.add(List.of(
                doc("sofia", "Sofia is the capital of Bulgaria, a city under Vitosha mountain", Map.of("country", "BG", "year", 2020)),
                doc("plovdiv", "Plovdiv is an old city in Bulgaria on seven hills", Map.of("country", "BG", "year", 2023)),
                doc("amsterdam", "Amsterdam is the capital of the Netherlands, a city of canals", Map.of("country", "NL", "year", 2020)),
                doc("recipe", "Bake the bread for forty minutes in a hot oven", Map.of("kind", "recipe"))));
    }

    @AfterEach
    void close() {
        provider.close();
    }

    static Document doc(String id, String text, Map<String, Object> metadata) {
        return Document.builder().id(id).text(text).metadata(metadata).build();
    }

    private List<String> ids(SearchRequest request) {
        return store.similaritySearch(request).stream().map(Document::getId).toList();
    }

    @Test
    void results_are_ranked_with_spring_ai_scores_and_distances() {
        List<Document> found = store.similaritySearch(SearchRequest.builder().query("capital city of Bulgaria").topK(3).build());
        assertThat(found).hasSize(3);
        assertThat(found.get(0).getId()).isEqualTo("sofia");
        for (Document document : found) {
            assertThat(document.getScore()).isGreaterThan(0.0).isLessThanOrEqualTo(1.0);
            assertThat((Double) document.getMetadata().get("distance")).isCloseTo(1.0 - document.getScore(), org.assertj.core.data.Offset.offset(1e-9));
        }
        assertThat(found).extracting(Document::getScore).isSortedAccordingTo(java.util.Comparator.reverseOrder());
        assertThat(found.get(0).getText()).startsWith("Sofia is the capital");
        assertThat(found.get(0).getMetadata()).containsEntry("country", "BG").containsEntry("year", 2020L);
    }

    @Test
    void top_k_and_the_similarity_threshold_cut_the_results() {
        List<Document> all = store.similaritySearch(SearchRequest.builder().query("capital city of Bulgaria").topK(10).build());
        double second = all.get(1).getScore();
        List<Document> above = store.similaritySearch(SearchRequest.builder().query("capital city of Bulgaria").topK(10)
                .similarityThreshold(second).build());
        assertThat(above).allSatisfy(d -> assertThat(d.getScore()).isGreaterThanOrEqualTo(second));
        assertThat(above.size()).isLessThan(all.size()).isGreaterThanOrEqualTo(2);
        assertThat(ids(SearchRequest.builder().query("capital city of Bulgaria").topK(1).build())).containsExactly("sofia");
    }

    @Test
    void equalities_joined_by_and_filter_exactly_in_text_and_builder_form() {
        assertThat(ids(SearchRequest.builder().query("city").topK(10).filterExpression("country == 'BG' && year == 2020").build()))
                .containsExactly("sofia");
        FilterExpressionBuilder b = new FilterExpressionBuilder();
        assertThat(ids(SearchRequest.builder().query("city").topK(10).filterExpression(b.eq("country", "BG").build()).build()))
                .containsExactlyInAnyOrder("sofia", "plovdiv");
        assertThat(ids(SearchRequest.builder().query("city").topK(10)
                .filterExpression(b.and(b.group(b.eq("year", 2020.0)), b.eq("country", "NL")).build()).build()))
                .containsExactly("amsterdam");
        assertThat(ids(SearchRequest.builder().query("city").topK(10).filterExpression("country == 'BG' && country == 'NL'").build()))
                .isEmpty();
    }

    @Test
    void other_expressions_are_refused_naming_the_expression() {
        for (String text : List.of("country == 'BG' || country == 'NL'", "country != 'BG'", "year >= 2020",
                "country in ['BG', 'NL']", "NOT (country == 'BG')")) {
            assertThatThrownBy(() -> store.similaritySearch(SearchRequest.builder().query("city").filterExpression(text).build()))
                    .as(text).isInstanceOf(InvalidRequestException.class)
                    .hasMessageContaining("cannot be mapped").hasMessageContaining("country == 'BG' && year == 2020");
        }
        Filter.Expression or = new FilterExpressionBuilder().or(new FilterExpressionBuilder().eq("country", "BG"),
                new FilterExpressionBuilder().eq("country", "NL")).build();
        assertThatThrownBy(() -> store.delete(or)).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining(or.toString()).hasMessageContaining("OR");
        assertThat(ids(SearchRequest.builder().query("city").topK(10).build())).hasSize(3);
    }

    @Test
    void delete_by_filter_removes_only_the_matching_documents_of_the_collection() {
        ForgeVectorStore other = ForgeVectorStore.builder(provider).collection("archive").build();
        other.add(List.of(doc("old", "an old city in Bulgaria", Map.of("country", "BG"))));
        store.delete("country == 'BG'");
        assertThat(ids(SearchRequest.builder().query("city").topK(10).build())).containsExactly("amsterdam");
        assertThat(other.similaritySearch(SearchRequest.builder().query("city").topK(10).build()))
                .extracting(Document::getId).containsExactly("old");
    }

    @Test
    void documents_are_replaced_by_id_and_ids_keep_their_characters() {
        store.add(List.of(doc("sofia", "Sofia has a new text about mountains", Map.of("country", "BG")),
                doc("a%/b c", "a document with an odd id about mountains", Map.of())));
        List<Document> found = store.similaritySearch(SearchRequest.builder().query("mountains").topK(10).build());
        assertThat(found).extracting(Document::getId).contains("sofia", "a%/b c");
        assertThat(found.stream().filter(d -> d.getId().equals("sofia")).findFirst().orElseThrow().getMetadata())
                .doesNotContainKey("year");
        store.delete(List.of("a%/b c", "missing"));
        assertThat(ids(SearchRequest.builder().query("mountains").topK(10).build())).doesNotContain("a%/b c");
    }

    @Test
    void a_bad_document_stores_none_of_the_batch() {
        Document media = Document.builder().id("img").media(Media.builder().mimeType(MimeTypeUtils.IMAGE_PNG).data(new byte[] {1}).build()).build();
        assertThatThrownBy(() -> store.add(List.of(doc("fine", "a fine text about rivers", Map.of()), media)))
                .isInstanceOf(InvalidEntryException.class).hasMessageContaining("'img'").hasMessageContaining("no text");
        Document badMetadata = doc("bad", "rivers", Map.of("when", java.time.Instant.EPOCH));
        assertThatThrownBy(() -> store.add(List.of(doc("fine", "a fine text about rivers", Map.of()), badMetadata)))
                .isInstanceOf(InvalidEntryException.class).hasMessageContaining("when");
        String tooLarge = "rivers ".repeat((int) (provider.limits().maxValueBytes() / 7 + 1));
        assertThatThrownBy(() -> store.add(List.of(doc("fine", "a fine text about rivers", Map.of()), doc("huge", tooLarge, Map.of()))))
                .isInstanceOf(dev.forge.memory.ValueTooLargeException.class);
        assertThat(ids(SearchRequest.builder().query("rivers").topK(10).build())).isEmpty();
        assertThat(provider.get("doc:fine", Scope.PROJECT)).isEmpty();
    }

    @Test
    void an_empty_query_is_refused_with_what_to_do() {
        assertThatThrownBy(() -> store.similaritySearch(SearchRequest.builder().build()))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("query(");
    }

    @Test
    void semantic_search_on_a_provider_without_embeddings_names_the_provider() {
        try (MemoryProvider sqlite = Providers.open("sqlite", directory.resolve("sqlite"))) {
            ForgeVectorStore semantic = ForgeVectorStore.of(sqlite);
            semantic.add(List.of(doc("x", "text", Map.of())));
            assertThatThrownBy(() -> semantic.similaritySearch(SearchRequest.builder().query("text").build()))
                    .isInstanceOf(UnsupportedCapabilityException.class).hasMessageContaining("sqlite");
            assertThat(ForgeVectorStore.builder(sqlite).searchMode(SearchMode.KEYWORD).build()
                    .similaritySearch(SearchRequest.builder().query("text").build())).extracting(Document::getId).containsExactly("x");
        }
    }

    @Test
    void the_native_client_is_the_provider() {
        assertThat(store.<MemoryProvider>getNativeClient()).containsSame(provider);
        assertThat(store.getName()).contains("vector");
    }
}
