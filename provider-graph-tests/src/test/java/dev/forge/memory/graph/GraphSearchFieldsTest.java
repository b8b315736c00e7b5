package dev.forge.memory.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;

import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;

/**
 * {@code search_fields} on a store that already holds entries: opened with other fields, the provider rebuilds the
 * indexed text of every live entry before it serves searches, and entries whose text an older version wrote (none, or
 * without the fields recorded) get theirs the same way. Nothing else of an entry changes.
 */
class GraphSearchFieldsTest {

    @TempDir
    Path directory;

    private final String project = "fields-" + UUID.randomUUID();
    private final String topic = "w" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private Driver driver;

    @BeforeEach
    void driver() {
        driver = GraphTestStores.driver();
    }

    @AfterEach
    void close() {
        driver.close();
    }

    private MemoryProvider open(List<String> fields) {
        return GraphTestStores.open(directory, project, fields == null ? Map.of() : Map.of("search_fields", fields));
    }

    private static List<String> keys(List<Hit> hits) {
        return hits.stream().map(h -> h.entry().key()).toList();
    }

    @Test
    void reopening_with_other_fields_rebuilds_the_text_of_existing_entries() {
        MemoryEntry stored;
        try (MemoryProvider plain = open(null)) {
            stored = plain.set("airships", "Rigid frames.", Scope.PROJECT, List.of("history"), Map.of("topic", topic));
            plain.set("boats", "Hulls.", Scope.PROJECT, List.of(), Map.of("topic", "ships"));
            assertThat(plain.search(SearchRequest.keyword(topic))).isEmpty();
        }
        try (MemoryProvider withTopic = open(List.of("tags", "metadata.topic"))) {
            assertThat(keys(withTopic.search(SearchRequest.keyword(topic)))).containsExactly("airships");
            assertThat(keys(withTopic.search(SearchRequest.keyword("history")))).containsExactly("airships");
            assertThat(withTopic.search(SearchRequest.keyword("airships"))).as("the key is no longer indexed").isEmpty();
            assertThat(withTopic.get("airships", Scope.PROJECT)).contains(stored);
            assertThat(withTopic.requireHistory().versions("airships", Scope.PROJECT)).containsExactly(stored);
        }
        try (MemoryProvider back = open(null)) {
            assertThat(back.search(SearchRequest.keyword(topic))).isEmpty();
            assertThat(keys(back.search(SearchRequest.keyword("airships")))).containsExactly("airships");
        }
    }

    @Test
    void entries_without_the_indexed_text_get_it_when_a_provider_opens() {
        try (MemoryProvider first = open(List.of("key", "tags", "metadata.topic"))) {
            first.set("airships", "Rigid frames.", Scope.PROJECT, List.of(), Map.of("topic", topic));
        }
        try (Session session = driver.session()) {
            // as an earlier version of the provider left it: no search text, no fields recorded
            session.run("MATCH (m:Memory {project: $project, key: 'airships'}) REMOVE m.searchText, m.searchFields",
                    Map.of("project", project)).consume();
        }
        try (MemoryProvider again = open(List.of("key", "tags", "metadata.topic"))) {
            assertThat(keys(again.search(SearchRequest.keyword(topic)))).containsExactly("airships");
        }
    }

    @Test
    void writes_in_a_transaction_and_restores_index_the_configured_fields() {
        try (MemoryProvider p = open(List.of("key", "metadata.topic"))) {
            p.requireTransactions().inTransaction(tx -> tx.set("in-tx", "v", Scope.PROJECT, List.of(), Map.of("topic", topic)));
            MemoryEntry restored = new MemoryEntry("restored", "v", Scope.PROJECT, List.of(), Map.of("topic", topic),
                    java.time.Instant.parse("2024-01-01T00:00:00Z"), java.time.Instant.parse("2024-01-01T00:00:00Z"), 3);
            p.requireRestoring().restore(List.of(restored));
            assertThat(keys(p.search(SearchRequest.keyword(topic)))).containsExactlyInAnyOrder("in-tx", "restored");
        }
    }
}
