/**
 * Local embedding models that need no network, found by {@link java.util.ServiceLoader} as
 * {@link dev.forge.memory.embedding.EmbeddingModelFactory}: {@code minilm} (all-MiniLM-L6-v2) and {@code bge-small}
 * (bge-small-en-v1.5), run with the ONNX runtime.
 */
package dev.forge.memory.embeddings;
