/**
 * The conformance suite: abstract JUnit 5 contracts every {@link dev.forge.memory.MemoryProvider} must pass.
 * A provider module extends {@link dev.forge.memory.conformance.MemoryProviderConformance} in one small test
 * class that says how to open its provider on a given store.
 */
package dev.forge.memory.conformance;
