/**
 * The implementation of the local models: loading and sharing ONNX sessions and tokenizers, batching, pooling.
 * Not API: may change in any release.
 */
package dev.forge.memory.embeddings.internal;
