/**
 * Layered plugin memory on top of any provider: markdown documents under {@code projects/}, {@code skills/},
 * {@code commands/} and {@code agents/} keys, with a "Last Updated" line, staleness, size warnings and pruning.
 * Start at {@link dev.forge.memory.lifecycle.PluginMemory}.
 */
package dev.forge.memory.lifecycle;
