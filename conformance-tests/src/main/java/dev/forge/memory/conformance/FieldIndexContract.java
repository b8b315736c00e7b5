package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Capability;
import dev.forge.memory.FieldIndexing;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Field indexes ({@link Capability#FIELD_INDEX}, seed 004's {@code index(field)}): indexing {@code key}, {@code tags}
 * or {@code metadata.<name>} changes no query result and nothing stored, twice as once, also after a reopen; any
 * other field is refused with {@link InvalidRequestException}, changing nothing.
 */
@RequiresCapability(Capability.FIELD_INDEX)
public abstract class FieldIndexContract extends ContractSupport {

    /** Entries of every scope whose metadata field {@code lang} takes several JSON types, or is missing. */
    private void seedEntries() {
        put("a", "first", List.of("x"), Map.of("lang", "java", "n", 1));
        put("b", "second", List.of("x", "y"), Map.of("lang", "go", "n", 1.0));
        put("c", "third", List.of(), Map.of("lang", List.of("java"), "n", "1"));
        put("d", "fourth", List.of("y"), Map.of("lang", true));
        put("e", "fifth", List.of(), Map.of());
        provider.set("a", "global", Scope.GLOBAL, List.of("x"), Map.of("lang", "java"));
        provider.set("s", "session", Scope.SESSION, List.of(), Map.of("lang", "java"));
    }

    /** The queries an index may serve: equality on metadata of each type, tags, patterns, with order and limit. */
    private List<List<MemoryEntry>> answers() {
        List<Query> queries = List.of(
                Query.builder().build(),
                Query.builder().scopes(Scope.PROJECT, Scope.GLOBAL, Scope.SESSION).metadata("lang", "java").build(),
                Query.builder().metadata("lang", "go").build(),
                Query.builder().metadata("lang", true).build(),
                Query.builder().metadata("lang", List.of("java")).build(),
                Query.builder().metadata("n", 1).build(),
                Query.builder().metadata("n", "1").build(),
                Query.builder().metadata("missing", "x").build(),
                Query.builder().tags(List.of("x")).metadata("lang", "java").build(),
                Query.builder().tags(List.of("y")).order(Query.Order.KEY_DESC).build(),
                Query.builder().pattern("*").metadata("lang", "java").order(Query.Order.UPDATED_DESC).limit(1).build());
        List<List<MemoryEntry>> answers = new ArrayList<>();
        for (Query query : queries) {
            answers.add(provider.query(query));
        }
        return answers;
    }

    private FieldIndexing indexing() {
        return provider.requireFieldIndexing();
    }

    @Test
    void indexing_key_tags_and_metadata_fields_keeps_every_query_result_identical() {
        seedEntries();
        List<List<MemoryEntry>> before = answers();
        List<MemoryEntry> stored = everything();

        for (String field : List.of("key", "tags", "metadata.lang", "metadata.n", "metadata.missing", "metadata.owner.team")) {
            indexing().index(field);
        }

        assertThat(answers()).as("query results after indexing on provider '%s'", provider.name()).isEqualTo(before);
        assertUnchanged(stored);
        put("f", "sixth", List.of("x"), Map.of("lang", "java"));
        assertThat(provider.query(Query.builder().scopes(Scope.PROJECT).metadata("lang", "java").build())).extracting(MemoryEntry::key)
                .containsExactly("a", "f");
    }

    @Test
    void indexing_twice_or_again_after_reopen_changes_nothing() {
        seedEntries();
        List<List<MemoryEntry>> before = answers();
        indexing().index("metadata.lang");
        indexing().index("metadata.lang");
        assertThat(answers()).isEqualTo(before);

        provider = reopen();
        indexing().index("metadata.lang");
        assertThat(answers()).isEqualTo(before);
    }

    @Test
    void a_field_that_is_not_key_tags_or_metadata_dot_name_is_refused_and_changes_nothing() {
        seedEntries();
        List<MemoryEntry> stored = everything();
        for (String bad : List.of("", "lang", "value", "scope", "metadata", "metadata.", "Key", "tags.x")) {
            assertThatThrownBy(() -> indexing().index(bad))
                    .as("index(\"%s\") on provider '%s'", bad, provider.name())
                    .isInstanceOf(InvalidRequestException.class).hasMessageContaining("metadata.");
        }
        assertUnchanged(stored);
    }

    @Test
    void indexing_after_close_is_refused_as_unavailable() {
        FieldIndexing facet = indexing();
        provider.close();
        assertThatThrownBy(() -> facet.index("metadata.lang")).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> facet.index("key")).isInstanceOf(BackendUnavailableException.class);
    }
}
