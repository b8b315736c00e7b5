/**
 * Embedding models: the SPI that turns text into vectors for semantic search, shared by every provider that offers
 * it, models found by {@link java.util.ServiceLoader} and chosen by name in config, a built-in lexical model
 * ({@code hashing}) and a client of OpenAI-compatible embedding services ({@code openai}).
 */
package dev.forge.memory.embedding;
