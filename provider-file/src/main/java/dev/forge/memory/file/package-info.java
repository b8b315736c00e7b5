/**
 * The {@code file} provider: one JSON file per memory entry under a scope directory, an in-memory index
 * kept in step with other processes through an append-only journal, version history, relations and
 * crash-safe transactions.
 */
package dev.forge.memory.file;
