/**
 * Implementation of the markdown provider: the memory-file format, the directory index and the store. Not an API.
 */
package dev.forge.memory.markdown.internal;
