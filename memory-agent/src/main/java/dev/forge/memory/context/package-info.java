/**
 * Memories as prompt context: {@link dev.forge.memory.context.ContextLoader} lays the relevant memories out as
 * markdown pages under a token budget, and small helpers implement the usual patterns on any provider (decision log,
 * learning capture, session context).
 */
package dev.forge.memory.context;
