/**
 * Consolidation: merging duplicate memories once a scope grows past a token threshold, without losing anything.
 * {@link dev.forge.memory.consolidation.Consolidation} runs a {@link dev.forge.memory.consolidation.Consolidator}
 * (deterministic, or an LLM over an OpenAI-compatible chat endpoint) on any provider and checks its plan before writing.
 */
package dev.forge.memory.consolidation;
