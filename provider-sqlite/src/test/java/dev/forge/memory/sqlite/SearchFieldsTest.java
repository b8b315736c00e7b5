package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.sqlite.internal.Migrations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code search_fields} on sqlite: the keyword index holds the metadata fields it names, follows a change of the
 * setting when the provider opens, leaves key and tags out when they are not named, and a store of schema version 4
 * keeps working.
 */
class SearchFieldsTest {

    private static final Map<String, Object> WITH_TOPIC = Map.of("search_fields", List.of("key", "tags", "metadata.topic"));

    @TempDir
    Path directory;

    private static List<String> keys(SqliteMemoryProvider provider, String text) {
        return provider.search(SearchRequest.keyword(text)).stream().map(h -> h.entry().key()).toList();
    }

    @Test
    void a_changed_setting_reindexes_the_metadata_text_when_the_provider_opens() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("note:db", "Replicas in two zones.", Scope.PROJECT, List.of("ops"), Map.of("topic", "databases"));
            provider.set("note:ui", "Dark theme.", Scope.GLOBAL, List.of(), Map.of("topic", "interface"));
            assertThat(keys(provider, "databases")).isEmpty();
        }
        try (SqliteMemoryProvider provider = Stores.open(directory, WITH_TOPIC)) {
            assertThat(keys(provider, "databases")).containsExactly("note:db");
            assertThat(keys(provider, "interfaces")).containsExactly("note:ui");
            provider.set("note:ci", "Builds run nightly.", Scope.PROJECT, List.of(), Map.of("topic", "pipelines"));
            assertThat(keys(provider, "pipeline")).containsExactly("note:ci");
            assertThat(provider.doctor()).isEmpty();
        }
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            assertThat(keys(provider, "databases pipelines interface")).isEmpty();
            assertThat(keys(provider, "replicas")).containsExactly("note:db");
        }
    }

    @Test
    void key_and_tags_left_out_of_the_setting_are_not_searched() {
        try (SqliteMemoryProvider provider = Stores.open(directory, Map.of("search_fields", List.of("metadata.topic")))) {
            provider.set("walrus", "Lives in the harbour.", Scope.PROJECT, List.of("tusk"), Map.of("topic", "animals"));
            assertThat(keys(provider, "walrus")).isEmpty();
            assertThat(keys(provider, "tusk")).isEmpty();
            assertThat(keys(provider, "harbour animals")).containsExactly("walrus");
        }
        try (SqliteMemoryProvider provider = Stores.open(directory, Map.of("search_fields", List.of("tags")))) {
            assertThat(keys(provider, "tusk")).containsExactly("walrus");
            assertThat(keys(provider, "walrus animals")).isEmpty();
        }
    }

    @Test
    void a_store_of_schema_version_4_is_searched_as_before_and_then_with_its_metadata() throws Exception {
        Path file = Stores.databaseFile(directory);
        Files.createDirectories(file.getParent());
        long at = Instant.parse("2026-11-01T10:00:00Z").toEpochMilli();
        try (Connection connection = Stores.jdbc(file); Statement statement = connection.createStatement()) {
            Migrations.migrate(connection, file, 4);
            statement.execute("INSERT INTO entries (id, project, session, scope, key, value, tags, metadata, created_at,"
                    + " updated_at, version) VALUES (1, 'project-a', '', 'project', 'release', 'We deployed billing.',"
                    + " '[\"ops\"]', '{\"topic\": \"payments\"}', " + at + ", " + at + ", 1)");
        }
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            assertThat(keys(provider, "deploying ops release")).containsExactly("release");
            assertThat(keys(provider, "payments")).isEmpty();
        }
        try (SqliteMemoryProvider provider = Stores.open(directory, WITH_TOPIC)) {
            assertThat(keys(provider, "payment")).containsExactly("release");
            assertThat(provider.doctor()).isEmpty();
        }
    }

    @Test
    void an_unknown_item_is_refused_naming_the_setting() {
        assertThatThrownBy(() -> Stores.open(directory, Map.of("search_fields", List.of("key", "title"))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("search_fields")
                .hasMessageContaining("'title'")
                .hasMessageContaining("metadata.<name>");
    }
}
