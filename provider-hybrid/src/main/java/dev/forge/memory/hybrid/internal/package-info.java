/**
 * The hybrid router's implementation: the shared entry cache with its key locks, and the durable outbox of updates
 * the search and relationships children missed. Not an API.
 */
package dev.forge.memory.hybrid.internal;
