package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Found by the fuzz tests: doctor reported "fts5: corruption found reading blob" on a healthy database once FTS5 had
 * merged index segments (after about 16 writes) since the doctor's read connection last searched.
 */
class DoctorSearchIndexTest {

    @TempDir
    Path directory;

    @Test
    void doctor_stays_clean_while_writes_merge_the_search_index_between_checks() {
        try (MemoryProvider provider = Stores.open(directory)) {
            for (int i = 0; i < 24; i++) {
                provider.set("k" + i, "value number " + i, Scope.PROJECT, List.of("t" + i), Map.of());
                assertThat(provider.doctor()).as("doctor after write " + i).isEmpty();
                assertThat(provider.search(SearchRequest.keyword("value"))).hasSize(Math.min(i + 1, SearchRequest.DEFAULT_LIMIT));
            }
        }
    }
}
