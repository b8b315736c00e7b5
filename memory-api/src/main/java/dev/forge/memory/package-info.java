/**
 * The forge-memory API: the memory model ({@link dev.forge.memory.MemoryEntry}, {@link dev.forge.memory.Scope}),
 * the {@link dev.forge.memory.MemoryProvider} every backend implements, its optional facets and the
 * exception hierarchy rooted at {@link dev.forge.memory.MemoryException}.
 */
package dev.forge.memory;
