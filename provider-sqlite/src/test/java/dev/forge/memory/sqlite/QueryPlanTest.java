package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.Traversal;
import dev.forge.memory.sqlite.internal.Statements;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code EXPLAIN QUERY PLAN} of the statements the provider runs for the common query forms: each looks rows up by an
 * index and none reads a whole table of entries, tags, versions or edges.
 */
class QueryPlanTest {

    /** A plan step reading a whole table (or a whole index of it) of ours, by name or by the aliases the SQL uses. */
    private static final Pattern FULL_SCAN = Pattern.compile("^SCAN (e|t|f|o|x|ed|entries|tags|versions|edges)\\b.*");

    @TempDir
    Path directory;

    private SqliteMemoryProvider provider;
    private Connection connection;

    @BeforeEach
    void seed() throws SQLException {
        provider = Stores.open(directory);
        for (int i = 0; i < 50; i++) {
            provider.set("note:" + i, "text " + i, Scope.PROJECT, List.of("t" + i % 5), Map.of("lang", i % 2 == 0 ? "java" : "go"));
        }
        provider.requireGraph().relate(EntryRef.of("note:1", Scope.PROJECT), EntryRef.of("note:2", Scope.PROJECT), "LINKS");
        provider.requireFieldIndexing().index("metadata.lang");
        connection = Stores.jdbc(provider.databaseFile());
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
        provider.close();
    }

