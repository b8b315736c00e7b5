package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.forge.memory.Capability;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.EntryRules;
import dev.forge.memory.transfer.ConflictPolicy;
import dev.forge.memory.transfer.ImportResult;
import dev.forge.memory.transfer.Importer;
import dev.forge.memory.transfer.TransferFileException;
import dev.forge.memory.transfer.TransferFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Export, import and migration into a fresh store of the same provider: export → import → export gives the same
 * document (modulo what the provider says it cannot hold, counted in the report), a second import changes nothing,
 * the conflict policies do what they say, and a broken file imports nothing.
 */
public abstract class TransferContract extends ContractSupport {

    private int stores;

    /** Export and import take branches on these claims, for the source and for the fresh target alike. */
    @BeforeEach
    void transferReliesOnTheFacetClaims() {
        assumeClaimsHold(Capability.GRAPH, Capability.HISTORY, Capability.RESTORE);
    }

    /**
     * Whether the provider's graph keeps a restored relation's time ({@link MemoryProviderConformance#restoresRelationTimes});
     * where it does not, an import counts each relation in {@code relation_times_not_kept} and is not lossless.
     */
    protected boolean restoresRelationTimes() {
        return true;
    }

    /** A fresh, empty store of the provider under test, in a directory of its own, for the same project and session. */
    protected MemoryProvider freshStore() throws IOException {
        return freshStore("target-" + stores++);
    }

    private Path write(String name, byte[] bytes) throws IOException {
        return Files.write(workDirectory().resolve(name), bytes);
    }

    /** One fill of the source serves the three ways in: a JSON file, a JSON Lines file and a direct migration. */
    @Test
    void export_import_export_gives_the_same_document_by_json_json_lines_and_migration() throws IOException {
        TransferFixture.fill(provider, clock);
        JsonNode before = TransferFixture.export(provider);
        int keys = TransferFixture.liveEntries(before);
        for (TransferFormat format : TransferFormat.values()) {
            Path file = write("export." + format.id(), TransferFixture.exportBytes(provider, format));
            MemoryProvider target = freshStore();

            ImportResult result = Importer.builder().build().importFile(file, target);

            TransferFixture.assertTransferred(before, TransferFixture.export(target), target, result);
            assertThat(result.created()).as("created by a %s import", format).isEqualTo(result.entries()).isEqualTo(keys);
        }
        MemoryProvider migrated = freshStore();

        ImportResult migration = Importer.builder().build().migrate(provider, EnumSet.allOf(Scope.class), migrated);

        TransferFixture.assertTransferred(before, TransferFixture.export(migrated), migrated, migration);
        assertThat(TransferFixture.comparable(TransferFixture.export(provider), provider)).as("the source is unchanged")
                .isEqualTo(TransferFixture.comparable(before, provider));
    }

    @Test
    @RequiresCapability(Capability.TOMBSTONES)
    void a_deleted_keys_versions_are_exported_and_come_back_deleted() throws IOException {
        TransferFixture.fill(provider, clock);
        JsonNode retired = null;
        for (JsonNode entry : TransferFixture.export(provider).path("scopes").path("project")) {
            retired = entry.path("key").asText().equals("retired") ? entry : retired;
        }
        assertThat(retired).as("the deleted key 'retired' in the export").isNotNull();
        assertThat(retired.path("deleted").asBoolean()).isTrue();
        assertThat(retired.path("value").asText()).isEqualTo("A rule we followed once, amended.");
        assertThat(retired.path("history")).hasSize(1);
        Path file = write("export.json", TransferFixture.exportBytes(provider, TransferFormat.JSON));
        MemoryProvider target = freshStore();

        ImportResult result = Importer.builder().build().importFile(file, target);

        assertThat(result.deletedKeysKept()).isEqualTo(1);
        assertThat(result.relationTimesNotKept()).isEqualTo(restoresRelationTimes() ? 0 : result.relationsWritten());
        assertThat(result.lossless()).as("%s", result.losses()).isEqualTo(result.relationTimesNotKept() == 0);
        assertThat(target.get("retired", Scope.PROJECT)).isEmpty();
        assertThat(target.requireHistory().versions("retired", Scope.PROJECT)).extracting(MemoryEntry::value)
                .containsExactly("A rule we followed once.", "A rule we followed once, amended.");
        assertThat(target.set("retired", "back again", Scope.PROJECT).version()).isEqualTo(versionAfterDelete(2));
    }

