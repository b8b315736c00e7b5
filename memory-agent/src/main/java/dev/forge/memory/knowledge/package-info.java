/**
 * The official MCP memory server's knowledge graph (entities with observations, typed relations between them) as a
 * view of any provider: {@link dev.forge.memory.knowledge.KnowledgeGraph}, one method per tool of that server.
 */
package dev.forge.memory.knowledge;
