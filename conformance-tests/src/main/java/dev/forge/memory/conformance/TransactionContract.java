package dev.forge.memory.conformance;

/** Transactions: atomic commit, rollback, isolation of uncommitted writes. */
public abstract class TransactionContract extends ContractSupport {
}
