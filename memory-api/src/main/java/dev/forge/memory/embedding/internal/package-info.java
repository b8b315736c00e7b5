/**
 * The implementation of the built-in remote embedding model: the OpenAI-compatible HTTP client.
 * Not API: may change in any release.
 */
package dev.forge.memory.embedding.internal;
