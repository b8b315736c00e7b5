/**
 * The MCP server's speed against the official MCP memory server ({@code @modelcontextprotocol/server-memory}), both
 * driven over stdio as an agent drives them: tool-call latency on a full store, and writes into an empty one.
 */
package dev.forge.memory.benchmarks.mcp;
