package dev.forge.memory.hybrid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.conformance.EmbeddingService;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The search child goes down mid-run: the vector provider's embedding service (a real HTTP server speaking the OpenAI
 * protocol) is stopped while writes, overwrites, deletes and a transaction go on, then started again. Nothing the
 * storage acknowledged may be lost, searches must keep answering from the storage, and the outbox must bring the
 * vector index back to exactly what the storage holds.
 */
class SearchChildFaultTest {

    @TempDir
    Path directory;

    private EmbeddingService service;
    private HybridMemoryProvider router;

    @BeforeEach
    void start() throws Exception {
        service = new EmbeddingService();
        router = open();
    }

    @AfterEach
    void stop() {
        router.close();
        service.close();
    }

    private HybridMemoryProvider open() {
        ProviderContext context = ProviderContext.builder().projectId("fault").sessionId("s1").baseDirectory(directory)
                .forgeHome(directory.resolve("forge-home")).build();
        // retry_interval 0: every call tries the child again, so the test needs no waiting
        return HybridStores.open(context, HybridStores.config(Map.of("provider", "sqlite"),
                Map.of("provider", "vector", "embedding", service.embedding()), null,
                Map.of("outbox", Map.of("retry_interval", "0"))));
    }

    @Test
    void writes_while_the_search_child_is_down_are_kept_and_the_outbox_repairs_the_index() throws Exception {
        for (int i = 0; i < 20; i++) {
            router.set("note-" + i, "the planning meeting about topic " + i, Scope.PROJECT);
        }
        assertThat(keys(router.search(semantic("planning meeting topic 3")))).contains("note-3");

        service.stop();
        for (int i = 20; i < 40; i++) {
            router.set("note-" + i, "a decision taken while the index was down " + i, Scope.PROJECT, List.of("late"), Map.of());
        }
        for (int i = 0; i < 5; i++) {
            assertThat(router.delete("note-" + i, Scope.PROJECT)).isTrue();
        }
        for (int i = 5; i < 10; i++) {
            router.set("note-" + i, "rewritten while the embedding service was stopped", Scope.PROJECT);
        }
        try (MemoryTransaction tx = router.requireTransactions().begin()) {
            tx.set("tx-1", "committed in a transaction during the outage", Scope.PROJECT);
            tx.delete("note-10", Scope.PROJECT);
            tx.commit();
        }
        router.set("session-note", "a session memory written during the outage", Scope.SESSION);

        // nothing the storage acknowledged is lost
        Map<String, String> stored = contents(router);
        assertThat(stored).hasSize(20 - 5 - 1 + 20 + 1 + 1);
        assertThat(stored).doesNotContainKeys("PROJECT:note-0", "PROJECT:note-4", "PROJECT:note-10");
        assertThat(stored.get("PROJECT:note-7")).isEqualTo("rewritten while the embedding service was stopped");
        assertThat(stored).containsKeys("PROJECT:note-39", "PROJECT:tx-1", "SESSION:session-note");
        assertThat(router.pendingUpdates()).isPositive();
        assertThat(router.doctor()).extracting(StoreProblem::problem).anyMatch(p -> p.contains("waits for the child"));

        // the index is behind, and searches fall back to the storage's keyword search with the stored entries
        assertThat(router.searchProvider().orElseThrow().get("note-25", Scope.PROJECT)).isEmpty();
        List<Hit> fallback = router.search(semantic("rewritten embedding service stopped"));
        assertThat(keys(fallback)).containsExactlyInAnyOrder("note-5", "note-6", "note-7", "note-8", "note-9");
        assertThat(fallback).allSatisfy(hit -> assertThat(hit.entry()).isEqualTo(router.get(hit.entry().key(),
                Scope.PROJECT).orElseThrow()));

        service.start();
        // the next call replays the outbox
        List<Hit> hits = router.search(semantic("rewritten while the embedding service was stopped"));
        assertThat(router.pendingUpdates()).isZero();
        assertThat(router.doctor()).isEmpty();
        assertThat(keys(hits).subList(0, 5)).containsExactlyInAnyOrder("note-5", "note-6", "note-7", "note-8", "note-9");
        assertThat(contents(router.searchProvider().orElseThrow())).isEqualTo(contents(router));
        assertThat(router.searchProvider().orElseThrow().get("session-note", Scope.SESSION)).isPresent();
    }

    @Test
    void updates_missed_before_a_restart_are_replayed_when_the_router_opens_again() throws Exception {
        router.set("kept", "written before the outage", Scope.PROJECT);
        service.stop();
        router.set("late", "written during the outage", Scope.GLOBAL);
        router.delete("kept", Scope.PROJECT);
        assertThat(router.pendingUpdates()).isEqualTo(2);
        router.close();

        service.start();
        router = open();
        assertThat(router.pendingUpdates()).isZero();
        MemoryProvider index = router.searchProvider().orElseThrow();
        assertThat(index.get("kept", Scope.PROJECT)).isEmpty();
        assertThat(index.get("late", Scope.GLOBAL)).get().extracting(MemoryEntry::value).isEqualTo("written during the outage");
        assertThat(keys(router.search(semantic("written during the outage")))).containsExactly("late");
    }

    @Test
    void a_clear_during_the_outage_reaches_the_index_after_it() throws Exception {
        router.set("a", "first note", Scope.PROJECT);
        router.set("b", "second note", Scope.PROJECT);
        service.stop();
        assertThat(router.clear(Scope.PROJECT)).isEqualTo(2);
        router.set("c", "written after the clear", Scope.PROJECT);
        service.start();
        router.replayOutbox();
        assertThat(contents(router.searchProvider().orElseThrow())).containsOnlyKeys("PROJECT:c");
    }

    @Test
    void reindex_rebuilds_the_index_from_the_storage_even_after_the_outbox_file_was_lost() throws Exception {
        for (int i = 0; i < 10; i++) {
            router.set("k" + i, "value number " + i, Scope.PROJECT);
        }
        service.stop();
        router.set("k3", "changed during the outage", Scope.PROJECT);
        router.delete("k4", Scope.PROJECT);
        java.nio.file.Files.delete(directory.resolve(".forge/outbox/outbox.jsonl"));
        service.start();
        long[] last = {-1, -1};
        router.requireReindexing().reindex((done, total) -> {
            assertThat(done).isGreaterThanOrEqualTo(last[0]);
            last[0] = done;
            last[1] = total;
        });
        assertThat(last[0]).isEqualTo(last[1]).isEqualTo(9);
        assertThat(contents(router.searchProvider().orElseThrow())).isEqualTo(contents(router));
    }

    private static SearchRequest semantic(String text) {
        return SearchRequest.builder(text).mode(SearchMode.SEMANTIC).scopes(Scope.PROJECT, Scope.SESSION, Scope.GLOBAL)
                .limit(10).build();
    }

    private static List<String> keys(List<Hit> hits) {
        return hits.stream().map(h -> h.entry().key()).toList();
    }

    /** Key (with scope) to value of everything a provider sees. */
    private static Map<String, String> contents(MemoryProvider provider) {
        Map<String, String> contents = new TreeMap<>();
        for (MemoryEntry entry : provider.query(Query.builder().build())) {
            contents.put(entry.scope() + ":" + entry.key(), entry.value());
        }
        return contents;
    }
}
