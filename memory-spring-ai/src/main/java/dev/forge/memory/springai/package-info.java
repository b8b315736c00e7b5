/**
 * Spring AI over forge-memory: a {@link org.springframework.ai.chat.memory.ChatMemoryRepository} and a
 * {@link org.springframework.ai.vectorstore.VectorStore} backed by any {@link dev.forge.memory.MemoryProvider}.
 */
package dev.forge.memory.springai;
