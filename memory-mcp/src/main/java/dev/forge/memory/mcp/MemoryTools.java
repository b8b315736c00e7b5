package dev.forge.memory.mcp;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.GraphPath;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.Traversal;
import dev.forge.memory.context.ContextEntry;
import dev.forge.memory.context.ContextLoader;
import dev.forge.memory.context.ContextPage;
import dev.forge.memory.context.ContextPages;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The native tools over one provider: set, get, query, search, delete, relate, traverse, history and context. Every
 * listing is paged: a {@code limit} with a maximum, and a {@code cursor} to continue.
 */
public final class MemoryTools {

    /** The default page size of query and history. */
    public static final int DEFAULT_PAGE = 20;
    /** The largest page of query, history and traverse. */
    public static final int MAX_PAGE = 100;
    /** The largest page of search (each hit carries an entry). */
    public static final int MAX_HITS = 50;
    /** The largest context budget, in estimated tokens. */
    public static final int MAX_BUDGET = 20_000;

    private static final String SCOPE = "The scope: session (this session), project (default: this project) or global "
            + "(every project).";
    private static final String SCOPES = "Scopes to look in: any of session, project, global (default: project).";
    private static final String TAGS = "Tags every result must carry.";
    private static final List<String> SCOPE_NAMES = List.of("session", "project", "global");

    private final MemoryProvider provider;

    private MemoryTools(MemoryProvider provider) {
        this.provider = provider;
    }

    /** The nine tools over {@code provider}, which the caller keeps open while the tools are served. */
    public static List<McpTool> of(MemoryProvider provider) {
        MemoryTools tools = new MemoryTools(provider);
        return List.of(tools.set(), tools.get(), tools.query(), tools.search(), tools.delete(), tools.relate(),
                tools.traverse(), tools.history(), tools.context());
    }

    private McpTool set() {
        return new McpTool("set", "Store a memory: text under a key, replacing what the key held (its version goes up by "
                + "one). Use a short, stable key such as 'decision:db-choice'. Returns the stored entry.",
                JsonSchemas.object()
                        .requiredString("key", "The key: any text up to 512 characters without control characters.")
                        .requiredString("value", "The text to remember, usually markdown.")
                        .string("scope", SCOPE)
                        .strings("tags", "Tags to find it by (ordered, no duplicates).")
                        .map("metadata", "JSON fields to keep with it, e.g. {\"source\": \"review\"}.")
                        .build(),
                args -> Shapes.entry(provider.set(args.string("key"), args.string("value"), args.scope("scope", Scope.PROJECT),
                        args.strings("tags"), args.object("metadata"))));
    }

    private McpTool get() {
        return new McpTool("get", "Read the memory stored under a key, with its whole value, tags, metadata and version. "
                + "An error says so when there is no such key; use search or query to find keys.",
                JsonSchemas.object()
                        .requiredString("key", "The key.")
                        .string("scope", SCOPE)
                        .build(),
                args -> {
                    String key = args.string("key");
                    Scope scope = args.scope("scope", Scope.PROJECT);
                    return Shapes.entry(provider.get(key, scope).orElseThrow(() -> notFound(key, scope)));
                });
    }

    private McpTool query() {
        return new McpTool("query", "List memories by key pattern, one page at a time: '*' every key, 'prefix:*', "
                + "'*:suffix', '*mid*', an exact key, or 'tag:NAME'. Values longer than " + Shapes.PREVIEW_CHARS
                + " characters are cut (valueTruncated: true; get reads the whole). Returns {entries, nextCursor?}.",
                JsonSchemas.object()
                        .string("pattern", "The key pattern (default: '*').")
                        .choices("scopes", SCOPES, SCOPE_NAMES)
                        .strings("tags", TAGS)
                        .choice("order", "The order: by key, or by update time (updated_desc: newest first).",
                                ToolArguments.names(Query.Order.class), "key")
                        .integer("limit", "The most entries on this page.", 1, MAX_PAGE, DEFAULT_PAGE)
                        .cursor()
                        .build(),
                args -> {
                    int offset = args.cursor();
                    int limit = args.integer("limit", DEFAULT_PAGE, 1, MAX_PAGE);
                    Query query = Query.builder()
                            .pattern(args.optionalString("pattern").orElse("*"))
                            .scopes(args.scopes("scopes", EnumSet.of(Scope.PROJECT)))
                            .tags(args.strings("tags"))
                            .order(args.choice("order", Query.Order.class, Query.Order.KEY))
                            .offset(offset)
                            .limit(limit + 1)
                            .build();
                    return Shapes.page("entries", provider.query(query), offset, limit, Shapes::listed);
                });
    }

