/**
 * Implementation of {@link dev.forge.memory.lifecycle}: section parsing, per-key locks, quality rules and the
 * read-modify-write plumbing. Not an API.
 */
package dev.forge.memory.lifecycle.internal;
