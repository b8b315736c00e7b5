package dev.forge.memory.vector.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.support.SearchText;

/** A project's index when the work of a write fails part way. */
class SharedIndexTest {

    @TempDir
    Path directory;

    private final IndexState state = new IndexState("test-fingerprint", "test-model", 4, true, SearchText.DEFAULT);
    private final String ns = Documents.namespace(Scope.PROJECT, "p", "");
    private final Instant now = Instant.parse("2026-03-01T10:00:00Z");

    @Test
    void a_write_whose_work_throws_after_a_change_keeps_nothing_of_it_not_even_at_the_next_commit() {
        MemoryEntry first = entry("first");
        MemoryEntry second = entry("second");
        SharedIndex index = SharedIndex.acquire(directory, () -> state);
        try {
            IllegalStateException refused = new IllegalStateException("refused half way");
            assertThatThrownBy(() -> index.write(changes -> {
                put(changes, first);
                throw refused;
            })).isSameAs(refused);
            assertThat(find(index, first)).as("the failed write's change, read back at once").isEmpty();

            index.write(changes -> {
                put(changes, second);
                return null;
            });
            assertThat(find(index, first)).isEmpty();
            assertThat(find(index, second)).contains(second);
        } finally {
            index.release();
        }
        SharedIndex reopened = SharedIndex.acquire(directory, () -> state);
        try {
            assertThat(find(reopened, first)).as("after the next write's commit").isEmpty();
            assertThat(find(reopened, second)).contains(second);
        } finally {
            reopened.release();
        }
    }

    private MemoryEntry entry(String key) {
        return new MemoryEntry(key, "value of " + key, Scope.PROJECT, List.of(), Map.of(), now, now, 1);
    }

    private void put(VectorIndex.Changes changes, MemoryEntry entry) throws java.io.IOException {
        changes.put(Documents.id(ns, entry.key()), Documents.document(entry, ns, "p", "", SearchText.DEFAULT,
                new float[] {1, 0, 0, 0}), entry);
    }

    private Optional<MemoryEntry> find(SharedIndex index, MemoryEntry entry) {
        return index.read(searcher -> Documents.find(searcher, Documents.id(ns, entry.key()), "test"));
    }
}
