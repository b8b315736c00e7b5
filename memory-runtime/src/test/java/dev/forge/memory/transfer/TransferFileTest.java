package dev.forge.memory.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.inmemory.InMemoryMemoryProvider;
import dev.forge.memory.inmemory.InMemoryStore;
import dev.forge.memory.spi.ProviderContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The format's reader on hand-made files: every kind of bad input is named by line (or path) and imports nothing. */
class TransferFileTest {

    private static final String HEADER = "{\"format\":\"forge-memory\",\"version\":\"1.0\",\"exported_at\":\"2026-01-01T00:00:00.000Z\",\"project\":\"p\"}";

    @TempDir
    Path dir;

    private MemoryProvider target;

    @BeforeEach
    void open() {
        target = new InMemoryMemoryProvider(new InMemoryStore(), ProviderContext.builder().projectId("p").sessionId("s")
                .baseDirectory(dir).build());
    }

    private static String entry(String key, String scope, String value) {
        return "{\"kind\":\"entry\",\"key\":\"" + key + "\",\"value\":\"" + value + "\",\"scope\":\"" + scope
                + "\",\"tags\":[],\"metadata\":{},\"created_at\":\"2025-01-01T00:00:00.000Z\",\"updated_at\":\"2025-01-02T00:00:00.000Z\",\"version\":2,\"history\":[]}";
    }

    private Path file(String name, String... lines) throws IOException {
        return Files.writeString(dir.resolve(name), String.join("\n", lines) + "\n");
    }

    private TransferFileException failure(Path file) {
        List<MemoryEntry> before = target.query(Query.builder().build());
        TransferFileException error = (TransferFileException) org.assertj.core.api.Assertions.catchThrowable(
                () -> Importer.builder().build().importFile(file, target));
        assertThat(error).as("import of %s must fail", file.getFileName()).isNotNull();
        assertThat(target.query(Query.builder().build())).as("nothing imported").isEqualTo(before);
        assertThat(error.getMessage()).contains("Nothing was imported")
                .as("a problem that ends its own sentence is not given a second period").doesNotContain(".. ");
        return error;
    }

    @Test
    void a_valid_jsonl_file_imports_versions_and_timestamps_exactly() throws IOException {
        Path file = file("ok.jsonl", HEADER, entry("a", "project", "alpha"), entry("b", "global", "beta"),
                "{\"kind\":\"relation\",\"from\":\"a\",\"to\":\"b\",\"type\":\"USES\",\"scope\":\"project\",\"to_scope\":\"global\"}");

        ImportResult result = Importer.builder().build().importFile(file, target);

        assertThat(result.created()).isEqualTo(2);
        assertThat(result.relationsWritten()).isEqualTo(1);
        MemoryEntry a = target.get("a", Scope.PROJECT).orElseThrow();
        assertThat(a.version()).isEqualTo(2);
        assertThat(a.updatedAt()).hasToString("2025-01-02T00:00:00Z");
        assertThat(target.requireGraph().relations(new EntryRef("a", Scope.PROJECT), dev.forge.memory.Direction.OUTGOING))
                .singleElement().satisfies(r -> assertThat(r.to()).isEqualTo(new EntryRef("b", Scope.GLOBAL)));
    }

    /** Found by ImportFuzzTest: Jackson throws NumberFormatException, not a parse error, for such a number. */
    @Test
    void a_number_with_an_exponent_too_large_to_read_is_a_damaged_file_not_a_crash() throws IOException {
        String huge = "-6108728081e9999041150188";
        String withHugeMetadata = entry("b", "project", "x").replace("\"metadata\":{}", "\"metadata\":{\"n\":" + huge + "}");
        assertThat(failure(file("n.jsonl", HEADER, entry("a", "project", "x"), withHugeMetadata)).problems())
                .singleElement().satisfies(p -> assertThat(p.location()).isEqualTo("line 3"));
        assertThat(failure(file("h.jsonl", HEADER.replace("\"project\":\"p\"", "\"project\":\"p\",\"n\":" + huge))))
                .hasMessageContaining("line 1").hasMessageContaining("number");
        String json = "{\"format\":\"forge-memory\",\"version\":\"1.0\",\"scopes\":{\"project\":["
                + withHugeMetadata.replace("\"kind\":\"entry\",", "") + "]},\"relations\":[]}";
        assertThat(failure(file("n.json", json))).hasMessageContaining("number cannot be read");
    }

