package dev.forge.memory.hybrid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.Hit;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.spi.ProviderContext;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code restoreAll} through the router, what an import runs per batch: the storage restores the batch, then each
 * child gets it as one batch (the vector child: one commit per index), with the guarantees of a single restore: a
 * child that is down or fails gets a restore record per key of the batch in the outbox, replayed when it answers.
 */
class HybridBatchRestoreTest {

    private static final Instant T1 = Instant.parse("2020-01-02T03:04:05.006Z");

    @TempDir
    Path directory;

    private HybridMemoryProvider router;

    @AfterEach
    void close() {
        TestInMemoryProviderFactory.down(directory, "search", false);
        if (router != null) {
            router.close();
        }
    }

    private ProviderContext context() {
        return ProviderContext.builder().projectId("p").sessionId("s").baseDirectory(directory)
                .forgeHome(directory.resolve("forge-home")).build();
    }

    private HybridMemoryProvider open(Map<String, Object> storage, Map<String, Object> search) {
        return HybridStores.open(context(), HybridStores.config(storage, search, null,
                Map.of("outbox", Map.of("retry_interval", "0"))));
    }

    /** Two versions of {@code key}: a draft and the final {@code value}. */
    private static List<MemoryEntry> chain(String key, Scope scope, String value) {
        return List.of(new MemoryEntry(key, "a first draft", scope, List.of("draft"), Map.of(), T1, T1, 1),
                new MemoryEntry(key, value, scope, List.of("final"), Map.of("source", "import"), T1,
                        T1.plus(Duration.ofDays(1)), 2));
    }

    private static MemoryEntry last(List<MemoryEntry> chain) {
        return chain.get(chain.size() - 1);
    }

    private static List<List<MemoryEntry>> batch(int project, int global) {
        List<List<MemoryEntry>> batch = new ArrayList<>();
        for (int i = 0; i < project; i++) {
            batch.add(chain("note-" + i, Scope.PROJECT, "lighthouse keeper log entry " + i));
        }
        for (int i = 0; i < global; i++) {
            batch.add(chain("shared-" + i, Scope.GLOBAL, "a harbour note every project shares " + i));
        }
        return batch;
    }

    /** The generation of the last commit of the Lucene index in {@code index}: one more per commit. */
    private static long generation(Path index) throws IOException {
        try (FSDirectory dir = FSDirectory.open(index)) {
            return SegmentInfos.readLatestCommit(dir).getGeneration();
        }
    }

    private MemoryProvider searchChild() {
        return router.searchProvider().orElseThrow();
    }

    @Test
    void a_batch_reaches_the_vector_child_as_one_commit_per_index_with_the_storage_versions() throws IOException {
        router = open(Map.of("provider", "sqlite"), HybridStores.vector());
        router.set("note-0", "written before the import", Scope.PROJECT);
        router.set("shared-0", "written before the import", Scope.GLOBAL);
        Path projectIndex = directory.resolve(".forge/vectors");
        Path globalIndex = directory.resolve("forge-home/hybrid/sqlite/search/vectors");
        long project = generation(projectIndex);
        long global = generation(globalIndex);
        List<List<MemoryEntry>> batch = batch(30, 3);

        List<MemoryEntry> stored = router.requireRestoring().restoreAll(batch);

        assertThat(stored).containsExactlyElementsOf(batch.stream().map(HybridBatchRestoreTest::last).toList());
        assertThat(generation(projectIndex)).isEqualTo(project + 1);
        assertThat(generation(globalIndex)).isEqualTo(global + 1);
        for (List<MemoryEntry> chain : batch) {
            assertThat(router.requireHistory().versions(last(chain).key(), last(chain).scope())).isEqualTo(chain);
            assertThat(searchChild().get(last(chain).key(), last(chain).scope())).contains(last(chain));
        }
        assertThat(router.search(SearchRequest.builder("lighthouse keeper log entry 12").mode(SearchMode.SEMANTIC).build())
                .get(0).entry()).isEqualTo(last(batch.get(12)));
        assertThat(router.pendingUpdates()).isZero();
        assertThat(router.doctor()).isEmpty();
    }

