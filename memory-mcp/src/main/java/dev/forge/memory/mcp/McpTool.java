package dev.forge.memory.mcp;

import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * One tool of the server: its name, the description an LLM reads, the JSON Schema of its arguments, and what it does.
 * The handler returns a JSON-compatible value (maps, lists, strings, numbers, booleans), sent as the tool's structured
 * content and as its JSON text; a {@link dev.forge.memory.MemoryException} it throws becomes a tool error carrying the
 * exception's message. Another set of tools is served by adding its list to {@link MemoryMcpServer.Builder#tools}.
 *
 * @param name        the tool's name, unique on one server
 * @param description what the tool does and returns, for the model choosing it
 * @param inputSchema the JSON Schema of the arguments (an object schema; see {@link JsonSchemas})
 * @param handler     runs one call
 */
public record McpTool(String name, String description, Map<String, Object> inputSchema,
        Function<ToolArguments, Object> handler) {

    /** Checks that every part is present. */
    public McpTool {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        inputSchema = Map.copyOf(inputSchema);
        Objects.requireNonNull(handler, "handler");
    }
}
