/**
 * Write throughput of the markdown and file providers against the official MCP memory server
 * ({@code @modelcontextprotocol/server-memory}), driven over stdio as an agent drives it.
 */
package dev.forge.memory.benchmarks.mcp;
