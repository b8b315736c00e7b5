package dev.forge.memory.langchain4j;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.langchain4j.store.embedding.EmbeddingStoreWithFilteringIT;
import dev.langchain4j.store.embedding.filter.Filter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * LangChain4j's own embedding store suite ({@link EmbeddingStoreWithFilteringIT}, which holds
 * {@code EmbeddingStoreIT} and {@code EmbeddingStoreWithoutMetadataIT}) against {@link ForgeEmbeddingStore} on one
 * provider. Every test of the suite runs unchanged but one: {@code should_filter_by_metadata} runs with the suite's
 * filters that forge-memory can express exactly, and {@link #filters_without_an_exact_form_are_refused_naming_the_filter}
 * checks that each of the others (its comparisons, multi-value in / not-in, or, not) is refused, not approximated;
 * {@code should_filter_by_metadata_not} holds only such filters, so it is replaced by that test too.
 */
abstract class FilteringSuite extends EmbeddingStoreWithFilteringIT {

    @TempDir
    Path project;

    private Stores stores;

    abstract String providerName();

    @Override
    protected EmbeddingStore<TextSegment> embeddingStore() {
        if (stores == null) {
            stores = new Stores(providerName());
        }
        return stores.store(project);
    }

    @Override
    protected EmbeddingModel embeddingModel() {
        return Stores.MODEL;
    }

    @AfterEach
    void closeStore() {
        if (stores != null) {
            stores.close();
        }
    }

    static boolean exact(Filter filter) {
        try {
            FilterMapping.equalities(filter);
            return true;
        } catch (UnsupportedOperationException e) {
            return false;
        }
    }

    static Stream<Arguments> exactFilters() {
        return should_filter_by_metadata().filter(arguments -> exact((Filter) arguments.get()[0]));
    }

    static Stream<Arguments> refusedFilters() {
        return Stream.concat(should_filter_by_metadata(), should_filter_by_metadata_not())
                .filter(arguments -> !exact((Filter) arguments.get()[0]));
    }

    @Override
    @ParameterizedTest
    @MethodSource("exactFilters")
    protected void should_filter_by_metadata(Filter filter, List<Metadata> matching, List<Metadata> notMatching) {
        super.should_filter_by_metadata(filter, matching, notMatching);
    }

    /** Not a test here: every filter of its source is refused; see the test below. */
    @Override
    protected void should_filter_by_metadata_not(Filter filter, List<Metadata> matching, List<Metadata> notMatching) {
        super.should_filter_by_metadata_not(filter, matching, notMatching);
    }

    @ParameterizedTest
    @MethodSource("refusedFilters")
    void filters_without_an_exact_form_are_refused_naming_the_filter(Filter filter, List<Metadata> matching,
            List<Metadata> notMatching) {
        embeddingStore().add(embeddingModel().embed("matching").content(), TextSegment.from("matching", matching.get(0)));
        EmbeddingSearchRequest request = EmbeddingSearchRequest.builder()
                .queryEmbedding(embeddingModel().embed("matching").content()).filter(filter).maxResults(100).build();
        assertThatThrownBy(() -> embeddingStore().search(request)).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("has no exact form in forge-memory");
        assertThatThrownBy(() -> embeddingStore().removeAll(filter)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(embeddingStore().search(EmbeddingSearchRequest.builder()
                .queryEmbedding(embeddingModel().embed("matching").content()).build()).matches()).hasSize(1);
    }

    @Test
    void most_of_the_suites_equality_filters_run_and_the_rest_are_refused() {
        assertThat(exactFilters().count()).isGreaterThanOrEqualTo(6);
        assertThat(refusedFilters().count()).isGreaterThan(0);
    }
}
