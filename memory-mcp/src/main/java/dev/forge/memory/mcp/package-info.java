/**
 * The forge-memory MCP server: a provider's memories as Model Context Protocol tools and resources, served with the
 * official MCP Java SDK over stdio.
 */
package dev.forge.memory.mcp;
