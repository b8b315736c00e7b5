package dev.forge.memory.vector;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code restoreAll} in the vector provider, what an import runs per batch: the batch's texts embedded with one call of
 * the model, one Lucene commit per index it touches (seen in the index's commit generation), and nothing of the batch
 * kept when a chain is refused or the model fails part way.
 */
class VectorBatchRestoreTest {

    private static final Instant T1 = Instant.parse("2021-03-04T05:06:07.008Z");

    @TempDir
    Path base;

    private static List<MemoryEntry> chain(String key, Scope scope, String... values) {
        List<MemoryEntry> chain = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            chain.add(new MemoryEntry(key, values[i], scope, List.of("imported"), Map.of("n", i + 1), T1,
                    T1.plus(Duration.ofDays(i)), i + 1));
        }
        return List.copyOf(chain);
    }

    private static MemoryEntry last(List<MemoryEntry> chain) {
        return chain.get(chain.size() - 1);
    }

    /** The generation of the last commit of the index in {@code directory}: one more per commit. */
    private static long generation(Path directory) throws IOException {
        try (FSDirectory dir = FSDirectory.open(directory)) {
            return SegmentInfos.readLatestCommit(dir).getGeneration();
        }
    }

    private Path projectIndex() {
        return base.resolve(".forge/vectors");
    }

    private Path globalIndex() {
        return base.resolve("forge-home/vectors");
    }

    private MemoryProvider openFailing(Map<String, Object> failure) {
        Map<String, Object> embedding = new java.util.LinkedHashMap<>(Map.of("model", "failing", "dimension", 384));
        embedding.putAll(failure);
        return new VectorMemoryProviderFactory().open(VectorStores.context(base, "p", Map.of("embedding", embedding)));
    }

    @Test
    void a_batch_is_embedded_in_one_call_and_committed_once_per_index() throws IOException {
        List<List<MemoryEntry>> batch = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            batch.add(chain("project-" + i, Scope.PROJECT, "draft " + i, "lighthouse keeper log entry " + i));
        }
        for (int i = 0; i < 5; i++) {
            batch.add(chain("global-" + i, Scope.GLOBAL, "a shared harbour note " + i));
        }
        // fail_at 3: the set is the model's first call, the whole batch must be its second
        try (MemoryProvider provider = openFailing(Map.of("fail_at", 3))) {
            provider.set("project-0", "written before the import", Scope.PROJECT);
            long project = generation(projectIndex());
            long global = generation(globalIndex());

            List<MemoryEntry> stored = provider.requireRestoring().restoreAll(batch);

            assertThat(stored).containsExactlyElementsOf(batch.stream().map(VectorBatchRestoreTest::last).toList());
            assertThat(generation(projectIndex())).isEqualTo(project + 1);
            assertThat(generation(globalIndex())).isEqualTo(global + 1);
        }
        try (MemoryProvider provider = openFailing(Map.of())) {
            for (List<MemoryEntry> chain : batch) {
                assertThat(provider.get(last(chain).key(), last(chain).scope())).contains(last(chain));
            }
            assertThat(provider.search(SearchRequest.builder("lighthouse keeper log entry 7").mode(SearchMode.SEMANTIC)
                    .build()).get(0).entry()).isEqualTo(last(batch.get(7)));
            assertThat(provider.doctor()).isEmpty();
        }
    }

    @Test
    void a_batch_whose_embedding_fails_part_way_leaves_nothing_of_it() throws IOException {
        MemoryEntry before;
        List<List<MemoryEntry>> batch = List.of(chain("a", Scope.PROJECT, "the first imported note"),
                chain("b", Scope.PROJECT, "the second imported note"),
                chain("c", Scope.PROJECT, "this one the model cannot embed"),
                chain("d", Scope.PROJECT, "the fourth imported note"));
        try (MemoryProvider provider = openFailing(Map.of("fail_on", "cannot embed"))) {
            before = provider.set("b", "written before the import", Scope.PROJECT);
            long generation = generation(projectIndex());

            assertThatThrownBy(() -> provider.requireRestoring().restoreAll(batch))
                    .isInstanceOf(BackendUnavailableException.class);

            assertThat(provider.query(Query.builder().build())).containsExactly(before);
            assertThat(generation(projectIndex())).isEqualTo(generation);
        }
        try (MemoryProvider provider = openFailing(Map.of())) {
            assertThat(provider.query(Query.builder().build())).containsExactly(before);
            assertThat(provider.requireRestoring().restoreAll(batch)).hasSize(4);
            assertThat(provider.doctor()).isEmpty();
        }
    }

    @Test
    void a_refused_chain_leaves_nothing_of_its_batch() throws IOException {
        // version 2 updated a day before version 1
        List<MemoryEntry> backwards = List.of(
                new MemoryEntry("c", "one", Scope.PROJECT, List.of(), Map.of(), T1, T1.plus(Duration.ofDays(1)), 1),
                new MemoryEntry("c", "two", Scope.PROJECT, List.of(), Map.of(), T1, T1, 2));
        try (MemoryProvider provider = VectorStores.open(base, "p", Map.of())) {
            MemoryEntry before = provider.set("b", "written before the import", Scope.PROJECT);
            long generation = generation(projectIndex());

            assertThatThrownBy(() -> provider.requireRestoring().restoreAll(List.of(chain("a", Scope.PROJECT, "first"),
                    chain("b", Scope.PROJECT, "second"), backwards))).isInstanceOf(InvalidEntryException.class);

            assertThat(provider.query(Query.builder().build())).containsExactly(before);
            assertThat(generation(projectIndex())).isEqualTo(generation);
        }
    }

    @Test
    void a_batch_naming_one_key_twice_keeps_the_later_chain_as_restoring_one_by_one_would() {
        try (MemoryProvider provider = VectorStores.open(base, "p", Map.of())) {
            List<MemoryEntry> first = chain("k", Scope.PROJECT, "the earlier import of k");
            List<MemoryEntry> second = chain("k", Scope.PROJECT, "older", "the later import of k");

            provider.requireRestoring().restoreAll(List.of(first, second));

            assertThat(provider.query(Query.builder().build())).containsExactly(last(second));
            assertThat(provider.search(SearchRequest.keyword("earlier"))).isEmpty();
        }
    }
}
