package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.forge.memory.Capability;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.EntryRules;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.transfer.Exporter;
import dev.forge.memory.transfer.ImportResult;
import dev.forge.memory.transfer.Importer;
import dev.forge.memory.transfer.TransferFormat;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Relations restored with their time ({@link MemoryGraph#restore}): the time given is what {@code relations} shows,
 * after a reopen too, an existing relation takes it, within a scope and across scopes, and an export imported into a
 * fresh store (or migrated) keeps every relation's {@code created_at}. A provider whose graph keeps the default
 * restore (the provider's own time) says so with {@link #restoresRelationTimes()}, and the contract is skipped with
 * that reason; its imports count {@code relation_times_not_kept}.
 */
@RequiresCapability(Capability.GRAPH)
public abstract class RelationTimeContract extends ContractSupport {

    private static final Instant THEN = Instant.parse("2021-03-04T05:06:07.008Z");
    private static final Instant LATER = Instant.parse("2022-05-06T07:08:09.010Z");

    /** Whether the provider's graph keeps the time a relation is restored with; see the class comment. */
    protected boolean restoresRelationTimes() {
        return true;
    }

    @BeforeEach
    final void requireRestoredTimes() {
        assumeTrue(restoresRelationTimes(), "provider '" + provider.name() + "' does not keep restored relation times"
                + " (restoresRelationTimes() is false)");
    }

    private MemoryGraph graph() {
        return provider.requireGraph();
    }

    private EntryRef entry(String key, Scope scope) {
        return provider.set(key, "about " + key, scope).ref();
    }

    @Test
    void a_restored_relation_has_the_time_given_and_keeps_it_after_a_reopen() {
        EntryRef a = entry("a", Scope.PROJECT);
        EntryRef b = entry("b", Scope.PROJECT);
        Relation wanted = new Relation(a, "DEPENDS_ON", b, THEN);

        assertThat(graph().restore(wanted)).isEqualTo(wanted);

        assertThat(graph().relations(a, Direction.OUTGOING)).containsExactly(wanted);
        reopen();
        assertThat(graph().relations(a, Direction.OUTGOING)).containsExactly(wanted);
        assertThat(graph().relations(b, Direction.INCOMING)).containsExactly(wanted);
    }

    @Test
    void an_existing_relation_takes_the_restored_time_a_second_restore_changes_nothing_and_relate_keeps_it() {
        EntryRef a = entry("a", Scope.PROJECT);
        EntryRef b = entry("b", Scope.PROJECT);
        Relation made = graph().relate(a, b, "CITES");
        Relation wanted = new Relation(a, "CITES", b, LATER);
        assertThat(made.createdAt()).isNotEqualTo(LATER);

        assertThat(graph().restore(wanted)).isEqualTo(wanted);
        assertThat(graph().restore(wanted)).isEqualTo(wanted);
        assertThat(graph().relate(a, b, "CITES")).isEqualTo(wanted);

        assertThat(graph().relations(a, Direction.BOTH)).containsExactly(wanted);
    }

    @Test
    void relations_across_scopes_keep_their_restored_times() {
        EntryRef project = entry("p", Scope.PROJECT);
        EntryRef global = entry("g", Scope.GLOBAL);
        EntryRef session = entry("s", Scope.SESSION);
        List<Relation> wanted = List.of(new Relation(project, "USES", global, THEN),
                new Relation(global, "BACK", session, LATER), new Relation(session, "SELF", session, THEN));

        wanted.forEach(relation -> assertThat(graph().restore(relation)).isEqualTo(relation));

        assertThat(graph().relations(project, Direction.OUTGOING)).containsExactly(wanted.get(0));
        assertThat(graph().relations(global, Direction.OUTGOING)).containsExactly(wanted.get(1));
        assertThat(graph().relations(session, Direction.OUTGOING)).containsExactly(wanted.get(2));
        reopen();
        assertThat(graph().relations(global, Direction.BOTH)).containsExactlyInAnyOrder(wanted.get(0), wanted.get(1));
    }

    @Test
    void restore_refuses_a_missing_end_a_bad_type_or_a_time_out_of_range_and_writes_nothing() {
        EntryRef a = entry("a", Scope.PROJECT);
        EntryRef missing = EntryRef.of("missing", Scope.PROJECT);

        assertThatThrownBy(() -> graph().restore(new Relation(a, "X", missing, THEN)))
                .isInstanceOf(EntryNotFoundException.class);
        assertThatThrownBy(() -> graph().restore(new Relation(a, "no spaces", a, THEN)))
                .isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> graph().restore(new Relation(a, "X", a, EntryRules.LATEST.plus(1, ChronoUnit.DAYS))))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("correct the time");
        assertThat(graph().relations(a, Direction.BOTH)).isEmpty();
    }

    @Test
    @RequiresCapability(Capability.RESTORE)
    void an_export_imported_or_migrated_into_a_fresh_store_keeps_every_relation_time() throws IOException {
        EntryRef a = entry("a", Scope.PROJECT);
        EntryRef b = entry("b", Scope.GLOBAL);
        List<Relation> wanted = List.of(new Relation(a, "USES", b, THEN), new Relation(b, "BACK", a, LATER));
        wanted.forEach(graph()::restore);
        Path file = workDirectory().resolve("export.jsonl");
        Exporter.builder().format(TransferFormat.JSONL).build().exportFile(provider, file);

        MemoryProvider imported = freshStore("imported");
        ImportResult byFile = Importer.builder().build().importFile(file, imported);
        MemoryProvider migrated = freshStore("migrated");
        ImportResult byMigration = Importer.builder().build().migrate(provider, EnumSet.allOf(Scope.class), migrated);

        for (ImportResult result : List.of(byFile, byMigration)) {
            assertThat(result.relationsWritten()).isEqualTo(2);
            assertThat(result.relationTimesNotKept()).isZero();
            assertThat(result.lossless()).as("%s", result.losses()).isTrue();
        }
        for (MemoryProvider target : List.of(imported, migrated)) {
            assertThat(target.requireGraph().relations(a, Direction.BOTH)).containsExactlyInAnyOrderElementsOf(wanted);
        }
    }
}