    private McpTool search() {
        return new McpTool("search", "Find memories relevant to a text, best first, each with a score from 0 to 1. "
                + "keyword matches words; semantic and hybrid match meaning where the store has embeddings (an error "
                + "says so where it has not). Values are cut as in query. Returns {hits: [{score, entry}], nextCursor?}.",
                JsonSchemas.object()
                        .requiredString("text", "What to look for, in words.")
                        .choice("mode", "How to match.", ToolArguments.names(SearchMode.class), "keyword")
                        .choices("scopes", SCOPES, SCOPE_NAMES)
                        .strings("tags", TAGS)
                        .integer("limit", "The most hits on this page.", 1, MAX_HITS, SearchRequest.DEFAULT_LIMIT)
                        .number("threshold", "The lowest score returned.", 0, 1, 0)
                        .cursor()
                        .build(),
                args -> {
                    int offset = args.cursor();
                    int limit = args.integer("limit", SearchRequest.DEFAULT_LIMIT, 1, MAX_HITS);
                    SearchRequest request = SearchRequest.builder(args.string("text"))
                            .mode(args.choice("mode", SearchMode.class, SearchMode.KEYWORD))
                            .scopes(args.scopes("scopes", EnumSet.of(Scope.PROJECT)))
                            .tags(args.strings("tags"))
                            .threshold(args.number("threshold", 0, 0, 1))
                            // The SPI has no offset for search: ask for the hits up to one past this page.
                            .limit((int) Math.min(SearchRequest.MAX_LIMIT, (long) offset + limit + 1))
                            .build();
                    List<Hit> hits = provider.search(request);
                    return Shapes.page("hits", Shapes.from(hits, offset), offset, limit, Shapes::hit);
                });
    }

    private McpTool delete() {
        return new McpTool("delete", "Delete the memory under a key. Returns {key, scope, deleted}: deleted is false "
                + "when there was nothing to delete.",
                JsonSchemas.object()
                        .requiredString("key", "The key.")
                        .string("scope", SCOPE)
                        .build(),
                args -> {
                    String key = args.string("key");
                    Scope scope = args.scope("scope", Scope.PROJECT);
                    Map<String, Object> result = Shapes.ref(EntryRef.of(key, scope));
                    result.put("deleted", provider.delete(key, scope));
                    return result;
                });
    }

    private McpTool relate() {
        return new McpTool("relate", "Relate two stored memories with a typed, directed relation, e.g. from "
                + "'decision:db' to 'issue:42' with type CAUSED_BY. Both must exist. Needs a store with a graph (an error "
                + "says so where it has none). Returns the relation.",
                JsonSchemas.object()
                        .requiredString("from", "The key the relation starts at.")
                        .requiredString("to", "The key it points to.")
                        .requiredString("type", "The relation type: a letter, then letters, digits or _ (case-sensitive).")
                        .string("fromScope", "The scope of 'from' (default: project).")
                        .string("toScope", "The scope of 'to' (default: project).")
                        .build(),
                args -> Shapes.relation(provider.requireGraph().relate(
                        EntryRef.of(args.string("from"), args.scope("fromScope", Scope.PROJECT)),
                        EntryRef.of(args.string("to"), args.scope("toScope", Scope.PROJECT)),
                        args.string("type"))));
    }

    private McpTool traverse() {
        return new McpTool("traverse", "Find the memories related to one memory, following relations breadth-first: one "
                + "shortest path to each memory reached, nearest first. Returns {start, paths: [{end, length, relations}], "
                + "nextCursor?}.",
                JsonSchemas.object()
                        .requiredString("start", "The key to start from.")
                        .string("scope", "The scope of 'start' (default: project).")
                        .strings("types", "Relation types to follow (default: every type).")
                        .choice("direction", "Which way to follow relations.", ToolArguments.names(Direction.class), "outgoing")
                        .integer("depth", "The longest path.", 1, Traversal.MAX_DEPTH, 2)
                        .integer("limit", "The most paths on this page.", 1, MAX_PAGE, DEFAULT_PAGE)
                        .cursor()
                        .build(),
                args -> {
                    int offset = args.cursor();
                    int limit = args.integer("limit", DEFAULT_PAGE, 1, MAX_PAGE);
                    EntryRef start = EntryRef.of(args.string("start"), args.scope("scope", Scope.PROJECT));
                    Traversal traversal = new Traversal(new LinkedHashSet<>(args.strings("types")),
                            args.choice("direction", Direction.class, Direction.OUTGOING),
                            args.integer("depth", 2, 1, Traversal.MAX_DEPTH));
                    var graph = provider.requireGraph();
                    if (provider.get(start.key(), start.scope()).isEmpty()) {
                        throw notFound(start.key(), start.scope());
                    }
                    List<GraphPath> paths = graph.traverse(start, traversal);
                    Map<String, Object> result = new LinkedHashMap<>();
                    result.put("start", Shapes.ref(start));
                    result.putAll(Shapes.page("paths", Shapes.from(paths, offset), offset, limit, Shapes::path));
                    return result;
                });
    }