    @Test
    void a_wrong_format_or_version_is_refused() throws IOException {
        assertThat(failure(file("f.jsonl", HEADER.replace("forge-memory", "mcp-memory"), entry("a", "project", "x"))))
                .hasMessageContaining("line 1").hasMessageContaining("'mcp-memory'");
        assertThat(failure(file("v.jsonl", HEADER.replace("1.0", "2.0"), entry("a", "project", "x"))))
                .hasMessageContaining("version '2.0' is not supported");
        assertThat(failure(file("v.json", "{\"format\":\"forge-memory\",\"version\":\"0.9\",\"scopes\":{}}")))
                .hasMessageContaining("line 1 ($.version)");
        assertThat(failure(file("noheader.jsonl", entry("a", "project", "x")))).hasMessageContaining("header line is missing");
        assertThat(failure(file("empty.jsonl"))).hasMessageContaining("empty");
    }

    @Test
    void a_duplicate_key_names_both_lines() throws IOException {
        TransferFileException error = failure(file("dup.jsonl", HEADER, entry("a", "project", "one"), entry("b", "project", "x"),
                entry("a", "global", "other scope, no clash"), entry("a", "project", "two")));
        assertThat(error.problems()).singleElement().satisfies(p -> {
            assertThat(p.location()).isEqualTo("line 5");
            assertThat(p.message()).contains("duplicate key 'a'").contains("line 2");
        });
    }

    @Test
    void an_invalid_key_scope_or_field_names_the_line_and_the_json_path() throws IOException {
        assertThat(failure(file("key.jsonl", HEADER, entry("ok", "project", "x"), entry("bad\\u0001key", "project", "x"))).problems())
                .singleElement().satisfies(p -> assertThat(p.location()).isEqualTo("line 3"));
        assertThat(failure(file("scope.jsonl", HEADER, entry("a", "team", "x"))))
                .hasMessageContaining("line 2").hasMessageContaining("'team'");
        assertThat(failure(file("field.jsonl", HEADER, entry("a", "project", "x").replace("\"tags\"", "\"labels\""))))
                .hasMessageContaining("unknown field 'labels'");
        String json = "{\"format\":\"forge-memory\",\"version\":\"1.0\",\"scopes\":{\"project\":[\n"
                + entry("a", "project", "x").replace("\"kind\":\"entry\",", "") + ",\n"
                + entry("b", "project", "x").replace("\"kind\":\"entry\",", "").replace("\"version\":2", "\"version\":0") + "\n]},\"relations\":[]}";
        assertThat(failure(Files.writeString(dir.resolve("doc.json"), json)).problems())
                .singleElement().satisfies(p -> assertThat(p.location()).isEqualTo("line 3 ($.scopes.project[1])"));
    }

    @Test
    void an_entry_in_the_wrong_scope_list_or_a_broken_history_is_refused() throws IOException {
        String json = "{\"format\":\"forge-memory\",\"version\":\"1.0\",\"scopes\":{\"global\":["
                + entry("a", "project", "x").replace("\"kind\":\"entry\",", "") + "]},\"relations\":[]}";
        assertThat(failure(Files.writeString(dir.resolve("scope.json"), json))).hasMessageContaining("sits in the global list");
        String goingBack = entry("a", "project", "x").replace("\"history\":[]", "\"history\":[{\"value\":\"older\",\"tags\":[],"
                + "\"metadata\":{},\"created_at\":\"2025-01-01T00:00:00.000Z\",\"updated_at\":\"2025-03-01T00:00:00.000Z\",\"version\":1}]");
        assertThat(failure(file("history.jsonl", HEADER, goingBack))).hasMessageContaining("back in time");
    }

    @Test
    void a_relation_to_an_entry_that_exists_nowhere_is_refused_but_one_that_exists_in_the_target_is_made() throws IOException {
        assertThat(failure(file("rel.jsonl", HEADER, entry("a", "project", "x"),
                "{\"kind\":\"relation\",\"from\":\"a\",\"to\":\"ghost\",\"type\":\"USES\",\"scope\":\"project\"}")))
                .hasMessageContaining("line 3").hasMessageContaining("project:ghost");

        target.set("ghost", "now it exists", Scope.PROJECT);
        ImportResult result = Importer.builder().build().importFile(dir.resolve("rel.jsonl"), target);
        assertThat(result.relationsWritten()).isEqualTo(1);
    }

