/**
 * The graph provider on a real Neo4j ({@code NEO4J_URI}, else an in-process neo4j-harness server): relate and
 * traverse beside the same Cypher statements sent directly through the Neo4j Java driver.
 */
package dev.forge.memory.benchmarks.graph;
