/**
 * Benchmarks of the markdown provider (cold open against reading and YAML-parsing the same files raw, {@code set}
 * into a large store against a small one), and the stores and data the file and MCP benchmarks share.
 */
package dev.forge.memory.benchmarks.markdown;
