/**
 * Benchmarks of the {@code forge-memory} command's start: one call of the launcher, a new JVM each time, against
 * {@code java -version}.
 */
package dev.forge.memory.benchmarks.cli;