    @Test
    void a_search_child_down_during_a_batch_gets_each_of_its_keys_from_the_outbox() {
        router = open(HybridStores.inMemory("storage"), HybridStores.inMemory("search", "embedding", Map.of("model", "hashing")));
        router.set("note-1", "written before the import", Scope.PROJECT);
        TestInMemoryProviderFactory.down(directory, "search", true);
        List<List<MemoryEntry>> batch = batch(5, 2);

        List<MemoryEntry> stored = router.requireRestoring().restoreAll(batch);

        assertThat(stored).containsExactlyElementsOf(batch.stream().map(HybridBatchRestoreTest::last).toList());
        assertThat(router.pendingUpdates()).isEqualTo(7);
        assertThat(router.doctor()).extracting(StoreProblem::problem).anyMatch(p -> p.contains("restore of 'note-4'"));
        assertThat(router.search(SearchRequest.builder("keeper").mode(SearchMode.KEYWORD).limit(20).build()))
                .extracting(Hit::entry).hasSize(5);

        TestInMemoryProviderFactory.down(directory, "search", false);
        assertThat(router.replayOutbox()).isZero();

        for (List<MemoryEntry> chain : batch) {
            assertThat(searchChild().requireHistory().versions(last(chain).key(), last(chain).scope())).isEqualTo(chain);
        }
        assertThat(router.doctor()).isEmpty();
    }

    @Test
    void a_vector_child_whose_model_fails_on_the_batch_keeps_none_of_it_and_the_outbox_holds_every_key()
            throws IOException {
        router = open(Map.of("provider", "sqlite"), Map.of("provider", "vector",
                "embedding", Map.of("model", "failing", "dimension", 384, "fail_on", "cannot embed")));
        router.set("note-0", "written before the import", Scope.PROJECT);
        long generation = generation(directory.resolve(".forge/vectors"));
        List<List<MemoryEntry>> batch = new ArrayList<>(batch(4, 0));
        batch.add(chain("odd", Scope.PROJECT, "a text the model cannot embed"));

        List<MemoryEntry> stored = router.requireRestoring().restoreAll(batch);

        // the storage has the whole batch; the child none of it, and a record of each key waits for it
        assertThat(stored).hasSize(5);
        assertThat(router.storage().query(Query.builder().build())).hasSize(5);
        assertThat(generation(directory.resolve(".forge/vectors"))).isEqualTo(generation);
        assertThat(searchChild().get("note-0", Scope.PROJECT)).get().extracting(MemoryEntry::value)
                .isEqualTo("written before the import");
        assertThat(router.pendingUpdates()).isEqualTo(5);
        assertThat(router.doctor()).extracting(StoreProblem::problem).anyMatch(p -> p.contains("restore of 'note-3'"));
    }

    @Test
    void a_child_that_cannot_restore_gets_each_current_entry_of_a_batch_once() {
        router = open(HybridStores.inMemory("storage"), HybridStores.inMemory("search", "restore", false));
        List<List<MemoryEntry>> batch = batch(4, 1);

        router.requireRestoring().restoreAll(batch);
        router.requireRestoring().restoreAll(batch);

        for (List<MemoryEntry> chain : batch) {
            List<MemoryEntry> copies = searchChild().requireHistory().versions(last(chain).key(), last(chain).scope());
            assertThat(copies).singleElement().satisfies(copy -> assertThat(copy.sameContentAs(last(chain))).isTrue());
        }
    }

    @Test
    void a_refused_chain_leaves_its_batch_out_of_the_storage_and_every_child() {
        router = open(Map.of("provider", "sqlite"), HybridStores.vector());
        MemoryEntry kept = router.set("note-1", "already here", Scope.PROJECT);
        List<List<MemoryEntry>> batch = new ArrayList<>(batch(3, 0));
        batch.add(List.of(last(chain("back", Scope.PROJECT, "two")), chain("back", Scope.PROJECT, "two").get(0)));

        assertThatThrownBy(() -> router.requireRestoring().restoreAll(batch)).isInstanceOf(InvalidEntryException.class);

        assertThat(router.query(Query.builder().build())).containsExactly(kept);
        // the child's copy has the child's own timestamps
        assertThat(searchChild().query(Query.builder().build())).extracting(MemoryEntry::value).containsExactly(kept.value());
        assertThat(router.pendingUpdates()).isZero();
    }
}
