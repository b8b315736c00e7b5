/**
 * Local embedding models that need no network, found by {@link java.util.ServiceLoader} as
 * {@link dev.forge.memory.embedding.EmbeddingModelFactory}: {@code minilm} (all-MiniLM-L6-v2), {@code bge-small}
 * (bge-small-en-v1.5) and {@code e5-small} (e5-small-v2), run with the ONNX runtime.
 */
package dev.forge.memory.embeddings;
