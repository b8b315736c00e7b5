/** How the knowledge graph reads and writes its entities through a provider; not an API. */
package dev.forge.memory.knowledge.internal;
