/**
 * A fuzz kit for any provider: hostile inputs without jqwik ({@code HostileInputs}), jqwik generators
 * ({@code FuzzInputs}) and abstract contracts a provider's test extends ({@code SpiFuzzContract}, {@code PathEscapeContract}).
 */
package dev.forge.memory.conformance.fuzz;
