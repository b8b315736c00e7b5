package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.Capability;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.transfer.Exporter;
import dev.forge.memory.transfer.ImportResult;
import dev.forge.memory.transfer.TransferFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The transfer contract's data and its yardstick, shared by {@link TransferContract} (a provider into a fresh store of
 * its own kind) and pairwise tests across providers (every provider into every other): {@link #fill} writes a store
 * that uses every field of the format, {@link #export} writes it as one JSON document, and
 * {@link #assertTransferred} checks that the target's export is the source's, modulo exactly what the target says it
 * cannot hold, and that the import report counts each such loss.
 */
public final class TransferFixture {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private TransferFixture() {
    }

    /**
     * Writes the fixture through {@code provider}'s public API, moving {@code clock} between writes: entries in all three
     * scopes, overwritten keys (history), a deleted and rewritten key, a deleted key with two versions (exported with
     * them where the provider keeps {@link Capability#TOMBSTONES}), tags, nested metadata of every JSON type,
     * awkward keys and values, and (with a graph) relations within and across scopes.
     */
    public static void fill(MemoryProvider provider, TestClock clock) {
        clock.advance(Duration.ofDays(3));
        provider.set("decision:database", "Use SQLite for the local store.", Scope.PROJECT, List.of("decision", "storage"),
                Map.of("author", "ana", "confidence", 0.75, "votes", 3, "final", false,
                        "alternatives", List.of("h2", Map.of("name", "postgres", "why-not", "needs a server"))));
        clock.advance(Duration.ofHours(5));
        provider.set("decision:database", "Use SQLite for the local store; WAL mode on.", Scope.PROJECT,
                List.of("decision", "storage"), Map.of("author", "ana", "confidence", 0.9, "votes", 4, "final", true));
        clock.advance(Duration.ofMinutes(7));
        provider.set("decision:database", "# Database\n\nSQLite, WAL mode, `busy_timeout` 5 s.\n\n---\n\nSee ADR 7.",
                Scope.PROJECT, List.of("decision", "storage", "adr"), Map.of("author", "bo", "final", true));
        clock.advance(Duration.ofSeconds(11));
        provider.set("notes/ünïcödé 🚀 key", "Grüße, 世界 — emoji 🚀 and a tab\there.", Scope.PROJECT, List.of("i18n"), Map.of());
        provider.set("empty value", "", Scope.PROJECT);
        provider.set("recreated", "first life", Scope.PROJECT, List.of("old"), Map.of());
        clock.advance(Duration.ofMinutes(1));
        provider.delete("recreated", Scope.PROJECT);
        clock.advance(Duration.ofMinutes(1));
        provider.set("recreated", "second life", Scope.PROJECT, List.of("new"), Map.of("life", 2));
        provider.set("retired", "A rule we followed once.", Scope.PROJECT, List.of("rule"), Map.of("owner", "ana"));
        clock.advance(Duration.ofMinutes(1));
        provider.set("retired", "A rule we followed once, amended.", Scope.PROJECT, List.of("rule"), Map.of("owner", "bo"));
        clock.advance(Duration.ofMinutes(1));
        provider.delete("retired", Scope.PROJECT);
        if (provider.capabilities().contains(Capability.TOMBSTONES)) {
            assertThat(provider.requireHistory().deletedKeys(Scope.PROJECT)).as("deleted keys of '%s'", provider.name())
                    .contains("retired").doesNotContain("recreated", "empty value");
        }
        provider.set("session:task", "Refactoring the importer.", Scope.SESSION, List.of("wip"), Map.of("step", 1));
        clock.advance(Duration.ofMillis(1234));
        provider.set("session:task", "Refactoring the importer, step two.", Scope.SESSION, List.of("wip"), Map.of("step", 2));
        provider.set("preference:style", "Short answers, British spelling.", Scope.GLOBAL, List.of("preference"),
                Map.of("source", "user", "nested", Map.of("deeper", Map.of("list", List.of(1, 2.5, "three", true)))));
        for (int i = 0; i < 12; i++) {
            provider.set(String.format("bulk:%02d", i), "Bulk memory number " + i + " about topic " + (i % 3) + ".",
                    Scope.PROJECT, List.of("bulk", "topic-" + (i % 3)), Map.of("i", i));
        }
        if (provider.capabilities().contains(Capability.GRAPH)) {
            EntryRef decision = new EntryRef("decision:database", Scope.PROJECT);
            provider.requireGraph().relate(decision, new EntryRef("notes/ünïcödé 🚀 key", Scope.PROJECT), "DOCUMENTED_IN");
            provider.requireGraph().relate(decision, new EntryRef("preference:style", Scope.GLOBAL), "FOLLOWS");
            provider.requireGraph().relate(new EntryRef("session:task", Scope.SESSION), decision, "CHANGES");
            provider.requireGraph().relate(decision, decision, "SELF");
            provider.requireGraph().relate(new EntryRef("bulk:01", Scope.PROJECT), new EntryRef("bulk:02", Scope.PROJECT), "NEXT");
        }
    }

    /** {@code provider} exported as one JSON document, parsed. */
    public static JsonNode export(MemoryProvider provider) {
        return export(provider, TransferFormat.JSON);
    }

    /** {@code provider} exported in {@code format}, as bytes. */
    public static byte[] exportBytes(MemoryProvider provider, TransferFormat format) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Exporter.builder().format(format).project("project-a").build().export(provider, out);
        return out.toByteArray();
    }

    /** {@code provider} exported in {@code format}, parsed: a JSON document, or a JSON Lines stream as an array of its lines. */
    public static JsonNode export(MemoryProvider provider, TransferFormat format) {
        byte[] bytes = exportBytes(provider, format);
        try {
            if (format == TransferFormat.JSON) {
                return MAPPER.readTree(bytes);
            }
            ArrayNode lines = MAPPER.createArrayNode();
            for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
                lines.add(MAPPER.readTree(line));
            }
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Asserts that {@code after} (the target's export) is {@code before} (the source's) without {@code exported_at} and
     * relation times, and without exactly what {@code target} cannot hold: earlier versions without
     * {@link Capability#HISTORY}, relations without {@link Capability#GRAPH}, versions and timestamps without
     * {@link Capability#RESTORE}, deleted keys' versions without {@link Capability#TOMBSTONES} (and history and
     * restore); and that {@code result} counts those losses.
     */
    public static void assertTransferred(JsonNode before, JsonNode after, MemoryProvider target, ImportResult result) {
        JsonNode expected = comparable(before, target);
        JsonNode actual = comparable(after, target);
        assertThat(actual.toPrettyString()).as("export of '%s' after the import", target.name()).isEqualTo(expected.toPrettyString());
        long history = 0;
        long entries = 0;
        long deleted = 0;
        for (JsonNode list : before.get("scopes")) {
            for (JsonNode entry : list) {
                if (entry.path("deleted").asBoolean()) {
                    deleted++;
                    continue;
                }
                entries++;
                history += entry.get("history").size();
            }
        }
        long relations = before.get("relations").size();
        boolean hasHistory = target.capabilities().contains(Capability.HISTORY);
        boolean restores = target.capabilities().contains(Capability.RESTORE);
        assertThat(result.historyVersionsDropped()).as("earlier versions reported dropped").isEqualTo(hasHistory && restores ? 0 : history);
        assertThat(result.historyVersionsWritten()).as("earlier versions reported written").isEqualTo(hasHistory && restores ? history : 0);
        assertThat(result.relationsDropped()).as("relations reported dropped")
                .isEqualTo(target.capabilities().contains(Capability.GRAPH) ? 0 : relations);
        assertThat(result.timestampsNotKept()).as("entries reported without their timestamps").isEqualTo(restores ? 0 : entries);
        assertThat(result.deletedKeysDropped()).as("deleted keys reported not kept").isEqualTo(keepsDeletions(target) ? 0 : deleted);
        assertThat(result.deletedKeysKept()).as("deleted keys reported kept").isEqualTo(keepsDeletions(target) ? deleted : 0);
        assertThat(result.invalidCount()).isZero();
        assertThat(result.lossless()).isEqualTo(result.losses().isEmpty());
    }

    /** Whether {@code target} holds a deleted key's versions as the source did. */
    private static boolean keepsDeletions(MemoryProvider target) {
        return target.capabilities().containsAll(List.of(Capability.TOMBSTONES, Capability.HISTORY, Capability.RESTORE));
    }

    /** How many entries of {@code document} are live keys (not the versions of a deleted key). */
    public static int liveEntries(JsonNode document) {
        int live = 0;
        for (JsonNode list : document.get("scopes")) {
            for (JsonNode entry : list) {
                live += entry.path("deleted").asBoolean() ? 0 : 1;
            }
        }
        return live;
    }

    /** {@code document} without what may differ after a transfer into {@code target}. */
    public static JsonNode comparable(JsonNode document, MemoryProvider target) {
        ObjectNode copy = document.deepCopy();
        copy.remove("exported_at");
        boolean hasHistory = target.capabilities().contains(Capability.HISTORY);
        boolean restores = target.capabilities().contains(Capability.RESTORE);
        for (Iterator<JsonNode> lists = copy.get("scopes").elements(); lists.hasNext(); ) {
            JsonNode list = lists.next();
            if (!keepsDeletions(target)) {
                ArrayNode array = (ArrayNode) list;
                for (int i = array.size() - 1; i >= 0; i--) {
                    if (array.get(i).path("deleted").asBoolean()) {
                        array.remove(i);
                    }
                }
            }
            for (JsonNode entry : list) {
                ObjectNode fields = (ObjectNode) entry;
                if (!hasHistory || !restores) {
                    fields.putArray("history");
                }
                if (!restores) {
                    fields.remove(List.of("created_at", "updated_at", "version"));
                }
            }
        }
        ArrayNode relations = (ArrayNode) copy.get("relations");
        if (!target.capabilities().contains(Capability.GRAPH)) {
            relations.removeAll();
        }
        relations.forEach(r -> ((ObjectNode) r).remove("created_at"));
        return copy;
    }
}
