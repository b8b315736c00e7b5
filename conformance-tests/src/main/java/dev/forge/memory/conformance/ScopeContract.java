package dev.forge.memory.conformance;

/** Being written. */
public abstract class ScopeContract extends ContractSupport {
}
