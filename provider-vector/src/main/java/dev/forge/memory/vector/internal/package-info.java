/**
 * The vector provider's implementation: the shared Lucene index of one directory, the document layout, the stored
 * entry codec and the translation of filters into Lucene queries. Not an API.
 */
package dev.forge.memory.vector.internal;