    @Test
    void a_file_that_is_not_utf8_is_refused() throws IOException {
        byte[] bytes = (HEADER + "\n" + entry("a", "project", "x") + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] broken = new byte[bytes.length + 1];
        System.arraycopy(bytes, 0, broken, 0, bytes.length);
        broken[bytes.length - 20] = (byte) 0xC3;
        broken[bytes.length - 19] = (byte) 0x28;
        assertThat(failure(Files.write(dir.resolve("latin.jsonl"), broken))).hasMessageContaining("UTF-8");
    }

    @Test
    void a_missing_file_is_refused_with_its_path() {
        assertThat(failure(dir.resolve("nowhere.json"))).hasMessageContaining("does not exist").hasMessageContaining("nowhere.json");
    }

    @Test
    void skip_invalid_imports_the_rest_and_reports_each_skipped_record() throws IOException {
        Path file = file("mixed.jsonl", HEADER, entry("a", "project", "x"), "{not json", entry("", "project", "x"),
                entry("b", "project", "y"), entry("a", "project", "again"));

        ImportResult result = Importer.builder().skipInvalid(true).build().importFile(file, target);

        assertThat(result.created()).isEqualTo(2);
        assertThat(result.invalid()).extracting(TransferProblem::location).containsExactly("line 3", "line 4", "line 6");
        assertThat(target.get("a", Scope.PROJECT).orElseThrow().value()).isEqualTo("x");
        assertThat(result.lossless()).isFalse();
        assertThat(result.losses()).containsExactly("3 invalid record(s), skipped");
    }

    @Test
    void a_stream_imports_like_a_file() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MemoryProvider source = new InMemoryMemoryProvider(new InMemoryStore(), ProviderContext.builder().projectId("q")
                .sessionId("s").baseDirectory(dir).build());
        source.set("k", "streamed", Scope.PROJECT, List.of("t"), Map.of("n", 1));
        source.set("k", "streamed twice", Scope.PROJECT, List.of("t"), Map.of("n", 2));
        Exporter.builder().format(TransferFormat.JSONL).build().export(source, out);

        ImportResult result = Importer.builder().build().importStream(new ByteArrayInputStream(out.toByteArray()), TransferFormat.JSONL, target);

