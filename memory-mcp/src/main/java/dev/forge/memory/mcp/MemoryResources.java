package dev.forge.memory.mcp;

import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Memories as MCP resources. {@code memory://SCOPE/KEY} (the key percent-encoded) reads one entry as JSON;
 * {@code memory://SCOPE} reads a page of that scope's index, {@code {entries: [{uri, key, updatedAt, version}],
 * next?}}, and {@code next} is the URI of the following page ({@code memory://SCOPE?cursor=N}). The three index
 * resources are what {@code resources/list} lists: the SDK lists registered resources without paging, so the index
 * pages are resources of their own.
 */
final class MemoryResources {

    /** The URI scheme. */
    static final String SCHEME = "memory://";
    /** The entries on one index page. */
    static final int INDEX_PAGE = 100;
    private static final String JSON = "application/json";

    private final MemoryProvider provider;
    private final Function<Object, String> json;

    MemoryResources(MemoryProvider provider, Function<Object, String> json) {
        this.provider = provider;
        this.json = json;
    }

    /** The index of each scope. */
    List<SyncResourceSpecification> indexes() {
        List<SyncResourceSpecification> indexes = new ArrayList<>();
        for (Scope scope : Scope.values()) {
            McpSchema.Resource resource = McpSchema.Resource.builder()
                    .uri(SCHEME + scope.id())
                    .name(scope.id() + " memories")
                    .description("The keys of the " + scope.id() + " memories, " + INDEX_PAGE + " a page, each with the "
                            + "URI that reads it; 'next' is the URI of the next page.")
                    .mimeType(JSON)
                    .build();
            indexes.add(new SyncResourceSpecification(resource, (exchange, request) -> read(request.uri())));
        }
        return indexes;
    }

    /** One entry, and the later pages of an index. */
    List<SyncResourceTemplateSpecification> templates() {
        McpSchema.ResourceTemplate entry = McpSchema.ResourceTemplate.builder()
                .uriTemplate(SCHEME + "{scope}/{key}")
                .name("memory")
                .description("One memory as JSON (key, value, scope, tags, metadata, createdAt, updatedAt, version); "
                        + "scope is session, project or global, key is percent-encoded.")
                .mimeType(JSON)
                .build();
        McpSchema.ResourceTemplate page = McpSchema.ResourceTemplate.builder()
                .uriTemplate(SCHEME + "{scope}?cursor={cursor}")
                .name("memory index page")
                .description("A later page of a scope's index: the 'next' URI of the page before.")
                .mimeType(JSON)
                .build();
        return List.of(new SyncResourceTemplateSpecification(entry, (exchange, request) -> read(request.uri())),
                new SyncResourceTemplateSpecification(page, (exchange, request) -> read(request.uri())));
    }

    /** The URI of an entry. */
    static String uri(Scope scope, String key) {
        return SCHEME + scope.id() + "/" + URLEncoder.encode(key, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private McpSchema.ReadResourceResult read(String uri) {
        if (!uri.startsWith(SCHEME)) {
            throw new InvalidRequestException("The resource '" + uri + "' is not a memory: memory URIs start with " + SCHEME + ".");
        }
        String rest = uri.substring(SCHEME.length());
        int slash = rest.indexOf('/');
        Object content;
        if (slash >= 0) {
            Scope scope = Scope.parse(rest.substring(0, slash));
            String key = URLDecoder.decode(rest.substring(slash + 1), StandardCharsets.UTF_8);
            content = Shapes.entry(provider.get(key, scope).orElseThrow(() -> MemoryTools.notFound(key, scope)));
        } else {
            int question = rest.indexOf('?');
            Scope scope = Scope.parse(question < 0 ? rest : rest.substring(0, question));
            String cursor = question < 0 ? null : rest.substring(question + 1).replaceFirst("^cursor=", "");
            content = index(scope, new ToolArguments("resources/read", cursor == null ? Map.of()
                    : Map.of(ToolArguments.CURSOR, cursor)).cursor());
        }
        return new McpSchema.ReadResourceResult(List.of(new McpSchema.TextResourceContents(uri, JSON, json.apply(content))));
    }

    private Map<String, Object> index(Scope scope, int offset) {
        List<MemoryEntry> entries = provider.query(Query.builder().pattern("*").scopes(scope).offset(offset)
                .limit(INDEX_PAGE + 1).build());
        Map<String, Object> page = new LinkedHashMap<>();
        page.put("scope", scope.id());
        page.put("entries", entries.subList(0, Math.min(INDEX_PAGE, entries.size())).stream().map(e -> {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("uri", uri(scope, e.key()));
            item.put("key", e.key());
            item.put("updatedAt", e.updatedAt().toString());
            item.put("version", e.version());
            return item;
        }).toList());
        if (entries.size() > INDEX_PAGE) {
            page.put("next", SCHEME + scope.id() + "?cursor=" + (offset + INDEX_PAGE));
        }
        return page;
    }
}
