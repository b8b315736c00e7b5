package dev.forge.memory.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.transfer.Exporter;
import dev.forge.memory.transfer.ImportResult;
import dev.forge.memory.transfer.Importer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Export and import across providers with PostgreSQL on both ends: seed 004's export file (a verbatim fixture,
 * {@code src/test/resources/seeds/seed-004-export.json}, section "Migration Between Providers") imports into postgres;
 * postgres's export imports into a fresh postgres schema losslessly, with every entry, version, tombstone and relation
 * (its time included) as it was, and into the in-memory provider with the one loss it cannot avoid named.
 */
class PostgresTransferRoundTripTest {

    @TempDir
    Path directory;

    private static String database;

    private ProviderContext context(String name, Map<String, ?> config) {
        return ProviderContext.builder().config(ProviderConfig.of(config)).projectId("round-trip").sessionId("s-1")
                .baseDirectory(directory.resolve(name)).forgeHome(directory.resolve(name + "-home")).build();
    }

    private MemoryProvider postgres(String schema) {
        synchronized (PostgresTransferRoundTripTest.class) {
            if (database == null) {
                database = TestPostgres.newDatabase();
            }
        }
        Map<String, Object> config = TestPostgres.connection(database);
        config.put("schema", schema);
        return new PostgresMemoryProviderFactory().open(context(schema, config));
    }

    private MemoryProvider inMemory() {
        ProviderContext context = context("in-memory", Map.of());
        return context.registry().factory("in-memory").open(context);
    }

    @Test
    void seed_export_imports_into_postgres_and_round_trips_through_another_provider_unchanged() throws IOException {
        Path seed = directory.resolve("seed-004-export.json");
        try (InputStream in = getClass().getResourceAsStream("/seeds/seed-004-export.json")) {
            Files.copy(in, seed);
        }
        try (MemoryProvider source = postgres("round_trip_source");
             MemoryProvider middle = inMemory();
             MemoryProvider target = postgres("round_trip_target")) {
            ImportResult imported = Importer.builder().build().importFile(seed, source);
            assertThat(imported.created()).isEqualTo(6);
            assertThat(source.get("decision:auth-strategy", Scope.PROJECT).orElseThrow().value())
                    .isEqualTo("Using JWT with refresh tokens because...");
            assertThat(source.get("current_task", Scope.SESSION)).isPresent();
            assertThat(source.get("learning:async-file-io", Scope.GLOBAL)).isPresent();
            // history, a tombstone and a relation, which the seed's format has no place for
            source.set("decision:auth-strategy", "JWT, refresh tokens rotated daily", Scope.PROJECT, List.of("decision"),
                    Map.of("reviewed", true));
            source.set("doomed", "gone soon", Scope.PROJECT);
            source.delete("doomed", Scope.PROJECT);
            source.requireGraph().relate(EntryRef.of("decision:auth-strategy", Scope.PROJECT),
                    EntryRef.of("learning:async-file-io", Scope.GLOBAL), "informed_by");

            Path first = directory.resolve("postgres.json");
            Exporter.builder().build().exportFile(source, first);
            // a provider that keeps no deletions gets everything else, and the import says what it could not take
            ImportResult there = Importer.builder().build().importFile(first, middle);
            assertThat(there.losses()).singleElement().asString().contains("1 deleted key");
            assertThat(everything(middle)).isEqualTo(everything(source));
            ImportResult back = Importer.builder().build().importFile(first, target);
            assertThat(back.lossless()).as("losses %s", back.losses()).isTrue();
            assertThat(target.requireHistory().deletedKeys(Scope.PROJECT)).containsExactly("doomed");

            assertThat(everything(target)).isEqualTo(everything(source));
            for (MemoryEntry entry : everything(source)) {
                assertThat(target.requireHistory().versions(entry.key(), entry.scope()))
                        .isEqualTo(source.requireHistory().versions(entry.key(), entry.scope()));
                assertThat(relations(target, entry)).isEqualTo(relations(source, entry));
            }
            assertThat(target.requireHistory().versions("decision:auth-strategy", Scope.PROJECT)).hasSize(2);
            assertThat(relations(target, target.get("decision:auth-strategy", Scope.PROJECT).orElseThrow())).hasSize(1);
        }
    }

    private static List<MemoryEntry> everything(MemoryProvider provider) {
        return provider.query(Query.of("*", Scope.SESSION, Scope.PROJECT, Scope.GLOBAL));
    }

    /** The links with their creation time, which an import keeps. */
    private static List<String> relations(MemoryProvider provider, MemoryEntry entry) {
        List<String> links = new ArrayList<>();
        for (Relation relation : provider.requireGraph().relations(entry.ref(), Direction.BOTH)) {
            links.add(relation.from() + " " + relation.type() + " " + relation.to() + " " + relation.createdAt());
        }
        return links;
    }
}
