package dev.forge.memory.conformance;

/** Version history: every version of a key, oldest first. */
public abstract class HistoryContract extends ContractSupport {
}
