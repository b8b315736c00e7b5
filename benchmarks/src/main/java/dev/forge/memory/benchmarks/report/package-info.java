/**
 * Turns a JMH result file and the extras file into {@code benchmarks/results/latest.json} and
 * {@code docs/PERFORMANCE.md}: pairs each {@code <measure>_ours} with its {@code <measure>_baseline} and reports ratios.
 */
package dev.forge.memory.benchmarks.report;
