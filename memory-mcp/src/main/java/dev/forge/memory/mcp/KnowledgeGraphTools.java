package dev.forge.memory.mcp;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.knowledge.Confirmation;
import dev.forge.memory.knowledge.Entity;
import dev.forge.memory.knowledge.EntityRelation;
import dev.forge.memory.knowledge.GraphPage;
import dev.forge.memory.knowledge.KnowledgeGraph;
import dev.forge.memory.knowledge.ObservationAddition;
import dev.forge.memory.knowledge.ObservationDeletion;
import dev.forge.memory.knowledge.PageRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The official MCP memory server's nine tools ({@code @modelcontextprotocol/server-memory}: create_entities,
 * create_relations, add_observations, delete_entities, delete_observations, delete_relations, read_graph, search_nodes,
 * open_nodes) over {@link KnowledgeGraph}: the same names, arguments and answers, so that a client switches servers
 * with one line of its configuration. The reads are paged where the official server answers with everything:
 * {@code limit} (default {@value PageRequest#DEFAULT_LIMIT}) and {@code cursor} are optional arguments, and
 * {@code nextCursor} is in the answer only when there is more. docs/mcp-compatibility.md has the mapping.
 */
public final class KnowledgeGraphTools {

    private static final Map<String, Map<String, Object>> ENTITY = fields(
            "name", JsonSchemas.text("The name of the entity"),
            "entityType", JsonSchemas.text("The type of the entity"),
            "observations", JsonSchemas.texts("An array of observation contents associated with the entity"));
    private static final Map<String, Map<String, Object>> RELATION = fields(
            "from", JsonSchemas.text("The name of the entity where the relation starts"),
            "to", JsonSchemas.text("The name of the entity where the relation ends"),
            "relationType", JsonSchemas.text("The type of the relation"));
    private static final String PAGED = " Paged: at most 'limit' entities (default " + PageRequest.DEFAULT_LIMIT
            + "); when there are more, the answer has 'nextCursor', to pass as 'cursor' for the next page.";

    private final KnowledgeGraph graph;

    private KnowledgeGraphTools(KnowledgeGraph graph) {
        this.graph = graph;
    }

    /** The nine tools over the graph of {@code provider}'s {@code scope} (the official server's graph is the user's: GLOBAL). */
    public static List<McpTool> of(MemoryProvider provider, Scope scope) {
        KnowledgeGraphTools tools = new KnowledgeGraphTools(new KnowledgeGraph(provider, scope));
        return List.of(tools.createEntities(), tools.createRelations(), tools.addObservations(), tools.deleteEntities(),
                tools.deleteObservations(), tools.deleteRelations(), tools.readGraph(), tools.searchNodes(),
                tools.openNodes());
    }

    private McpTool createEntities() {
        return new McpTool("create_entities", "Create multiple new entities in the knowledge graph",
                JsonSchemas.object().requiredObjects("entities", "The entities to create", ENTITY).build(),
                args -> Map.of("entities", graph.createEntities(args.records("entities", Entity.class))));
    }

    private McpTool createRelations() {
        return new McpTool("create_relations", "Create multiple new relations between entities in the knowledge graph. "
                + "Relations should be in active voice",
                JsonSchemas.object().requiredObjects("relations", "The relations to create", RELATION).build(),
                args -> Map.of("relations", graph.createRelations(args.records("relations", EntityRelation.class))));
    }

    private McpTool addObservations() {
        return new McpTool("add_observations", "Add new observations to existing entities in the knowledge graph",
                JsonSchemas.object().requiredObjects("observations", "The observations to add, per entity", fields(
                        "entityName", JsonSchemas.text("The name of the entity to add the observations to"),
                        "contents", JsonSchemas.texts("An array of observation contents to add"))).build(),
                args -> Map.of("results", graph.addObservations(args.records("observations", ObservationAddition.class))));
    }

    private McpTool deleteEntities() {
        return new McpTool("delete_entities", "Delete multiple entities and their associated relations from the "
                + "knowledge graph",
                JsonSchemas.object().requiredStrings("entityNames", "An array of entity names to delete").build(),
                args -> confirmation(graph.deleteEntities(args.strings("entityNames"))));
    }

    private McpTool deleteObservations() {
        return new McpTool("delete_observations", "Delete specific observations from entities in the knowledge graph",
                JsonSchemas.object().requiredObjects("deletions", "The observations to delete, per entity", fields(
                        "entityName", JsonSchemas.text("The name of the entity containing the observations"),
                        "observations", JsonSchemas.texts("An array of observations to delete"))).build(),
                args -> confirmation(graph.deleteObservations(args.records("deletions", ObservationDeletion.class))));
    }

    private McpTool deleteRelations() {
        return new McpTool("delete_relations", "Delete multiple relations from the knowledge graph",
                JsonSchemas.object().requiredObjects("relations", "An array of relations to delete", RELATION).build(),
                args -> confirmation(graph.deleteRelations(args.records("relations", EntityRelation.class))));
    }

    private McpTool readGraph() {
        return new McpTool("read_graph", "Read the entire knowledge graph." + PAGED,
                paged(JsonSchemas.object()).build(), args -> page(graph.readGraph(page(args))));
    }

    private McpTool searchNodes() {
        return new McpTool("search_nodes", "Search for nodes in the knowledge graph based on a query." + PAGED,
                paged(JsonSchemas.object().requiredString("query",
                        "The search query to match against entity names, types, and observation content")).build(),
                args -> page(graph.searchNodes(args.string("query"), page(args))));
    }

    private McpTool openNodes() {
        return new McpTool("open_nodes", "Open specific nodes in the knowledge graph by their names",
                JsonSchemas.object().requiredStrings("names", "An array of entity names to retrieve").build(),
                args -> page(graph.openNodes(args.strings("names"))));
    }

    private static JsonSchemas paged(JsonSchemas schema) {
        return schema.integer("limit", "The most entities in this page.", 1, PageRequest.MAX_LIMIT,
                PageRequest.DEFAULT_LIMIT).cursor();
    }

    private static PageRequest page(ToolArguments args) {
        int limit = args.integer("limit", PageRequest.DEFAULT_LIMIT, 1, PageRequest.MAX_LIMIT);
        return args.optionalString(ToolArguments.CURSOR).map(c -> PageRequest.after(c, limit))
                .orElseGet(() -> PageRequest.first(limit));
    }

    /** The official answer {@code {entities, relations}}, with {@code nextCursor} only when there is more. */
    private static Map<String, Object> page(GraphPage page) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("entities", page.entities());
        answer.put("relations", page.relations());
        page.nextCursor().ifPresent(cursor -> answer.put("nextCursor", cursor));
        return answer;
    }

    private static Map<String, Object> confirmation(Confirmation confirmation) {
        return Map.of("success", confirmation.success(), "message", confirmation.message());
    }

    private static Map<String, Map<String, Object>> fields(Object... nameAndSchema) {
        Map<String, Map<String, Object>> fields = new LinkedHashMap<>();
        for (int i = 0; i < nameAndSchema.length; i += 2) {
            @SuppressWarnings("unchecked")
            Map<String, Object> schema = (Map<String, Object>) nameAndSchema[i + 1];
            fields.put((String) nameAndSchema[i], schema);
        }
        return fields;
    }
}
