/**
 * Benchmarks of the file provider: cold open against reading and JSON-parsing the same files raw, and {@code set}
 * into a large store against a small one.
 */
package dev.forge.memory.benchmarks.file;
