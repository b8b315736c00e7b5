package dev.forge.memory.vector;

import dev.forge.memory.support.SearchText;
import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.IndexModelMismatchException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.conformance.ChildJvm;
import dev.forge.memory.vector.internal.Documents;
import dev.forge.memory.vector.internal.EntryCodec;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Restore in the vector provider, beyond the conformance suite: what the last Lucene commit holds (what a crash would
 * leave), the restored value's vector, and a restore that fails, is killed, races a {@code set} or is written while a
 * model change waits for its reindex.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class VectorRestoreTest {

    private static final Instant T1 = Instant.parse("2021-03-04T05:06:07.008Z");

    @TempDir
    Path base;

    /** Versions 1.. of project key {@code key} holding {@code values}, created at T1, a day apart. */
    private static List<MemoryEntry> chain(String key, String... values) {
        List<MemoryEntry> chain = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            chain.add(new MemoryEntry(key, values[i], Scope.PROJECT, List.of("imported"), Map.of("n", i + 1), T1,
                    T1.plus(Duration.ofDays(i)), i + 1));
        }
        return List.copyOf(chain);
    }

    /** A document of the last commit: its stored entry and its vector ({@code null} if it has none). */
    private record Committed(MemoryEntry entry, float[] vector) {
    }

    /**
     * The documents of project key {@code key} in the last commit, read by a reader of its own rather than the
     * writer's near-real-time view: what a crash now would leave.
     */
    private List<Committed> committed(String key, int dimension) throws IOException {
        String id = Documents.id(Documents.namespace(Scope.PROJECT, "p", "session-1"), key);
        try (FSDirectory dir = FSDirectory.open(base.resolve(".forge/vectors")); DirectoryReader commit = DirectoryReader.open(dir)) {
            IndexSearcher searcher = new IndexSearcher(commit);
            List<Committed> found = new ArrayList<>();
            for (ScoreDoc doc : searcher.search(new TermQuery(new Term(Documents.ID, id)), 10).scoreDocs) {
                MemoryEntry entry = EntryCodec.decode(searcher.storedFields().document(doc.doc).get(Documents.ENTRY), id);
                LeafReaderContext leaf = commit.leaves().get(ReaderUtil.subIndex(doc.doc, commit.leaves()));
                FloatVectorValues vectors = leaf.reader().getFloatVectorValues(Documents.vectorField(dimension));
                int local = doc.doc - leaf.docBase;
                float[] vector = vectors != null && vectors.advance(local) == local ? vectors.vectorValue().clone() : null;
                found.add(new Committed(entry, vector));
            }
            return found;
        }
    }

    /** The vector the provider's model makes of {@code entry}, as the index stores it. */
    private static float[] vectorOf(VectorMemoryProvider provider, MemoryEntry entry) {
        return Documents.unitOrNull(provider.embeddingModel().embed(List.of(SearchText.DEFAULT.text(entry))).get(0));
    }

    @Test
    void a_restore_leaves_one_document_in_the_last_commit_with_the_vector_of_the_restored_value() throws IOException {
        List<MemoryEntry> chain = chain("k", "zebras graze on the savanna", "penguins swim in cold water");
        try (VectorMemoryProvider provider = VectorStores.open(base, "p", Map.of())) {
            provider.set("k", "the first value about zebras", Scope.PROJECT);
            provider.set("k", "the second value about zebras", Scope.PROJECT);
            provider.set("k", "the third value about zebras", Scope.PROJECT);

            provider.requireRestoring().restore(chain);

            List<Committed> committed = committed("k", 384);
            assertThat(committed).singleElement().satisfies(c -> {
                assertThat(c.entry()).isEqualTo(chain.get(1));
                assertThat(c.vector()).containsExactly(vectorOf(provider, chain.get(1)));
            });
            assertThat(provider.doctor()).isEmpty();
        }
        try (MemoryProvider provider = VectorStores.open(base, "p", Map.of())) {
            assertThat(provider.get("k", Scope.PROJECT)).contains(chain.get(1));
            assertThat(provider.query(Query.builder().build())).containsExactly(chain.get(1));
            for (SearchMode mode : SearchMode.values()) {
                assertThat(provider.search(SearchRequest.builder("penguins swim in cold water").mode(mode).build()))
                        .as("%s", mode).singleElement().satisfies(h -> assertThat(h.entry()).isEqualTo(chain.get(1)));
            }
            assertThat(provider.search(SearchRequest.keyword("zebras"))).isEmpty();
            assertThat(provider.doctor()).isEmpty();
        }
    }

    @Test
    void a_restore_whose_embedding_fails_leaves_the_key_as_it_was() throws IOException {
        MemoryEntry before;
        // the failing model's first embed (the set) works, its second (the restore) fails, as a model gone away would
        try (MemoryProvider provider = openFailing(2)) {
            before = provider.set("k", "written before the import", Scope.PROJECT, List.of("kept"), Map.of());

            assertThatThrownBy(() -> provider.requireRestoring().restore(chain("k", "never stored", "nor this")))
                    .isInstanceOf(BackendUnavailableException.class);

            assertThat(provider.get("k", Scope.PROJECT)).contains(before);
        }
        assertThat(committed("k", 384)).singleElement().satisfies(c -> assertThat(c.entry()).isEqualTo(before));
        try (MemoryProvider provider = openFailing(100)) {
            assertThat(provider.query(Query.builder().build())).containsExactly(before);
            assertThat(provider.doctor()).isEmpty();
            assertThat(provider.requireRestoring().restore(chain("k", "stored once the model is back")).version()).isEqualTo(1);
        }
    }

    private MemoryProvider openFailing(int failAt) {
        return new VectorMemoryProviderFactory().open(VectorStores.context(base, "p",
                Map.of("embedding", Map.of("model", "failing", "dimension", 384, "fail_at", failAt))));
    }

    @Test
    void a_process_killed_while_restoring_leaves_one_whole_entry_with_its_vector() throws Exception {
        try (MemoryProvider provider = VectorStores.open(base, "p", Map.of())) {
            provider.set("k", "seeded before the child starts", Scope.PROJECT);
        }
        Path ready = base.resolve("child-ready");
        Process child = new ProcessBuilder(ChildJvm.command(List.of("-Xmx128m"), VectorChildRestorer.class,
                base.toString(), ready.toString()))
                .redirectErrorStream(true).redirectOutput(base.resolve("child-output.txt").toFile()).start();
        try {
            assertThat(ChildJvm.awaitFile(ready, Duration.ofMinutes(5))).as("the child restored a few times").isTrue();
            // a SIGKILL at some point of the restore loop: mid update, mid commit or between two restores
            Thread.sleep(150);
        } finally {
            child.destroyForcibly();
            assertThat(child.waitFor(5, TimeUnit.MINUTES)).as("the child is gone").isTrue();
        }

        try (VectorMemoryProvider provider = VectorStores.open(base, "p", Map.of())) {
            MemoryEntry entry = provider.get("k", Scope.PROJECT).orElseThrow();
            assertThat(entry.version()).isGreaterThanOrEqualTo(6);
            assertThat(entry.value()).isEqualTo(VectorChildRestorer.value(entry.version()));
            assertThat(entry.createdAt()).isEqualTo(VectorChildRestorer.CREATED);
            assertThat(committed("k", 384)).singleElement().satisfies(c -> {
                assertThat(c.entry()).isEqualTo(entry);
                assertThat(c.vector()).containsExactly(vectorOf(provider, entry));
            });
            assertThat(provider.doctor()).isEmpty();
            assertThat(provider.set("k", "written after the crash", Scope.PROJECT).version()).isEqualTo(entry.version() + 1);
        }
    }

    @Test
    void restores_and_sets_of_one_key_at_once_leave_one_document_and_each_set_follows_what_it_replaced() throws Exception {
        List<MemoryEntry> chain = chain("k", "harbour crane imported one", "harbour crane imported two");
        try (MemoryProvider first = VectorStores.open(base, "p", Map.of());
             MemoryProvider second = VectorStores.open(base, "p", Map.of())) {
            first.requireRestoring().restore(chain);
            List<MemoryEntry> sets = new ArrayList<>();
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                Future<?> restores = pool.submit((Callable<Void>) () -> {
                    start.await();
                    for (int i = 0; i < 15; i++) {
                        assertThat(first.requireRestoring().restore(chain)).isEqualTo(chain.get(1));
                    }
                    return null;
                });
                Future<?> writes = pool.submit((Callable<Void>) () -> {
                    start.await();
                    for (int i = 0; i < 15; i++) {
                        sets.add(second.set("k", "harbour crane written " + i, Scope.PROJECT));
                    }
                    return null;
                });
                start.countDown();
                restores.get(10, TimeUnit.MINUTES);
                writes.get(10, TimeUnit.MINUTES);
            } finally {
                pool.shutdownNow();
            }
            // a set continues after whatever it replaced: the restored version 2 or an earlier set
            for (int i = 0; i < sets.size(); i++) {
                MemoryEntry set = sets.get(i);
                assertThat(set.createdAt()).isEqualTo(T1);
                assertThat(set.version()).isBetween(3L, i == 0 ? 3L : sets.get(i - 1).version() + 1);
            }
            MemoryEntry last = first.get("k", Scope.PROJECT).orElseThrow();
            assertThat(last).isIn(chain.get(1), sets.get(sets.size() - 1));
            assertThat(second.query(Query.builder().build())).containsExactly(last);
            assertThat(committed("k", 384)).singleElement().satisfies(c -> assertThat(c.entry()).isEqualTo(last));
            assertThat(first.doctor()).isEmpty();
        }
    }

    @Test
    void a_restore_while_a_model_change_waits_for_its_reindex_marks_the_index_incomplete_like_a_set() {
        try (MemoryProvider provider = VectorStores.open(base, 384, false)) {
            provider.set("other", "roses need water every morning", Scope.PROJECT);
        }
        List<MemoryEntry> chain = chain("k", "the cache expires entries after ten minutes");
        try (MemoryProvider provider = VectorStores.open(base, 256, true)) {
            provider.requireRestoring().restore(chain);
        }
        // the restored vector is the new model's, the other the old one's: neither model may search them unreindexed
        assertThatThrownBy(() -> VectorStores.open(base, 384, false)).isInstanceOf(IndexModelMismatchException.class);
        assertThatThrownBy(() -> VectorStores.open(base, 256, false)).isInstanceOfSatisfying(IndexModelMismatchException.class,
                e -> assertThat(e.indexFingerprint()).contains("incomplete"));
        try (MemoryProvider provider = VectorStores.open(base, 256, true)) {
            assertThat(provider.requireReindexing().reindex().entries()).isEqualTo(2);
        }
        try (MemoryProvider provider = VectorStores.open(base, 256, false)) {
            assertThat(provider.get("k", Scope.PROJECT)).contains(chain.get(0));
            assertThat(provider.search(SearchRequest.builder("cache expiry").mode(SearchMode.SEMANTIC).build()))
                    .extracting(h -> h.entry()).first().isEqualTo(chain.get(0));
            assertThat(provider.doctor()).isEmpty();
        }
    }
}
