package dev.forge.memory.conformance;

/** Being written. */
public abstract class DurabilityContract extends ContractSupport {
}