        assertThat(result.created()).isEqualTo(1);
        assertThat(result.historyVersionsWritten()).isEqualTo(1);
        assertThat(target.requireHistory().versions("k", Scope.PROJECT)).isEqualTo(source.requireHistory().versions("k", Scope.PROJECT));
    }

    @Test
    void export_of_selected_scopes_leaves_out_relations_to_other_scopes() {
        target.set("a", "project entry", Scope.PROJECT);
        target.set("g", "global entry", Scope.GLOBAL);
        target.set("b", "another project entry", Scope.PROJECT);
        target.requireGraph().relate(new EntryRef("a", Scope.PROJECT), new EntryRef("g", Scope.GLOBAL), "USES");
        target.requireGraph().relate(new EntryRef("a", Scope.PROJECT), new EntryRef("b", Scope.PROJECT), "USES");

        ExportResult result = Exporter.builder().scopes(java.util.EnumSet.of(Scope.PROJECT)).build()
                .export(target, new ByteArrayOutputStream());

        assertThat(result.entries()).containsEntry(Scope.PROJECT, 2L).containsEntry(Scope.GLOBAL, 0L);
        assertThat(result.relations()).isEqualTo(1);
    }

    @Test
    void export_to_a_file_replaces_it_whole_or_not_at_all() throws IOException {
        target.set("k", "value", Scope.PROJECT);
        Path file = Files.writeString(dir.resolve("backup.json"), "the previous backup");

        ExportResult result = Exporter.builder().build().exportFile(target, file);

        assertThat(result.totalEntries()).isEqualTo(1);
        assertThat(Files.readString(file)).contains("\"format\" : \"forge-memory\"").contains("\"key\" : \"k\"");
        String exported = Files.readString(file);
        target.close();
        assertThatThrownBy(() -> Exporter.builder().build().exportFile(target, file))
                .isInstanceOf(dev.forge.memory.BackendUnavailableException.class);
        assertThat(Files.readString(file)).as("a failed export leaves the file as it was").isEqualTo(exported);
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".partial"));
        }
    }

    @Test
    void relations_before_their_entries_are_made_after_all_entries() throws IOException {
        String relation = "{\"kind\":\"relation\",\"from\":\"a\",\"to\":\"b\",\"type\":\"USES\",\"scope\":\"project\"}";
        Path lines = file("order.jsonl", HEADER, entry("c", "project", "x"), relation, entry("a", "project", "x"), entry("b", "project", "y"));
        assertThat(Importer.builder().build().importFile(lines, target).relationsWritten()).isEqualTo(1);

        MemoryProvider other = new InMemoryMemoryProvider(new InMemoryStore(), ProviderContext.builder().projectId("p")
                .sessionId("s").baseDirectory(dir).build());
        String json = "{\"format\":\"forge-memory\",\"version\":\"1.0\",\"relations\":[" + relation.replace("\"kind\":\"relation\",", "")
                + "],\"scopes\":{\"project\":[" + entry("a", "project", "x").replace("\"kind\":\"entry\",", "") + ","
                + entry("b", "project", "y").replace("\"kind\":\"entry\",", "") + "]}}";
        ImportResult result = Importer.builder().build().importFile(Files.writeString(dir.resolve("order.json"), json), other);
        assertThat(result.relationsWritten()).isEqualTo(1);
        assertThat(other.requireGraph().relations(new EntryRef("a", Scope.PROJECT), dev.forge.memory.Direction.OUTGOING)).hasSize(1);
    }

    @Test
    void a_decimal_a_double_cannot_hold_is_refused_not_rounded() throws IOException {
        Path file = file("decimal.jsonl", HEADER, entry("a", "project", "x").replace("\"metadata\":{}", "\"metadata\":{\"p\":19.999999999999999999,\"q\":0.75}"),
                entry("b", "project", "x").replace("\"metadata\":{}", "\"metadata\":{\"q\":0.75,\"r\":1.0E-5}"));
        assertThat(failure(file).problems()).singleElement().satisfies(p -> {
            assertThat(p.location()).isEqualTo("line 2");
            assertThat(p.message()).contains("double");
        });
        Importer.builder().skipInvalid(true).build().importFile(file, target);
        assertThat(target.get("b", Scope.PROJECT).orElseThrow().metadata()).isEqualTo(Map.of("q", 0.75, "r", 1.0E-5));
    }

    @Test
    void an_export_that_fails_part_way_is_not_a_complete_document() throws IOException {
        for (int i = 0; i < 1500; i++) {
            target.set(String.format("k%04d", i), "value " + i, Scope.PROJECT);
        }
        java.io.StringWriter out = new java.io.StringWriter();
        Exporter exporter = Exporter.builder().pageSize(1000).progress((phase, done, total) -> {
            if (done == 1000) {
                target.close();
            }
        }).build();

        assertThatThrownBy(() -> exporter.export(target, out)).isInstanceOf(dev.forge.memory.BackendUnavailableException.class);

        assertThat(out.toString()).contains("\"k0999\"").doesNotContain("\"k1000\"");
        Path partial = dir.resolve("partial.json");
        Files.writeString(partial, out.toString());
        open();
        assertThat(failure(partial)).hasMessageContaining("truncated");
    }

    @Test
    void importing_again_reports_no_history_written() throws IOException {
        MemoryProvider source = new InMemoryMemoryProvider(new InMemoryStore(), ProviderContext.builder().projectId("q")
                .sessionId("s").baseDirectory(dir).build());
        source.set("k", "one", Scope.PROJECT);
        source.set("k", "two", Scope.PROJECT);
        Path file = dir.resolve("again.json");
        Exporter.builder().build().exportFile(source, file);

        assertThat(Importer.builder().build().importFile(file, target).historyVersionsWritten()).isEqualTo(1);
        ImportResult again = Importer.builder().build().importFile(file, target);
        assertThat(again.unchanged()).isEqualTo(1);
        assertThat(again.historyVersionsWritten()).isZero();
    }

    @Test
    void header_fields_must_be_strings_and_a_document_needs_scopes() throws IOException {
        assertThat(failure(file("num.jsonl", HEADER.replace("\"1.0\"", "1.0"), entry("a", "project", "x"))))
                .hasMessageContaining("must be strings");
        assertThat(failure(Files.writeString(dir.resolve("noscopes.json"), "{\"format\":\"forge-memory\",\"version\":\"1.0\"}")))
                .hasMessageContaining("'scopes' is missing");
    }
}
