/**
 * The vector provider's benchmarks: semantic search beside raw Lucene kNN and langchain4j's in-memory embedding store,
 * recall@10 against exact search, and the embedding cost, on MiniLM embeddings of real English text (WordNet 3.1).
 */
package dev.forge.memory.benchmarks.vector;
