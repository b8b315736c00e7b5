/**
 * The {@code graph} provider: memories as nodes of a Neo4j database reached over Bolt, relations as typed Neo4j
 * relationships, keyword search through a Neo4j full-text index, history as a chain of version nodes.
 */
package dev.forge.memory.graph;
