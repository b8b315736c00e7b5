package dev.forge.memory.sqlite;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.support.ForwardingMemoryProvider;

/**
 * A provider without its {@link dev.forge.memory.support.KeyPages}, as a provider wrapping another (the hybrid router) is:
 * the transfer code reads it through query and history.
 */
final class QueryOnly extends ForwardingMemoryProvider {

    QueryOnly(MemoryProvider provider) {
        super(provider);
    }

    @Override
    public void close() {
        // the test closes the provider itself
    }
}
