/**
 * Implementation of the {@code file} provider, not an API: atomic and undoable file changes, the entry codec, the
 * cross-process store lock, the change journal, the relations file and the commit log.
 */
package dev.forge.memory.file.internal;
