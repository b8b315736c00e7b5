/**
 * Embedding models: the SPI that turns text into vectors for semantic search, shared by every provider that offers
 * it, models found by {@link java.util.ServiceLoader} and chosen by name in config, and a built-in lexical model.
 */
package dev.forge.memory.embedding;
