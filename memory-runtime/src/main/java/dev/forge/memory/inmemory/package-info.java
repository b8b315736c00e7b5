/**
 * The {@code in-memory} reference provider: every capability but semantic search, nothing persisted.
 * For unit tests of code that uses forge-memory, and to prove the conformance suite.
 */
package dev.forge.memory.inmemory;