    private List<String> plan(String sql, List<Object> parameters) throws SQLException {
        List<String> steps = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement("EXPLAIN QUERY PLAN " + sql)) {
            for (int i = 0; i < parameters.size(); i++) {
                statement.setObject(i + 1, parameters.get(i));
            }
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    steps.add(rows.getString("detail"));
                }
            }
        }
        return steps;
    }

    private List<String> plan(Query query) throws SQLException {
        Statements.QuerySql sql = Statements.query(query, Stores.PROJECT, Stores.SESSION);
        return plan(sql.sql(), sql.parameters());
    }

    private static void assertNoFullScan(List<String> plan) {
        assertThat(plan).as("plan %s", plan).noneMatch(step -> FULL_SCAN.matcher(step).matches());
    }

    @Test
    void exact_key_uses_the_unique_key_index() throws SQLException {
        List<String> plan = plan(Query.of("note:7", Scope.PROJECT));
        assertNoFullScan(plan);
        assertThat(plan).anyMatch(step -> step.contains("USING INDEX entries_by_key (project=? AND session=? AND scope=? AND key=?)"));
    }

    @Test
    void key_prefix_is_a_range_of_the_key_index() throws SQLException {
        List<String> plan = plan(Query.of("note:*", Scope.PROJECT));
        assertNoFullScan(plan);
        assertThat(plan).anyMatch(step -> step.contains("USING INDEX entries_by_key (project=? AND session=? AND scope=? AND key>? AND key<?)"));
    }

    @Test
    void tag_pattern_starts_from_the_tag_index() throws SQLException {
        List<String> plan = plan(Query.of("tag:t3"));
        assertNoFullScan(plan);
        assertThat(plan).anyMatch(step -> step.startsWith("SEARCH t USING PRIMARY KEY (tag=?)"));
        assertThat(plan).anyMatch(step -> step.startsWith("SEARCH e USING INTEGER PRIMARY KEY (rowid=?)"));
    }

    @Test
    void tag_filter_starts_from_the_tag_index() throws SQLException {
        List<String> plan = plan(Query.builder().pattern("*:7").tag("t2").tag("t3").build());
        assertNoFullScan(plan);
        assertThat(plan).anyMatch(step -> step.startsWith("SEARCH t USING PRIMARY KEY (tag=?)"));
        assertThat(plan).anyMatch(step -> step.startsWith("SEARCH x EXISTS USING COVERING INDEX"));
    }

    @Test
    void metadata_equality_uses_the_index_made_by_index_field() throws SQLException {
        List<String> plan = plan(Query.builder().metadata("lang", "java").scopes(Scope.PROJECT).build());
        assertNoFullScan(plan);
        assertThat(plan).anyMatch(step -> step.contains("USING INDEX " + Statements.metadataIndexName("lang")
                + " (project=? AND session=? AND scope=? AND <expr>=?)"));
        // and in a search, after the full-text lookup
        Statements.Bound search = Statements.search(SearchRequest.builder("text").metadata("lang", "java").build(),
                Statements.match(List.of("text")), List.of(Statements.match(List.of("text"))), Stores.PROJECT, Stores.SESSION, true);
        List<String> searchPlan = plan(search.sql(), search.parameters());
        assertNoFullScan(searchPlan);
        assertThat(searchPlan).anyMatch(step -> step.startsWith("SCAN entries_fts VIRTUAL TABLE"));
    }

    @Test
    void a_page_in_key_order_reads_the_key_index_in_order() throws SQLException {
        Statements.QuerySql sql = Statements.query(Query.builder().scopes(Scope.PROJECT).limit(10).offset(20).build(),
                Stores.PROJECT, Stores.SESSION);
        assertThat(sql.paged()).isTrue();
        List<String> plan = plan(sql.sql(), sql.parameters());
        assertNoFullScan(plan);
        assertThat(plan).noneMatch(step -> step.contains("TEMP B-TREE"));
    }

    @Test
    void update_time_bounds_use_the_update_index() throws SQLException {
        List<String> plan = plan(Query.builder().updatedAfter(Instant.EPOCH).scopes(Scope.PROJECT).build());
        assertNoFullScan(plan);
        assertThat(plan).anyMatch(step -> step.contains("USING INDEX entries_by_update (project=? AND session=? AND scope=? AND updated_at>?)"));
    }

    @Test
    void every_scope_reads_only_its_own_namespace() throws SQLException {
        List<String> plan = plan(Query.of("*"));
        assertNoFullScan(plan);
        assertThat(plan.stream().filter(step -> step.contains("(project=? AND session=? AND scope=?)"))).hasSize(3);
    }

    @Test
    void relations_use_the_edge_indexes_both_ways() throws SQLException {
        List<String> outgoing = plan(Statements.RELATIONS_OUTGOING, List.of(1L, Stores.PROJECT, Stores.SESSION));
        assertNoFullScan(outgoing);
        assertThat(outgoing).anyMatch(step -> step.startsWith("SEARCH ed USING PRIMARY KEY (from_entry=?)"));
        List<String> incoming = plan(Statements.RELATIONS_INCOMING, List.of(1L, Stores.PROJECT, Stores.SESSION));
        assertNoFullScan(incoming);
        assertThat(incoming).anyMatch(step -> step.contains("USING COVERING INDEX edges_incoming (to_entry=?)")
                || step.contains("USING INDEX edges_incoming (to_entry=?)"));
        Statements.Bound traverse = Statements.traverse(1L, new Traversal(java.util.Set.of("LINKS"), Direction.BOTH, 4),
                Stores.PROJECT, Stores.SESSION);
        assertNoFullScan(plan(traverse.sql(), traverse.parameters()));
    }

    @Test
    void history_of_a_key_uses_the_version_index() throws SQLException {
        List<String> plan = plan(Statements.VERSIONS, List.of(Stores.PROJECT, "", "project", "note:3"));
        assertNoFullScan(plan);
        assertThat(plan).anyMatch(step -> step.contains("USING INDEX versions_by_key (project=? AND session=? AND scope=? AND key=?)"));
    }

    @Test
    void a_restore_finds_the_rows_of_its_key_by_index_so_a_bulk_import_does_not_slow_down_as_the_file_grows() throws SQLException {
        List<Object> key = List.of(Stores.PROJECT, "", "project", "note:3");
        List<String> current = plan(Statements.CURRENT, List.of(Stores.PROJECT, "", "project", "note:3",
                Stores.PROJECT, "", "project", "note:3"));
        assertNoFullScan(current);
        assertThat(current).anyMatch(step -> step.contains("USING INDEX entries_by_key (project=? AND session=? AND scope=? AND key=?)"));
        assertThat(current).anyMatch(step -> step.contains("versions_by_key (project=? AND session=? AND scope=? AND key=?)"));
        List<String> deleteVersions = plan(Statements.DELETE_KEY_VERSIONS, key);
        assertNoFullScan(deleteVersions);
        assertThat(deleteVersions).anyMatch(step -> step.contains("USING INDEX versions_by_key (project=? AND session=? AND scope=? AND key=?)"));
    }

    @Test
    void relations_across_the_two_files_are_found_by_index() throws SQLException {
        List<String> halves = plan(Statements.LINKS_OF, List.of(1L, Stores.PROJECT, Stores.SESSION));
        assertNoFullScan(halves);
        assertThat(halves).anyMatch(step -> step.contains("links") && step.contains("entry_id=?"));
        List<String> naming = plan(Statements.DELETE_LINKS_TO_KEY, List.of(Stores.PROJECT, "", "project", "note:3"));
        assertThat(naming).noneMatch(step -> step.startsWith("SCAN links"));
        assertThat(naming).anyMatch(step -> step.contains("links_by_other"));
    }
}
