/** The Cypher behind the {@code graph} provider: shared drivers, the store's statements and buffered transactions. */
package dev.forge.memory.graph.internal;
