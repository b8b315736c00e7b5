package dev.forge.memory.vector;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Hit;
import dev.forge.memory.IndexModelMismatchException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Reindexing;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.spi.ProviderContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The fingerprint guard: an index built by one model is refused by another until it is reindexed. */
class VectorModelChangeTest {

    private static final String OLD = "hashing/1/fnv1a64/words+trigrams/sublinear-tf/l2/dim=384";
    private static final String NEW = "hashing/1/fnv1a64/words+trigrams/sublinear-tf/l2/dim=256";

    @TempDir
    Path base;

    private MemoryProvider open(int dimension, boolean forReindex) {
        return VectorStores.open(base, dimension, forReindex);
    }

    private MemoryProvider openFailing(int failAt) {
        ProviderContext context = VectorStores.context(base, "p",
                Map.of("embedding", Map.of("model", "failing", "dimension", 256, "fail_at", failAt)))
                .toBuilder().openForReindex(true).build();
        return new VectorMemoryProviderFactory().open(context);
    }

    private static List<String> semantic(MemoryProvider provider, String text) {
        return provider.search(SearchRequest.builder(text).mode(SearchMode.SEMANTIC).limit(3).build()).stream()
                .map(h -> h.entry().key()).toList();
    }

    private List<MemoryEntry> seed() {
        try (MemoryProvider provider = open(384, false)) {
            provider.set("cache", "The cache expires entries after ten minutes", Scope.PROJECT);
            provider.set("deploy", "Deploy the service to production on Tuesdays", Scope.PROJECT, List.of("ops"), Map.of("n", 1));
            provider.set("tests", "Run the integration tests before every merge", Scope.GLOBAL);
            provider.set("note", "a note of this session", Scope.SESSION);
            return provider.query(Query.builder().build());
        }
    }

    @Test
    void another_model_is_refused_naming_both_fingerprints_and_the_command() {
        seed();
        assertThatThrownBy(() -> open(256, false)).isInstanceOfSatisfying(IndexModelMismatchException.class, e -> {
            assertThat(e.indexFingerprint()).isEqualTo(OLD);
            assertThat(e.configuredFingerprint()).isEqualTo(NEW);
            assertThat(e.getMessage()).contains(OLD).contains(NEW).contains("forge-memory reindex");
            assertThat(e.field()).contains("memory.config.embedding");
        });
        // the refusal changed nothing: the old model still opens and finds everything
        try (MemoryProvider provider = open(384, false)) {
            assertThat(semantic(provider, "cache expiry time")).first().isEqualTo("cache");
        }
    }

    @Test
    void opened_for_reindex_semantic_search_waits_for_the_reindex_then_the_new_model_owns_the_index() {
        List<MemoryEntry> before = seed();
        try (MemoryProvider provider = open(256, true)) {
            SearchRequest semantic = SearchRequest.builder("cache expiry").mode(SearchMode.SEMANTIC).build();
            SearchRequest hybrid = SearchRequest.builder("cache expiry").mode(SearchMode.HYBRID).build();
            assertThatThrownBy(() -> provider.search(semantic)).isInstanceOf(IndexModelMismatchException.class);
            assertThatThrownBy(() -> provider.search(hybrid)).isInstanceOf(IndexModelMismatchException.class);
            assertThat(provider.search(SearchRequest.keyword("cache")).stream().map(h -> h.entry().key())).containsExactly("cache");

            List<long[]> progress = new ArrayList<>();
            Reindexing.ReindexResult result = provider.requireReindexing().reindex((done, total) -> progress.add(new long[] {done, total}));

            assertThat(result.entries()).isEqualTo(4);
            assertThat(result.fingerprint()).isEqualTo(NEW);
            assertThat(progress.get(progress.size() - 1)).containsExactly(4, 4);
            assertThat(provider.query(Query.builder().build())).containsExactlyElementsOf(before);
            assertThat(semantic(provider, "cache expiry time")).first().isEqualTo("cache");
            assertThat(provider.search(hybrid)).extracting(h -> h.entry().key()).first().isEqualTo("cache");
        }
        try (MemoryProvider provider = open(256, false)) {
            assertThat(semantic(provider, "integration tests before merging")).first().isEqualTo("tests");
            assertThat(provider.query(Query.builder().build())).containsExactlyElementsOf(before);
        }
        assertThatThrownBy(() -> open(384, false)).isInstanceOfSatisfying(IndexModelMismatchException.class, e -> {
            assertThat(e.indexFingerprint()).isEqualTo(NEW);
            assertThat(e.configuredFingerprint()).isEqualTo(OLD);
        });
    }

    @Test
    void a_write_before_the_reindex_marks_the_index_incomplete_so_no_model_opens_it_unreindexed() {
        seed();
        try (MemoryProvider provider = open(256, true)) {
            provider.set("written-meanwhile", "written between the model change and its reindex", Scope.PROJECT);
        }
        assertThatThrownBy(() -> open(384, false)).isInstanceOf(IndexModelMismatchException.class);
        assertThatThrownBy(() -> open(256, false)).isInstanceOfSatisfying(IndexModelMismatchException.class,
                e -> assertThat(e.indexFingerprint()).contains(NEW).contains("incomplete"));
        try (MemoryProvider provider = open(256, true)) {
            assertThat(provider.requireReindexing().reindex().entries()).isEqualTo(5);
        }
        try (MemoryProvider provider = open(256, false)) {
            assertThat(semantic(provider, "written between the model change")).first().isEqualTo("written-meanwhile");
        }
    }

    @Test
    void a_reindex_that_fails_half_way_rolls_back_to_the_old_index_intact() {
        try (MemoryProvider provider = open(384, false)) {
            VectorStores.writeInParallel(70, i -> provider.set("k" + i, "entry number " + i + " about topic " + (i % 7), Scope.PROJECT));
        }
        SearchRequest request = SearchRequest.builder("entry number 42").mode(SearchMode.SEMANTIC).limit(5).build();
        List<Hit> found;
        List<MemoryEntry> before;
        try (MemoryProvider provider = open(384, false)) {
            found = provider.search(request);
            before = provider.query(Query.builder().build());
        }
        try (MemoryProvider provider = openFailing(2)) {
            // the first batch of 64 is re-embedded, the second call fails
            assertThatThrownBy(() -> provider.requireReindexing().reindex()).isInstanceOf(BackendUnavailableException.class);
            assertThat(provider.query(Query.builder().build())).containsExactlyElementsOf(before);
            assertThatThrownBy(() -> provider.search(SearchRequest.builder("entry").mode(SearchMode.SEMANTIC).build()))
                    .isInstanceOf(IndexModelMismatchException.class);
        }
        try (MemoryProvider provider = open(384, false)) {
            // the same hits with the same scores: every vector is the old model's again
            assertThat(provider.search(request)).isEqualTo(found);
            assertThat(found.get(0).entry().key()).isEqualTo("k42");
            assertThat(provider.query(Query.builder().build())).containsExactlyElementsOf(before);
            assertThat(provider.doctor()).isEmpty();
        }
    }
}