    @Test
    void importing_the_same_file_again_changes_nothing() throws IOException {
        TransferFixture.fill(provider, clock);
        Path file = write("export.jsonl", TransferFixture.exportBytes(provider, TransferFormat.JSONL));
        MemoryProvider target = freshStore();
        ImportResult first = Importer.builder().build().importFile(file, target);
        JsonNode once = TransferFixture.comparable(TransferFixture.export(target), target);
        clock.advance(Duration.ofDays(1));

        ImportResult second = Importer.builder().build().importFile(file, target);

        assertThat(TransferFixture.comparable(TransferFixture.export(target), target)).isEqualTo(once);
        assertThat(second.unchanged()).isEqualTo(first.entries());
        assertThat(second.created() + second.overwritten()).isZero();
    }

    @Test
    void conflict_policies_overwrite_skip_and_keep_the_newer() throws IOException {
        provider.set("old-in-file", "from the file, older", Scope.PROJECT);
        clock.advance(Duration.ofHours(1));
        provider.set("new-in-file", "from the file, newer", Scope.PROJECT);
        Path file = write("export.json", TransferFixture.exportBytes(provider, TransferFormat.JSON));
        for (ConflictPolicy policy : ConflictPolicy.values()) {
            MemoryProvider target = freshStore();
            clock.rewind(Duration.ofMinutes(30));
            target.set("old-in-file", "in the target, newer than the file", Scope.PROJECT);
            clock.rewind(Duration.ofDays(2));
            target.set("new-in-file", "in the target, older than the file", Scope.PROJECT);
            clock.advance(Duration.ofDays(3));

            ImportResult result = Importer.builder().conflictPolicy(policy).build().importFile(file, target);

            String oldKey = target.get("old-in-file", Scope.PROJECT).orElseThrow().value();
            String newKey = target.get("new-in-file", Scope.PROJECT).orElseThrow().value();
            switch (policy) {
                case OVERWRITE -> {
                    assertThat(oldKey).isEqualTo("from the file, older");
                    assertThat(newKey).isEqualTo("from the file, newer");
                    assertThat(result.overwritten()).isEqualTo(2);
                }
                case SKIP -> {
                    assertThat(oldKey).isEqualTo("in the target, newer than the file");
                    assertThat(newKey).isEqualTo("in the target, older than the file");
                    assertThat(result.skipped()).isEqualTo(2);
                }
                case NEWER -> {
                    assertThat(oldKey).isEqualTo("in the target, newer than the file");
                    assertThat(newKey).isEqualTo("from the file, newer");
                    assertThat(result.skipped()).isEqualTo(1);
                    assertThat(result.overwritten()).isEqualTo(1);
                }
                default -> throw new AssertionError(policy);
            }
        }
    }

    @Test
    void a_truncated_file_imports_nothing_and_names_where_it_breaks() throws IOException {
        for (int i = 0; i < 6; i++) {
            put("note:" + i, "note number " + i + " with enough words to fill a few lines");
        }
        provider.set("shared", "a global note", Scope.GLOBAL);
        byte[] json = TransferFixture.exportBytes(provider, TransferFormat.JSON);
        Path file = write("export.json", Arrays.copyOf(json, json.length * 2 / 3));
        MemoryProvider target = freshStore();
        target.set("already", "here", Scope.PROJECT);
        List<MemoryEntry> before = target.query(dev.forge.memory.Query.builder().build());

        assertThatThrownBy(() -> Importer.builder().build().importFile(file, target))
                .isInstanceOf(TransferFileException.class)
                .hasMessageContaining("truncated").hasMessageContaining("line ").hasMessageContaining("Nothing was imported");

        assertThat(target.query(dev.forge.memory.Query.builder().build())).isEqualTo(before);
    }

