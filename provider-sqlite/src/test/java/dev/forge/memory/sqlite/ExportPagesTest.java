package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.support.KeyPages;
import dev.forge.memory.transfer.Exporter;
import dev.forge.memory.transfer.ImportResult;
import dev.forge.memory.transfer.Importer;
import dev.forge.memory.transfer.TransferFormat;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sqlite provider's {@link KeyPages}: keyset pages of keys with their history, deleted keys and the keys that may
 * relate, which export and migration read instead of a query and a history read per key. Whatever the page size, an
 * export through them is byte for byte the export through {@code query} and {@code history()} (a provider that hides
 * them), on a store with history, deleted keys, relations within and across its two files, and keys that sort by code
 * point.
 */
class ExportPagesTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-01T00:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path directory;

    @Test
    void live_pages_read_every_key_in_order_with_its_earlier_versions() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("b", "b1", Scope.PROJECT);
            provider.set("a", "a1", Scope.PROJECT);
            provider.set("a", "a2", Scope.PROJECT, List.of("t"), Map.of("n", 1L));
            provider.set("c", "c1", Scope.PROJECT);
            provider.delete("c", Scope.PROJECT);
            provider.set("c", "c3", Scope.PROJECT);
            provider.set("s", "session", Scope.SESSION);

            KeyPages pages = provider;
            KeyPages.Page<KeyPages.Chain> first = pages.live(Scope.PROJECT, "", 2);
            assertThat(first.items()).extracting(chain -> chain.current().key()).containsExactly("a", "b");
            assertThat(first.items().get(0).versions()).extracting(MemoryEntry::value).containsExactly("a1", "a2");
            assertThat(first.items().get(0).current()).isEqualTo(provider.get("a", Scope.PROJECT).orElseThrow());
            assertThat(first.next()).contains("b");

            KeyPages.Page<KeyPages.Chain> second = pages.live(Scope.PROJECT, first.next().orElseThrow(), 2);
            // The tombstone (version 2) is not a version: c's chain is c1, then c3 at version 3.
            assertThat(second.items()).singleElement().satisfies(chain -> {
                assertThat(chain.versions()).extracting(MemoryEntry::version).containsExactly(1L, 3L);
                assertThat(chain.deleted()).isFalse();
            });
            assertThat(second.next()).isEmpty();
            assertThat(pages.live(Scope.SESSION, "", 10).items()).extracting(chain -> chain.current().key())
                    .containsExactly("s");
        }
    }

    @Test
    void deleted_pages_and_relating_keys() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            for (String key : List.of("d1", "d2", "d3", "live", "other")) {
                provider.set(key, key + " one", Scope.PROJECT);
                provider.set(key, key + " two", Scope.PROJECT);
            }
            provider.set("g", "global", Scope.GLOBAL);
            for (String key : List.of("d1", "d2", "d3")) {
                provider.delete(key, Scope.PROJECT);
            }
            MemoryGraph graph = provider.requireGraph();
            graph.relate(new EntryRef("other", Scope.PROJECT), new EntryRef("live", Scope.PROJECT), "uses");
            graph.relate(new EntryRef("live", Scope.PROJECT), new EntryRef("g", Scope.GLOBAL), "cites");

            KeyPages.Page<KeyPages.Chain> deleted = provider.deleted(Scope.PROJECT, "", 2);
            assertThat(deleted.items()).extracting(chain -> chain.current().key()).containsExactly("d1", "d2");
            assertThat(deleted.items()).allSatisfy(chain -> {
                assertThat(chain.deleted()).isTrue();
                assertThat(chain.versions()).extracting(MemoryEntry::version).containsExactly(1L, 2L);
            });
            assertThat(provider.deleted(Scope.PROJECT, deleted.next().orElseThrow(), 2).items())
                    .extracting(chain -> chain.current().value()).containsExactly("d3 two");

            List<String> relating = new ArrayList<>();
            Optional<String> after = Optional.of("");
            while (after.isPresent()) {
                KeyPages.Page<String> page = provider.relating(Scope.PROJECT, after.get(), 1);
                relating.addAll(page.items());
                after = page.next();
            }
            assertThat(relating).containsExactly("live", "other");
            assertThat(provider.relating(Scope.GLOBAL, "", 10).items()).isEmpty();
        }
    }

    @Test
    void an_export_through_the_pages_is_the_export_through_query_and_history_whatever_the_page_size() throws Exception {
        Path input = Files.writeString(directory.resolve("input.jsonl"), """
                {"format":"forge-memory","version":"1.0"}
                """);
        try (SqliteMemoryProvider provider = Stores.open(directory.resolve("store"))) {
            ImportResult imported = Importer.builder().build().importFile(input, provider);
            assertThat(imported.created()).isZero();
            for (int i = 0; i < 30; i++) {
                String key = (i % 3 == 0 ? "note/" : "a-") + String.format("%02d", 29 - i);
                Scope scope = Scope.values()[i % 3];
                provider.set(key, "first " + i, scope, List.of("t" + (i % 4)), Map.of("i", (long) i));
                if (i % 4 == 0) {
                    provider.set(key, "second " + i, scope, List.of(), Map.of("text", "x" + i));
                }
                if (i % 7 == 0) {
                    provider.delete(key, scope);
                }
            }
            // Keys that order differently by UTF-16 unit and by code point, and a key deleted and written again.
            provider.set("\uD83D\uDE00 emoji", "surrogates sort last", Scope.PROJECT);
            provider.set("\uFF21 fullwidth", "below the surrogates by code point", Scope.PROJECT);
            provider.set("again", "one", Scope.PROJECT);
            provider.delete("again", Scope.PROJECT);
            provider.set("again", "three", Scope.PROJECT);
            MemoryGraph graph = provider.requireGraph();
            graph.relate(new EntryRef("a-28", Scope.PROJECT), new EntryRef("a-27", Scope.GLOBAL), "across");
            graph.relate(new EntryRef("a-27", Scope.GLOBAL), new EntryRef("note/23", Scope.SESSION), "back");
            graph.relate(new EntryRef("again", Scope.PROJECT), new EntryRef("note/23", Scope.SESSION), "within");
            graph.relate(new EntryRef("again", Scope.PROJECT), new EntryRef("a-25", Scope.PROJECT), "also");
            graph.relate(new EntryRef("note/23", Scope.SESSION), new EntryRef("note/23", Scope.SESSION), "self");
            graph.relate(new EntryRef("a-24", Scope.GLOBAL), new EntryRef("a-21", Scope.GLOBAL), "global");
            assertThat(provider.globalDatabaseFile()).isNotEqualTo(provider.databaseFile());

            String expected = export(new QueryOnly(provider), 2000);
            assertThat(expected).contains("\"deleted\":true").contains("\"history\":[{").contains("\"kind\":\"relation\"");
            for (int pageSize : List.of(1, 2, 7, 2000)) {
                assertThat(export(provider, pageSize)).as("page size %d", pageSize).isEqualTo(expected);
            }
            assertThat(exportScopes(provider, Set.of(Scope.PROJECT))).isEqualTo(exportScopes(new QueryOnly(provider), Set.of(Scope.PROJECT)));
        }
    }

    @Test
    void unreadable_rows_are_skipped_as_query_skips_them_and_the_pages_after_them_are_read() throws Exception {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            for (int i = 0; i < 5; i++) {
                provider.set("k" + i, "value " + i, Scope.PROJECT);
            }
            try (Connection other = Stores.jdbc(provider.databaseFile()); Statement statement = other.createStatement()) {
                statement.execute("UPDATE entries SET updated_at = created_at - 1 WHERE key IN ('k1', 'k2')");
            }
            KeyPages.Page<KeyPages.Chain> page = provider.live(Scope.PROJECT, "k0", 2);
            assertThat(page.items()).isEmpty();
            assertThat(page.next()).contains("k2");
            // A page of unreadable rows does not end the export: the keys after it are written.
            assertThat(export(provider, 2).lines().skip(1).map(line -> line.replaceAll(".*\"key\":\"(k\\d)\".*", "$1")))
                    .containsExactly("k0", "k3", "k4");
        }
    }

    private static String export(MemoryProvider provider, int pageSize) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Exporter.builder().format(TransferFormat.JSONL).clock(CLOCK).pageSize(pageSize).build().export(provider, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static String exportScopes(MemoryProvider provider, Set<Scope> scopes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Exporter.builder().format(TransferFormat.JSON).clock(CLOCK).scopes(scopes).build().export(provider, out);
        return out.toString(StandardCharsets.UTF_8);
    }
}
