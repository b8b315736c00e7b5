package dev.forge.memory.conformance;

/** Being written. */
public abstract class CapabilityContract extends ContractSupport {
}
