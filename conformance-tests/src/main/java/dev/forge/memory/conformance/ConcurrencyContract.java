package dev.forge.memory.conformance;

/** Being written. */
public abstract class ConcurrencyContract extends ContractSupport {
}
