/**
 * The {@code vector} provider: every memory in one Lucene index directory, with HNSW vector search by an embedding
 * model, BM25 keyword search with English stemming, and their reciprocal rank fusion.
 */
package dev.forge.memory.vector;
