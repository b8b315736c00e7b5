/**
 * Local embedding models that need no network, found by {@link java.util.ServiceLoader} as
 * {@link dev.forge.memory.embedding.EmbeddingModelFactory}: {@code minilm}, all-MiniLM-L6-v2 run with the ONNX runtime.
 */
package dev.forge.memory.embeddings;
