/**
 * Spring Boot auto-configuration for forge-memory: the provider {@code application.yaml} names under
 * {@code forge.memory}, offered as a {@link dev.forge.memory.MemoryProvider}, a Spring AI
 * {@link org.springframework.ai.chat.memory.ChatMemoryRepository} and a {@link org.springframework.ai.vectorstore.VectorStore}.
 */
package dev.forge.memory.spring.boot;
