/**
 * The hybrid router's implementation: the write path that keeps the children in step ({@code Router}), the shared
 * entry cache with its key locks, the durable outbox of updates the children missed, and the search, graph, history,
 * transaction, reindex and doctor the router offers over its children. Not an API.
 */
package dev.forge.memory.hybrid.internal;
