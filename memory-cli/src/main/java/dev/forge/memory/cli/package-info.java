/**
 * The {@code forge-memory} command line tool: picocli commands over {@link dev.forge.memory.config.Memories}, with
 * human-readable or JSON output and one exit code per kind of failure ({@link dev.forge.memory.cli.ExitCodes}).
 */
package dev.forge.memory.cli;
