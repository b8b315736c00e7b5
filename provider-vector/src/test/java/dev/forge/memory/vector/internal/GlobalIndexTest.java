package dev.forge.memory.vector.internal;

import dev.forge.memory.support.SearchText;
import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.support.SearchText;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.support.SearchText;
import dev.forge.memory.Scope;
import dev.forge.memory.support.SearchText;
import org.apache.lucene.index.IndexWriter;
import dev.forge.memory.support.SearchText;
import org.apache.lucene.index.IndexWriterConfig;
import dev.forge.memory.support.SearchText;
import org.apache.lucene.store.FSDirectory;
import dev.forge.memory.support.SearchText;
import org.junit.jupiter.api.Test;
import dev.forge.memory.support.SearchText;
import org.junit.jupiter.api.io.TempDir;

import dev.forge.memory.support.SearchText;
import java.nio.file.Path;
import dev.forge.memory.support.SearchText;
import java.time.Duration;
import dev.forge.memory.support.SearchText;
import java.time.Instant;
import dev.forge.memory.support.SearchText;
import java.util.List;
import dev.forge.memory.support.SearchText;
import java.util.Map;
import dev.forge.memory.support.SearchText;
import java.util.Optional;

import dev.forge.memory.support.SearchText;
import static org.assertj.core.api.Assertions.assertThat;
import dev.forge.memory.support.SearchText;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The shared GLOBAL index while another writer holds Lucene's lock on it. */
class GlobalIndexTest {

    @TempDir
    Path directory;

    private final IndexState state = new IndexState("test-fingerprint", "test-model", 4, true, SearchText.DEFAULT);

    @Test
    void a_write_waits_a_bounded_time_for_another_writer_then_fails_writing_nothing_and_works_once_it_is_gone()
            throws Exception {
        GlobalIndex index = GlobalIndex.acquire(directory, () -> state, Duration.ofMillis(200));
        try {
            String ns = Documents.namespace(Scope.GLOBAL, "", "");
            Instant now = Instant.parse("2026-03-01T10:00:00Z");
            MemoryEntry entry = new MemoryEntry("learning:k", "v", Scope.GLOBAL, List.of(), Map.of(), now, now, 1);
            String id = Documents.id(ns, entry.key());
            VectorIndex.ChangeWork<Void> put = changes -> {
                changes.put(id, Documents.document(entry, ns, "", "", SearchText.DEFAULT, new float[] {1, 0, 0, 0}), entry);
                return null;
            };
            try (FSDirectory lucene = FSDirectory.open(directory);
                 IndexWriter other = new IndexWriter(lucene, new IndexWriterConfig().setCommitOnClose(false))) {
                assertThatThrownBy(() -> index.write(put)).isInstanceOf(BackendUnavailableException.class)
                        .hasMessageContaining(directory.toRealPath().toString()).hasMessageContaining("stayed locked")
                        .hasMessageContaining("nothing was written").hasMessageContaining("'global_path'");
                assertThat(other.isOpen()).isTrue();
            }
            int documents = index.read(searcher -> searcher.getIndexReader().numDocs());
            assertThat(documents).isZero();
            index.write(put);
            Optional<MemoryEntry> found = index.read(searcher -> Documents.find(searcher, id, "test"));
            assertThat(found).contains(entry);
            assertThat(index.state()).isEqualTo(state);
        } finally {
            index.release();
        }
    }
}
