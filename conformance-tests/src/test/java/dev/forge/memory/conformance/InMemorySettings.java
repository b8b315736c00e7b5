package dev.forge.memory.conformance;

import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.support.SearchText;

/** The settings the suite's in-memory providers, built without their factory, take from the context's config block. */
final class InMemorySettings {

    /** The keys bound: {@code search_fields}, which the SearchFields group sets. */
    record Bound(SearchText searchFields) {
    }

    private InMemorySettings() {
    }

    /** The {@code search_fields} of {@code context}'s config, or the default. */
    static SearchText searchFields(ProviderContext context) {
        SearchText bound = context.config().bind(Bound.class).searchFields();
        return bound == null ? SearchText.DEFAULT : bound;
    }
}
