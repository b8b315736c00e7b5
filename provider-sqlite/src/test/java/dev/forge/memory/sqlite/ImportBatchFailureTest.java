package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.StorageException;
import dev.forge.memory.transfer.ImportResult;
import dev.forge.memory.transfer.Importer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An import into sqlite restores its keys a batch (one transaction) at a time: a backend failure in a batch leaves the
 * batches before it imported and nothing of the failing one, and importing the file again completes it.
 */
class ImportBatchFailureTest {

    @TempDir
    Path directory;

    @Test
    void a_failure_in_a_batch_keeps_the_batches_before_it_and_nothing_of_it() throws Exception {
        Path file = directory.resolve("input.jsonl");
        StringBuilder lines = new StringBuilder("{\"format\":\"forge-memory\",\"version\":\"1.0\"}\n");
        for (int i = 0; i < 250; i++) {
            lines.append("{\"kind\":\"entry\",\"key\":\"k").append(String.format("%03d", i)).append("\",\"value\":\"value ")
                    .append(i).append("\",\"scope\":\"project\",\"created_at\":\"2026-01-01T00:00:00.000Z\",")
                    .append("\"updated_at\":\"2026-01-02T00:00:00.000Z\",\"version\":2}\n");
        }
        Files.writeString(file, lines);
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            try (Connection other = Stores.jdbc(provider.databaseFile()); Statement statement = other.createStatement()) {
                statement.execute("CREATE TRIGGER fail_one BEFORE INSERT ON versions WHEN new.value = 'value 150'"
                        + " BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
            }
            Importer importer = Importer.builder().batch(100, 1 << 20).build();

            assertThatThrownBy(() -> importer.importFile(file, provider))
                    .isInstanceOf(StorageException.class).hasMessageContaining("injected failure");

            assertThat(provider.query(Query.builder().scopes(Scope.PROJECT).build())).hasSize(100)
                    .allSatisfy(entry -> assertThat(entry.key()).isLessThan("k100"));
            try (Connection other = Stores.jdbc(provider.databaseFile()); Statement statement = other.createStatement()) {
                statement.execute("DROP TRIGGER fail_one");
            }
            ImportResult again = importer.importFile(file, provider);

            assertThat(again.unchanged()).isEqualTo(100);
            assertThat(again.created()).isEqualTo(150);
            assertThat(provider.query(Query.builder().scopes(Scope.PROJECT).build())).hasSize(250);
            assertThat(provider.get("k150", Scope.PROJECT).orElseThrow().version()).isEqualTo(2);
            assertThat(provider.doctor()).isEmpty();
        }
    }
}
