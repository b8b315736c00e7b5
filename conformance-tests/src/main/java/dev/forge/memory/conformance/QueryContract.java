package dev.forge.memory.conformance;

/** Query patterns, filters, order, limit and offset. */
public abstract class QueryContract extends ContractSupport {
}