    private McpTool history() {
        return new McpTool("history", "List the versions of a memory, oldest first, each a whole entry. deleted is true "
                + "when the key was deleted and its history kept. Needs a store that keeps history (an error says so "
                + "where it does not). Returns {key, scope, deleted, versions, nextCursor?}.",
                JsonSchemas.object()
                        .requiredString("key", "The key.")
                        .string("scope", SCOPE)
                        .integer("limit", "The most versions on this page.", 1, MAX_PAGE, DEFAULT_PAGE)
                        .cursor()
                        .build(),
                args -> {
                    String key = args.string("key");
                    Scope scope = args.scope("scope", Scope.PROJECT);
                    int offset = args.cursor();
                    int limit = args.integer("limit", DEFAULT_PAGE, 1, MAX_PAGE);
                    List<MemoryEntry> versions = provider.requireHistory().versions(key, scope);
                    if (versions.isEmpty()) {
                        throw notFound(key, scope);
                    }
                    Map<String, Object> result = Shapes.ref(EntryRef.of(key, scope));
                    result.put("deleted", provider.get(key, scope).isEmpty());
                    result.putAll(Shapes.page("versions", Shapes.from(versions, offset), offset, limit, Shapes::entry));
                    return result;
                });
    }

    private McpTool context() {
        return new McpTool("context", "Load memories as one prompt block under a token budget: the most recent (or, with "
                + "query, the most relevant) first, grouped by category, long values cut. Call it at the start of a task; "
                + "when nextPage is present, call again with that page for more. Returns {page, pages, tokens, budget, "
                + "text, entries, nextPage?}.",
                JsonSchemas.object()
                        .string("query", "Rank by relevance to this text instead of by date.")
                        .choices("scopes", "Scopes to draw from (default: session, project and global).", SCOPE_NAMES)
                        .integer("budget", "The most estimated tokens on a page.", ContextLoader.MIN_BUDGET, MAX_BUDGET,
                                ContextLoader.DEFAULT_BUDGET)
                        .integer("page", "Which page, from 1.", 1, Integer.MAX_VALUE, 1)
                        .build(),
                args -> {
                    ContextLoader.Builder builder = ContextLoader.builder().provider(provider)
                            .budget(args.integer("budget", ContextLoader.DEFAULT_BUDGET, ContextLoader.MIN_BUDGET, MAX_BUDGET));
                    Set<Scope> scopes = args.scopes("scopes", Set.of());
                    if (!scopes.isEmpty()) {
                        builder.scopes(scopes.toArray(Scope[]::new));
                    }
                    args.optionalString("query").ifPresent(builder::query);
                    int number = args.integer("page", 1, 1, Integer.MAX_VALUE);
                    ContextPages pages = builder.build().load();
                    ContextPage page = pages.page(number);
                    Map<String, Object> result = new LinkedHashMap<>();
                    result.put("page", page.number());
                    result.put("pages", page.pageCount());
                    result.put("tokens", page.tokens());
                    result.put("budget", pages.budget());
                    result.put("text", page.text());
                    result.put("entries", page.entries().stream().map(MemoryTools::contextEntry).toList());
                    if (page.hasNext()) {
                        result.put("nextPage", page.number() + 1);
                    }
                    return result;
                });
    }

    private static Map<String, Object> contextEntry(ContextEntry entry) {
        Map<String, Object> node = Shapes.ref(entry.entry().ref());
        node.put("category", entry.category());
        node.put("truncated", entry.truncated());
        return node;
    }

    /** The error of a key with no entry: the same sentence as the command line's. */
    static EntryNotFoundException notFound(String key, Scope scope) {
        return new EntryNotFoundException("No entry '" + key + "' in scope " + scope.id() + ".");
    }
}
