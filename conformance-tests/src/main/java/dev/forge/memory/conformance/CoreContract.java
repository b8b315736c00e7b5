package dev.forge.memory.conformance;

/** Being written. */
public abstract class CoreContract extends ContractSupport {
}
