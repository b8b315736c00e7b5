package dev.forge.memory.conformance;

/** Semantic and hybrid search where offered; a clean refusal where not. */
public abstract class SemanticSearchContract extends ContractSupport {
}
