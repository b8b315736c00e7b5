package dev.forge.memory.knowledge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.Capability;
import dev.forge.memory.ConflictException;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.Hit;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.forge.memory.ValueTooLargeException;
import dev.forge.memory.testing.Stores;
import dev.forge.memory.transfer.McpMemoryFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The official MCP memory server's tools on a provider, with its semantics where this class keeps them and its typed
 * errors where it differs. The same calls against the official server itself, on sqlite and markdown, are replayed by
 * {@code dev.forge.memory.cli.OfficialMemoryFileTest} in memory-cli.
 */
class KnowledgeGraphTest {

    private final MemoryProvider provider = Stores.inMemory(new Stores.Ticking());
    private final KnowledgeGraph graph = new KnowledgeGraph(provider);

    @AfterEach
    void close() {
        provider.close();
    }

    private static Entity entity(String name, String type, String... observations) {
        return new Entity(name, type, List.of(observations));
    }

    @Test
    void an_entity_is_one_global_entry_found_by_forge_memory_search_through_its_observations() {
        graph.createEntities(List.of(entity("Alice", "person", "Drinks oolong tea", "Lives in Lisbon")));

        MemoryEntry entry = provider.get("entity:Alice", Scope.GLOBAL).orElseThrow();
        assertThat(entry.value()).isEqualTo("- Drinks oolong tea\n- Lives in Lisbon");
        assertThat(entry.metadata()).containsEntry("entityName", "Alice").containsEntry("entityType", "person");
        List<Hit> hits = provider.search(SearchRequest.builder("oolong").scopes(Scope.GLOBAL).build());
        assertThat(hits).extracting(hit -> hit.entry().key()).containsExactly("entity:Alice");
    }

    @Test
    void creating_an_existing_name_is_skipped_and_left_out_of_the_answer_and_a_name_twice_in_one_call_is_made_once() {
        graph.createEntities(List.of(entity("Alice", "person", "first")));

        List<Entity> created = graph.createEntities(List.of(entity("Alice", "robot", "second"), entity("Bob", "person"),
                entity("Bob", "cat"), entity("alice", "person")));

        assertThat(created).containsExactly(entity("Bob", "person"), entity("alice", "person"));
        assertThat(graph.openNodes(List.of("Alice", "Bob")).entities())
                .containsExactly(entity("Alice", "person", "first"), entity("Bob", "person"));
    }

    @Test
    void a_name_whose_key_holds_another_memory_is_a_conflict_and_nothing_is_created() {
        provider.set("entity:Alice", "my own note", Scope.GLOBAL);

        assertThatThrownBy(() -> graph.createEntities(List.of(entity("Zed", "person"), entity("Alice", "person"))))
                .isInstanceOf(ConflictException.class).hasMessageContaining("not that entity");
        KnowledgeGraph plain = new KnowledgeGraph(Stores.without(provider, Capability.SEMANTIC_SEARCH));
        assertThatThrownBy(() -> plain.createEntities(List.of(entity("Zed", "person"), entity("Alice", "person"))))
                .isInstanceOf(ConflictException.class);
        assertThat(graph.readGraph().entities()).isEmpty();
        assertThat(provider.get("entity:Alice", Scope.GLOBAL).orElseThrow().value()).isEqualTo("my own note");
    }

    @Test
    void relations_are_created_once_and_a_relation_to_a_missing_entity_is_refused_before_anything_is_written() {
        graph.createEntities(List.of(entity("Alice", "person"), entity("Acme", "company")));

        List<EntityRelation> created = graph.createRelations(List.of(new EntityRelation("Alice", "Acme", "works at"),
                new EntityRelation("Alice", "Acme", "works at"), new EntityRelation("Alice", "Acme", "works_at")));
        assertThat(created).containsExactly(new EntityRelation("Alice", "Acme", "works at"),
                new EntityRelation("Alice", "Acme", "works_at"));
        assertThat(graph.createRelations(List.of(new EntityRelation("Alice", "Acme", "works at")))).isEmpty();

        assertThatThrownBy(() -> graph.createRelations(List.of(new EntityRelation("Acme", "Alice", "employs"),
                new EntityRelation("Alice", "Nobody", "knows"))))
                .isInstanceOf(EntryNotFoundException.class)
                .hasMessageContaining("Entity with name Nobody not found").hasMessageContaining("create_entities");
        assertThat(graph.readGraph().relations()).containsExactlyInAnyOrder(new EntityRelation("Alice", "Acme", "works at"),
                new EntityRelation("Alice", "Acme", "works_at"));
    }

