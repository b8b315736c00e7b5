/**
 * The vector provider's implementation: the project's Lucene index and the GLOBAL one every project shares, the
 * document layout, the stored entry codec and the translation of filters into Lucene queries. Not an API.
 */
package dev.forge.memory.vector.internal;
