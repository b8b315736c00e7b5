/**
 * The hybrid router's cache-hit read beside a raw Caffeine {@code getIfPresent} on a cache of the same entries.
 */
package dev.forge.memory.benchmarks.hybrid;
