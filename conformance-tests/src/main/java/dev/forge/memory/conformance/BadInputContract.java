package dev.forge.memory.conformance;

/** Being written. */
public abstract class BadInputContract extends ContractSupport {
}
