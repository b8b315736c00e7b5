package dev.forge.memory.conformance;

/** Keyword search: matching, ranking, scores, threshold, limit, scopes and filters. */
public abstract class KeywordSearchContract extends ContractSupport {
}