    @Test
    void a_provider_without_a_graph_keeps_entities_and_refuses_relations_with_the_capability_it_lacks() {
        KnowledgeGraph plain = new KnowledgeGraph(Stores.without(provider, Capability.GRAPH));
        plain.createEntities(List.of(entity("Alice", "person"), entity("Bob", "person")));

        assertThatThrownBy(() -> plain.createRelations(List.of(new EntityRelation("Alice", "Bob", "knows"))))
                .isInstanceOf(UnsupportedCapabilityException.class).hasMessageContaining("GRAPH");
        assertThat(plain.deleteRelations(List.of(new EntityRelation("Alice", "Bob", "knows"))).success()).isTrue();
        assertThat(plain.readGraph().entities()).hasSize(2);
        assertThat(plain.readGraph().relations()).isEmpty();
    }

    @Test
    void observations_are_added_when_new_and_a_missing_entity_fails_the_whole_call() {
        graph.createEntities(List.of(entity("Alice", "person", "a")));

        List<AddedObservations> added = graph.addObservations(List.of(new ObservationAddition("Alice", List.of("a", "b", "b"))));
        assertThat(added).containsExactly(new AddedObservations("Alice", List.of("b", "b")));

        assertThatThrownBy(() -> graph.addObservations(List.of(new ObservationAddition("Alice", List.of("c")),
                new ObservationAddition("Nobody", List.of("d")))))
                .isInstanceOf(EntryNotFoundException.class).hasMessageContaining("Nobody");
        assertThat(graph.openNodes(List.of("Alice")).entities()).containsExactly(entity("Alice", "person", "a", "b", "b"));
    }

    @Test
    void a_call_whose_later_item_is_over_the_providers_limits_writes_nothing_even_without_transactions() {
        KnowledgeGraph plain = new KnowledgeGraph(Stores.without(provider, Capability.SEMANTIC_SEARCH));
        plain.createEntities(List.of(entity("A", "t"), entity("B", "t")));
        String big = "x".repeat(600 * 1024);

        assertThatThrownBy(() -> plain.addObservations(List.of(new ObservationAddition("A", List.of("small")),
                new ObservationAddition("B", List.of(big, big + "y")))))
                .isInstanceOf(ValueTooLargeException.class);
        assertThatThrownBy(() -> plain.createEntities(List.of(entity("C", "t"), entity("D", "t", big, big + "y"))))
                .isInstanceOf(ValueTooLargeException.class);

        assertThat(plain.readGraph().entities()).containsExactly(entity("A", "t"), entity("B", "t"));
    }

    @Test
    void deletes_ignore_what_does_not_exist_and_deleting_an_entity_deletes_its_relations() {
        graph.createEntities(List.of(entity("Alice", "person", "a", "b", "a"), entity("Bob", "person")));
        graph.createRelations(List.of(new EntityRelation("Alice", "Bob", "knows"), new EntityRelation("Bob", "Alice", "knows")));

        assertThat(graph.deleteObservations(List.of(new ObservationDeletion("Alice", List.of("a", "zzz")),
                new ObservationDeletion("Nobody", List.of("a"))))).isEqualTo(new Confirmation(true, "Observations deleted successfully"));
        assertThat(graph.openNodes(List.of("Alice")).entities()).containsExactly(entity("Alice", "person", "b"));

        assertThat(graph.deleteRelations(List.of(new EntityRelation("Alice", "Bob", "knows"), new EntityRelation("X", "Y", "z"))))
                .isEqualTo(new Confirmation(true, "Relations deleted successfully"));
        assertThat(graph.readGraph().relations()).containsExactly(new EntityRelation("Bob", "Alice", "knows"));

        assertThat(graph.deleteEntities(List.of("Bob", "Nobody"))).isEqualTo(new Confirmation(true, "Entities deleted successfully"));
        assertThat(graph.readGraph().entities()).extracting(Entity::name).containsExactly("Alice");
        assertThat(graph.readGraph().relations()).isEmpty();
    }

