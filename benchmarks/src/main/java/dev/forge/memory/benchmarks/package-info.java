/**
 * JMH benchmarks of forge-memory, each beside a raw baseline of its backend in the same run on the same data, and the
 * report that turns a run into {@code benchmarks/results/latest.json} and {@code docs/PERFORMANCE.md}. Run with
 * {@code bin/bench [--quick]}.
 */
package dev.forge.memory.benchmarks;
