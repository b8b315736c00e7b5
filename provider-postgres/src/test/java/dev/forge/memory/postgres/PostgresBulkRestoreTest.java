package dev.forge.memory.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code restoreAll} of an import batch is batch-shaped: a few statements for the whole batch (the keys' current rows
 * read with one statement, rows written in JDBC batches), not a lookup and a write per key; and it still replaces
 * exactly what each key had: new keys, live keys (keeping their relations), deleted keys (their tombstones gone) and a
 * key given twice in one batch (the later chain wins).
 */
class PostgresBulkRestoreTest {

    private static final int NEW_KEYS = 200;

    @TempDir
    Path directory;

    private static String database;

    private static synchronized String database() {
        if (database == null) {
            database = TestPostgres.newDatabase();
        }
        return database;
    }

    private MemoryProvider open(String schema) {
        Map<String, Object> settings = TestPostgres.connection(database());
        settings.put("schema", schema);
        ProviderContext context = ProviderContext.builder().config(ProviderConfig.of(settings)).projectId("p")
                .sessionId("s").baseDirectory(directory).forgeHome(directory.resolve("home")).build();
        return new PostgresMemoryProviderFactory().open(context);
    }

    private static List<MemoryEntry> chain(String key, Scope scope, String value, int versions) {
        List<MemoryEntry> chain = new ArrayList<>();
        Instant created = Instant.parse("2026-01-01T00:00:00Z");
        for (int v = 1; v <= versions; v++) {
            chain.add(new MemoryEntry(key, value + " v" + v, scope, List.of("imported", "t" + v), Map.of("n", v),
                    created, created.plusSeconds(v), v));
        }
        return List.copyOf(chain);
    }

    @Test
    void keys_that_array_literals_quote_are_restored_verbatim() {
        List<String> keys = List.of("NULL", "a \"quoted\" {key}, with \\ a backslash", " leading and trailing ",
                "ключ 🔑", "{}", "x,y");
        try (MemoryProvider provider = open("bulk_restore_keys")) {
            provider.set("NULL", "live before", Scope.PROJECT, List.of(), Map.of());
            List<List<MemoryEntry>> batch = keys.stream().map(k -> chain(k, Scope.PROJECT, "value of " + k, 2)).toList();
            provider.requireRestoring().restoreAll(batch);
            for (List<MemoryEntry> chain : batch) {
                MemoryEntry last = chain.get(chain.size() - 1);
                assertThat(provider.get(last.key(), Scope.PROJECT)).as(last.key()).contains(last);
                assertThat(provider.requireHistory().versions(last.key(), Scope.PROJECT)).isEqualTo(chain);
            }
        }
    }

    @Test
    void a_batch_is_restored_in_a_few_round_trips_and_replaces_what_each_key_had() {
        try (MemoryProvider provider = open("bulk_restore")) {
            provider.set("live", "before", Scope.PROJECT, List.of("old"), Map.of());
            provider.set("live", "before again", Scope.PROJECT, List.of("old"), Map.of());
            provider.set("friend", "x", Scope.PROJECT, List.of(), Map.of());
            provider.requireGraph().relate(EntryRef.of("live", Scope.PROJECT), EntryRef.of("friend", Scope.PROJECT), "knows");
            provider.set("gone", "deleted soon", Scope.GLOBAL, List.of(), Map.of());
            provider.delete("gone", Scope.GLOBAL);

            List<List<MemoryEntry>> batch = new ArrayList<>();
            for (int i = 0; i < NEW_KEYS; i++) {
                batch.add(chain("new/" + i, i % 2 == 0 ? Scope.PROJECT : Scope.SESSION, "value " + i, 2));
            }
            batch.add(chain("live", Scope.PROJECT, "restored live", 3));
            batch.add(chain("gone", Scope.GLOBAL, "restored gone", 1));
            batch.add(chain("twice", Scope.PROJECT, "first", 2));
            batch.add(chain("twice", Scope.PROJECT, "second", 1));

            List<MemoryEntry> restored;
            int roundTrips;
            try (RoundTrips counter = RoundTrips.counting()) {
                restored = provider.requireRestoring().restoreAll(batch);
                roundTrips = counter.count();
            }
            // two per key (a lookup, then the write) was over 400
            assertThat(roundTrips).as("round trips for %s keys", batch.size()).isLessThan(40);

            assertThat(restored).containsExactlyElementsOf(batch.stream().map(c -> c.get(c.size() - 1)).toList());
            for (int i = 0; i < NEW_KEYS; i++) {
                List<MemoryEntry> chain = batch.get(i);
                MemoryEntry last = chain.get(chain.size() - 1);
                assertThat(provider.get(last.key(), last.scope())).contains(last);
                assertThat(provider.requireHistory().versions(last.key(), last.scope())).isEqualTo(chain);
            }
            assertThat(provider.get("live", Scope.PROJECT)).contains(batch.get(NEW_KEYS).get(2));
            assertThat(provider.requireHistory().versions("live", Scope.PROJECT)).isEqualTo(batch.get(NEW_KEYS));
            assertThat(provider.requireGraph().relations(EntryRef.of("live", Scope.PROJECT), Direction.OUTGOING))
                    .extracting(Relation::to).containsExactly(EntryRef.of("friend", Scope.PROJECT));
            assertThat(provider.get("gone", Scope.GLOBAL)).contains(batch.get(NEW_KEYS + 1).get(0));
            assertThat(provider.requireHistory().deletedKeys(Scope.GLOBAL)).doesNotContain("gone");
            assertThat(provider.requireHistory().versions("twice", Scope.PROJECT)).isEqualTo(batch.get(NEW_KEYS + 3));
            assertThat(provider.query(dev.forge.memory.Query.of("tag:old", Scope.PROJECT))).isEmpty();
            assertThat(provider.query(dev.forge.memory.Query.of("tag:t3", Scope.PROJECT)))
                    .extracting(MemoryEntry::key).containsExactly("live");

            // the next write of a restored key goes on from its chain
            assertThat(provider.set("gone", "after", Scope.GLOBAL, List.of(), Map.of()).version()).isEqualTo(2);
        }
    }
}