    @Test
    void search_ignores_case_in_names_types_and_observations_and_answers_relations_with_one_end_found() {
        graph.createEntities(List.of(entity("Zoë", "Person", "Leads PAYMENTS"), entity("Acme", "company"),
                entity("Other", "thing")));
        graph.createRelations(List.of(new EntityRelation("Zoë", "Acme", "works_at"), new EntityRelation("Other", "Acme", "near")));

        assertThat(graph.searchNodes("ZOË").entities()).extracting(Entity::name).containsExactly("Zoë");
        assertThat(graph.searchNodes("person").entities()).extracting(Entity::name).containsExactly("Zoë");
        GraphPage payments = graph.searchNodes("payments");
        assertThat(payments.entities()).extracting(Entity::name).containsExactly("Zoë");
        assertThat(payments.relations()).containsExactly(new EntityRelation("Zoë", "Acme", "works_at"));
        assertThat(graph.searchNodes("acme").relations()).hasSize(2);
        assertThat(graph.searchNodes("").entities()).hasSize(3);
    }

    @Test
    void open_nodes_answers_the_named_entities_and_every_relation_touching_them() {
        graph.createEntities(List.of(entity("A", "t"), entity("B", "t"), entity("C", "t")));
        graph.createRelations(List.of(new EntityRelation("A", "B", "r"), new EntityRelation("C", "A", "r"),
                new EntityRelation("B", "C", "r")));

        GraphPage page = graph.openNodes(List.of("A", "Missing", "A"));

        assertThat(page.entities()).extracting(Entity::name).containsExactly("A");
        assertThat(page.relations()).containsExactlyInAnyOrder(new EntityRelation("A", "B", "r"), new EntityRelation("C", "A", "r"));
        assertThat(page.nextCursor()).isEmpty();
    }

    @Test
    void read_graph_is_paged_and_the_pages_hold_every_entity_and_relation_once() {
        List<Entity> entities = new ArrayList<>();
        List<EntityRelation> relations = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            entities.add(entity("e" + i, "t", "o" + i));
            if (i > 0) {
                relations.add(new EntityRelation("e" + i, "e" + (i - 1), "after"));
            }
        }
        graph.createEntities(entities);
        graph.createRelations(relations);
        provider.set("entity-notes", "a memory whose key only looks like an entity's", Scope.GLOBAL);

        List<Entity> seen = new ArrayList<>();
        List<EntityRelation> seenRelations = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        int pages = 0;
        do {
            GraphPage page = graph.readGraph(new PageRequest(10, cursor));
            assertThat(page.entities()).hasSizeLessThanOrEqualTo(10);
            seen.addAll(page.entities());
            seenRelations.addAll(page.relations());
            cursor = page.nextCursor();
            pages++;
        } while (cursor.isPresent());

        assertThat(pages).isEqualTo(3);
        assertThat(seen).containsExactlyInAnyOrderElementsOf(entities);
        assertThat(seenRelations).containsExactlyInAnyOrderElementsOf(relations);
        assertThat(graph.readGraph().entities()).hasSize(25);
    }

    @Test
    void a_page_too_large_or_a_cursor_no_page_gave_is_refused_with_what_to_do() {
        assertThatThrownBy(() -> PageRequest.first(5000)).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("nextCursor");
        assertThatThrownBy(() -> graph.readGraph(PageRequest.after("page-2", 10))).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("nextCursor of the previous page");
    }

    @Test
    void names_with_any_characters_are_entities_and_the_project_scope_is_a_separate_graph() {
        List<String> names = List.of("", "line\nbreak", "100%", "../etc/passwd", "x".repeat(2000), "🚀");
        graph.createEntities(names.stream().map(name -> entity(name, "t", name)).toList());
        KnowledgeGraph project = new KnowledgeGraph(provider, Scope.PROJECT);

        assertThat(graph.openNodes(names).entities()).extracting(Entity::name).containsExactlyInAnyOrderElementsOf(names);
        assertThat(project.readGraph().entities()).isEmpty();
        assertThat(provider.get(McpMemoryFormat.key("x".repeat(2000)), Scope.GLOBAL)).isPresent();
    }
}
