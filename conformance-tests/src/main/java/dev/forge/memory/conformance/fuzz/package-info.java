/**
 * A fuzz kit for any provider: fixed hostile inputs ({@code HostileInputs}), seeded generators ({@code Gen},
 * {@code FuzzInputs}, built on Instancio's) and abstract contracts a provider's test extends ({@code SpiFuzzContract}, {@code PathEscapeContract}).
 */
package dev.forge.memory.conformance.fuzz;
