package dev.forge.memory.hybrid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Capability;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
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
import dev.forge.memory.spi.ProviderRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restores through the router: the children get the storage's versions and timestamps where they can restore, the
 * current entry where they cannot, and a child that is down during a restore gets it from the outbox, in order with
 * the writes around it, also after a restart; an import's batch reaches each child as one batch ({@link Batches}).
 */
class HybridRestoreTest {

    private static final Instant T1 = Instant.parse("2020-01-02T03:04:05.006Z");
    private static final Instant T2 = Instant.parse("2021-02-03T04:05:06.007Z");
    private static final Instant T3 = Instant.parse("2022-03-04T05:06:07.008Z");

    @TempDir
    Path directory;

    private HybridMemoryProvider router;

    @AfterEach
    void close() {
        TestInMemoryProviderFactory.down(directory, "search", false);
        TestInMemoryProviderFactory.down(directory, "relations", false);
        if (router != null) {
            router.close();
        }
    }

    private ProviderContext context() {
        return ProviderContext.builder().projectId("p").sessionId("s").baseDirectory(directory)
                .forgeHome(directory.resolve("forge-home")).build();
    }

    /** A router on the test stores; retry_interval 0, so every call tries a child that was down again. */
    private HybridMemoryProvider open(Map<String, Object> search, Map<String, Object> relationships) {
        return HybridStores.open(context(), HybridStores.config(HybridStores.inMemory("storage"), search, relationships,
                Map.of("outbox", Map.of("retry_interval", "0"))));
    }

    private HybridMemoryProvider openWithSearch() {
        return open(HybridStores.inMemory("search", "embedding", Map.of("model", "hashing")), null);
    }

    private static List<MemoryEntry> chain(String key) {
        return List.of(new MemoryEntry(key, "the first draft of the plan", Scope.PROJECT, List.of("draft"), Map.of(), T1, T1, 1),
                new MemoryEntry(key, "penguins swim in cold water", Scope.PROJECT, List.of("final"),
                        Map.of("source", "import"), T1, T3, 3));
    }

    private MemoryProvider searchChild() {
        return router.searchProvider().orElseThrow();
    }

    @Test
    void the_discoverable_in_memory_provider_serves_as_storage_and_search_child_and_both_restore() {
        ProviderRegistry registry = ProviderRegistry.load();
        assertThat(registry.names()).contains("in-memory");
        assertThat(registry.factory("in-memory").capabilities()).contains(Capability.RESTORE);
        router = HybridStores.open(context(), HybridStores.config(Map.of("provider", "in-memory"),
                Map.of("provider", "in-memory", "embedding", Map.of("model", "hashing")), null, Map.of()));
        assertThat(router.capabilities()).contains(Capability.RESTORE, Capability.SEMANTIC_SEARCH);
        router.set("other", "nothing relevant here at all", Scope.PROJECT);

        MemoryEntry restored = router.requireRestoring().restore(chain("k"));

        assertThat(restored).isEqualTo(chain("k").get(1));
        assertThat(router.storage().requireHistory().versions("k", Scope.PROJECT)).isEqualTo(chain("k"));
        assertThat(searchChild().requireHistory().versions("k", Scope.PROJECT)).isEqualTo(chain("k"));
        List<Hit> hits = router.search(SearchRequest.builder("penguins swim in cold water").mode(SearchMode.SEMANTIC).build());
        assertThat(hits.get(0).entry()).isEqualTo(restored);
        assertThat(router.doctor()).isEmpty();
    }

    @Test
    void without_a_storage_that_restores_the_router_does_not_restore_even_if_its_children_do() {
        router = HybridStores.open(context(), HybridStores.config(HybridStores.inMemory("storage", "restore", false),
                HybridStores.inMemory("search"), null, Map.of()));

        assertThat(router.capabilities()).doesNotContain(Capability.RESTORE);
        assertThat(router.restoring()).isEmpty();
    }

    @Test
    void a_search_child_down_during_a_restore_gets_the_restored_chain_when_the_outbox_replays() {
        router = openWithSearch();
        router.set("k", "written before the import", Scope.PROJECT);
        TestInMemoryProviderFactory.down(directory, "search", true);

        MemoryEntry restored = router.requireRestoring().restore(chain("k"));

        assertThat(router.get("k", Scope.PROJECT)).contains(restored);
        assertThat(router.pendingUpdates()).isOne();
        assertThat(router.doctor()).extracting(StoreProblem::problem).anyMatch(p -> p.contains("restore of 'k'"));
        // searches answer from the storage meanwhile, with the restored entry
        assertThat(router.search(SearchRequest.builder("penguins").mode(SearchMode.KEYWORD).build()))
                .extracting(Hit::entry).containsExactly(restored);

        TestInMemoryProviderFactory.down(directory, "search", false);
        assertThat(router.replayOutbox()).isZero();

        assertThat(searchChild().requireHistory().versions("k", Scope.PROJECT)).isEqualTo(chain("k"));
        assertThat(router.search(SearchRequest.builder("penguins swim").mode(SearchMode.SEMANTIC).build()).get(0).entry())
                .isEqualTo(restored);
        assertThat(router.doctor()).isEmpty();
    }