    @Test
    void invalid_records_import_nothing_unless_skipped_and_then_each_is_reported() throws IOException {
        TransferFixture.fill(provider, clock);
        String[] lines = new String(TransferFixture.exportBytes(provider, TransferFormat.JSONL), java.nio.charset.StandardCharsets.UTF_8).split("\n");
        // Lines 3 and 6 hold bulk:00 and bulk:03, which no relation of the fixture names.
        lines[2] = lines[2].replace("\"scope\":\"project\"", "\"scope\":\"team\"");
        lines[5] = lines[5].substring(0, lines[5].length() / 2);
        Path file = write("broken.jsonl", (String.join("\n", lines) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        MemoryProvider target = freshStore();

        assertThatThrownBy(() -> Importer.builder().build().importFile(file, target))
                .isInstanceOf(TransferFileException.class).hasMessageContaining("line 3").hasMessageContaining("team");
        assertThat(target.query(dev.forge.memory.Query.builder().build())).isEmpty();

        ImportResult result = Importer.builder().skipInvalid(true).build().importFile(file, target);

        assertThat(result.invalidCount()).isEqualTo(2);
        assertThat(result.invalid()).extracting(p -> p.location()).containsExactly("line 3", "line 6");
        assertThat(result.invalid().get(1).message()).contains("truncated");
        JsonNode exported = TransferFixture.export(provider);
        int deleted = exported.get("scopes").findValues("key").size() - TransferFixture.liveEntries(exported);
        assertThat(result.entries()).isEqualTo(lines.length - 1 - 2 - exported.get("relations").size() - deleted);
    }

    @Test
    void versions_and_times_a_store_cannot_hold_are_refused_by_the_check_and_nothing_is_written() throws IOException {
        String valid = "{\"kind\":\"entry\",\"key\":\"%s\",\"value\":\"fine\",\"scope\":\"project\",\"tags\":[],"
                + "\"metadata\":{},\"created_at\":\"%s\",\"updated_at\":\"%s\",\"version\":%s}";
        String earliest = EntryRules.EARLIEST.toString();
        String latest = EntryRules.LATEST.toString();
        List<String> lines = List.of(
                "{\"format\":\"forge-memory\",\"version\":\"1.0\",\"exported_at\":\"2026-01-01T00:00:00.000Z\",\"project\":\"p\"}",
                String.format(valid, "ok:1", "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z", "1"),
                String.format(valid, "ok:at-the-bounds", earliest, latest, EntryRules.MAX_VERSION),
                String.format(valid, "bad:year-minus-999999999", "-999999999-01-01T00:00:00Z", "2026-01-01T00:00:00Z", "1"),
                String.format(valid, "bad:year-10000", "2026-01-01T00:00:00Z", "+10000-01-01T00:00:00Z", "1"),
                String.format(valid, "bad:just-before-year-1", EntryRules.EARLIEST.minusMillis(1).toString(), earliest, "1"),
                String.format(valid, "bad:long-max-version", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z", Long.MAX_VALUE),
                String.format(valid, "bad:version-2-to-the-53", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z",
                        EntryRules.MAX_VERSION + 1),
                String.format(valid, "bad:history", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z", "2 ,\"history\":[{"
                        + "\"value\":\"old\",\"created_at\":\"-999999999-01-01T00:00:00Z\",\"updated_at\":\"2026-01-01T00:00:00Z\","
                        + "\"version\":1}]"));
        Path file = write("out-of-range.jsonl", (String.join("\n", lines) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        MemoryProvider target = freshStore();
        target.set("already", "here", Scope.PROJECT);
        List<MemoryEntry> before = target.query(dev.forge.memory.Query.builder().build());

        assertThatThrownBy(() -> Importer.builder().build().importFile(file, target))
                .isInstanceOf(TransferFileException.class).hasMessageContaining("6 invalid record(s)")
                .hasMessageContaining("line 4").hasMessageContaining("Nothing was imported");

        assertThat(target.query(dev.forge.memory.Query.builder().build())).isEqualTo(before);

        ImportResult result = Importer.builder().skipInvalid(true).build().importFile(file, target);

        assertThat(result.invalid()).extracting(p -> p.location())
                .containsExactly("line 4", "line 5", "line 6", "line 7", "line 8", "line 9");
        assertThat(result.created()).isEqualTo(2);
        assertThat(target.query(dev.forge.memory.Query.builder().build())).extracting(MemoryEntry::key)
                .containsExactlyInAnyOrder("already", "ok:1", "ok:at-the-bounds");
        if (target.capabilities().contains(dev.forge.memory.Capability.RESTORE)) {
            MemoryEntry edge = target.get("ok:at-the-bounds", Scope.PROJECT).orElseThrow();
            assertThat(List.of(edge.createdAt(), edge.updatedAt(), edge.version()))
                    .containsExactly(EntryRules.EARLIEST, EntryRules.LATEST, EntryRules.MAX_VERSION);
        }
    }
}
