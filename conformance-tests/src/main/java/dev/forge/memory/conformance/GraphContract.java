package dev.forge.memory.conformance;

/** Typed relations: relate, unrelate, relations, traverse, cascades and isolation. */
public abstract class GraphContract extends ContractSupport {
}