    @Test
    void a_restore_missed_before_a_restart_is_replayed_when_the_router_opens_again() {
        router = openWithSearch();
        TestInMemoryProviderFactory.down(directory, "search", true);
        router.requireRestoring().restore(chain("k"));
        router.close();
        router = null;

        TestInMemoryProviderFactory.down(directory, "search", false);
        router = openWithSearch();

        assertThat(router.pendingUpdates()).isZero();
        assertThat(searchChild().requireHistory().versions("k", Scope.PROJECT)).isEqualTo(chain("k"));
    }

    @Test
    void writes_around_a_restore_during_an_outage_reach_the_child_in_order() {
        router = openWithSearch();
        router.set("k", "before the outage", Scope.PROJECT);
        TestInMemoryProviderFactory.down(directory, "search", true);
        router.set("k", "during the outage, before the import", Scope.PROJECT);
        router.set("gone", "deleted again after the import", Scope.PROJECT);
        router.requireRestoring().restore(chain("k"));
        router.requireRestoring().restore(chain("gone"));
        router.delete("gone", Scope.PROJECT);
        MemoryEntry after = router.set("k", "during the outage, after the import", Scope.PROJECT);
        assertThat(after.version()).isEqualTo(4);

        TestInMemoryProviderFactory.down(directory, "search", false);
        assertThat(router.replayOutbox()).isZero();

        assertThat(searchChild().requireHistory().versions("k", Scope.PROJECT))
                .isEqualTo(router.requireHistory().versions("k", Scope.PROJECT));
        assertThat(searchChild().get("k", Scope.PROJECT)).contains(after);
        assertThat(searchChild().get("gone", Scope.PROJECT)).isEmpty();
    }

    @Test
    void relations_stay_when_the_relationships_child_gets_a_restore_from_the_outbox() {
        router = open(null, HybridStores.inMemory("relations"));
        router.set("a", "one end", Scope.PROJECT);
        router.set("b", "other end", Scope.PROJECT);
        EntryRef a = new EntryRef("a", Scope.PROJECT);
        EntryRef b = new EntryRef("b", Scope.PROJECT);
        router.requireGraph().relate(a, b, "DEPENDS_ON");
        TestInMemoryProviderFactory.down(directory, "relations", true);

        router.requireRestoring().restore(chain("a"));
        assertThatThrownBy(() -> router.requireGraph().relations(a, Direction.OUTGOING))
                .isInstanceOf(BackendUnavailableException.class);

        TestInMemoryProviderFactory.down(directory, "relations", false);
        assertThat(router.replayOutbox()).isZero();
        assertThat(router.requireGraph().relations(a, Direction.OUTGOING)).singleElement()
                .satisfies(r -> assertThat(r.to()).isEqualTo(b));
        assertThat(router.relationshipsProvider().orElseThrow().get("a", Scope.PROJECT)).contains(chain("a").get(1));
    }

    @Test
    void a_child_that_cannot_restore_gets_the_current_entry_once() {
        router = open(HybridStores.inMemory("search", "restore", false), null);
        router.set("k", "written before the import", Scope.PROJECT);

        MemoryEntry restored = router.requireRestoring().restore(chain("k"));
        List<MemoryEntry> copies = searchChild().requireHistory().versions("k", Scope.PROJECT);
        router.requireRestoring().restore(chain("k"));

        assertThat(copies).hasSize(2).last().satisfies(copy -> {
            assertThat(copy.value()).isEqualTo(restored.value());
            assertThat(copy.tags()).isEqualTo(restored.tags());
            assertThat(copy.metadata()).isEqualTo(restored.metadata());
        });
        // the same chain again: the copy already has its content, so the child is not written
        assertThat(searchChild().requireHistory().versions("k", Scope.PROJECT)).isEqualTo(copies);
        assertThat(router.search(SearchRequest.builder("penguins").mode(SearchMode.KEYWORD).build()))
                .extracting(Hit::entry).containsExactly(restored);
    }

    @Test
    void a_refused_chain_reaches_no_child_and_queues_nothing() {
        router = openWithSearch();
        MemoryEntry kept = router.set("k", "already here", Scope.PROJECT);
        TestInMemoryProviderFactory.down(directory, "search", true);
        List<MemoryEntry> backwards = List.of(chain("k").get(1), chain("k").get(0));

        assertThatThrownBy(() -> router.requireRestoring().restore(backwards)).isInstanceOf(InvalidEntryException.class);

        assertThat(router.get("k", Scope.PROJECT)).contains(kept);
        assertThat(router.pendingUpdates()).isZero();
        TestInMemoryProviderFactory.down(directory, "search", false);
        assertThat(searchChild().get("k", Scope.PROJECT)).get().extracting(MemoryEntry::value).isEqualTo("already here");
    }

