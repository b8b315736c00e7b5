/**
 * LangChain4j over forge-memory: a {@code ChatMemoryStore}, an {@code EmbeddingStore<TextSegment>} and a
 * {@code ContentRetriever} backed by any provider, and any LangChain4j {@code EmbeddingModel} as a forge-memory
 * embedding model. Guide: docs/langchain4j.md.
 */
package dev.forge.memory.langchain4j;