    @Test
    void a_restore_record_is_written_as_a_sync_with_a_flag_that_older_routers_ignore() throws Exception {
        router = openWithSearch();
        TestInMemoryProviderFactory.down(directory, "search", true);
        router.requireRestoring().restore(chain("k"));

        String line = Files.readString(directory.resolve(".forge/outbox/outbox.jsonl")).strip();
        assertThat(line).contains("\"op\":\"sync\"", "\"restore\":true", "\"key\":\"k\"");
    }

    /**
     * {@code restoreAll}, what an import runs per batch: the storage restores the batch, then each child gets it as one
     * batch (the vector child: one commit per index), with the guarantees of a single restore: a child that is down or
     * fails gets a restore record per key of the batch in the outbox, replayed when it answers.
     */
    @Nested
    class Batches {

        private HybridMemoryProvider openBatch(Map<String, Object> storage, Map<String, Object> search) {
            return HybridStores.open(context(), HybridStores.config(storage, search, null,
                    Map.of("outbox", Map.of("retry_interval", "0"))));
        }

        /** Two versions of {@code key}: a draft and the final {@code value}. */
        private List<MemoryEntry> batchChain(String key, Scope scope, String value) {
            return List.of(new MemoryEntry(key, "a first draft", scope, List.of("draft"), Map.of(), T1, T1, 1),
                    new MemoryEntry(key, value, scope, List.of("final"), Map.of("source", "import"), T1,
                            T1.plus(Duration.ofDays(1)), 2));
        }

        private MemoryEntry last(List<MemoryEntry> chain) {
            return chain.get(chain.size() - 1);
        }

        private List<List<MemoryEntry>> batch(int project, int global) {
            List<List<MemoryEntry>> batch = new ArrayList<>();
            for (int i = 0; i < project; i++) {
                batch.add(batchChain("note-" + i, Scope.PROJECT, "lighthouse keeper log entry " + i));
            }
            for (int i = 0; i < global; i++) {
                batch.add(batchChain("shared-" + i, Scope.GLOBAL, "a harbour note every project shares " + i));
            }
            return batch;
        }

        /** The generation of the last commit of the Lucene index in {@code index}: one more per commit. */
        private long generation(Path index) throws IOException {
            try (FSDirectory dir = FSDirectory.open(index)) {
                return SegmentInfos.readLatestCommit(dir).getGeneration();
            }
        }

        @Test
        void a_batch_reaches_the_vector_child_as_one_commit_per_index_with_the_storage_versions() throws IOException {
            router = openBatch(Map.of("provider", "sqlite"), HybridStores.vector());
            router.set("note-0", "written before the import", Scope.PROJECT);
            router.set("shared-0", "written before the import", Scope.GLOBAL);
            Path projectIndex = directory.resolve(".forge/vectors");
            Path globalIndex = directory.resolve("forge-home/hybrid/sqlite/search/vectors");
            long project = generation(projectIndex);
            long global = generation(globalIndex);
            List<List<MemoryEntry>> batch = batch(30, 3);

            List<MemoryEntry> stored = router.requireRestoring().restoreAll(batch);

            assertThat(stored).containsExactlyElementsOf(batch.stream().map(this::last).toList());
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
            router = openBatch(HybridStores.inMemory("storage"), HybridStores.inMemory("search", "embedding", Map.of("model", "hashing")));
            router.set("note-1", "written before the import", Scope.PROJECT);
            TestInMemoryProviderFactory.down(directory, "search", true);
            List<List<MemoryEntry>> batch = batch(5, 2);

            List<MemoryEntry> stored = router.requireRestoring().restoreAll(batch);

            assertThat(stored).containsExactlyElementsOf(batch.stream().map(this::last).toList());
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
            router = openBatch(Map.of("provider", "sqlite"), Map.of("provider", "vector",
                    "embedding", Map.of("model", "failing", "dimension", 384, "fail_on", "cannot embed")));
            router.set("note-0", "written before the import", Scope.PROJECT);
            long generation = generation(directory.resolve(".forge/vectors"));
            List<List<MemoryEntry>> batch = new ArrayList<>(batch(4, 0));
            batch.add(batchChain("odd", Scope.PROJECT, "a text the model cannot embed"));

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
            router = openBatch(HybridStores.inMemory("storage"), HybridStores.inMemory("search", "restore", false));
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
            router = openBatch(Map.of("provider", "sqlite"), HybridStores.vector());
            MemoryEntry kept = router.set("note-1", "already here", Scope.PROJECT);
            List<List<MemoryEntry>> batch = new ArrayList<>(batch(3, 0));
            batch.add(List.of(last(batchChain("back", Scope.PROJECT, "two")), batchChain("back", Scope.PROJECT, "two").get(0)));

            assertThatThrownBy(() -> router.requireRestoring().restoreAll(batch)).isInstanceOf(InvalidEntryException.class);

            assertThat(router.query(Query.builder().build())).containsExactly(kept);
            // the child's copy has the child's own timestamps
            assertThat(searchChild().query(Query.builder().build())).extracting(MemoryEntry::value).containsExactly(kept.value());
            assertThat(router.pendingUpdates()).isZero();
        }
    }
}
