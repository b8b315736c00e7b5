package dev.forge.memory;

/**
 * Indexes on entry fields, present exactly when {@link Capability#FIELD_INDEX} is listed: seed 004's
 * {@code index(field, scope)}. An index changes how fast a query answers, never what: the same entries in the same
 * order. It covers every scope, project and session of the store, so it takes no scope.
 */
@FunctionalInterface
public interface FieldIndexing {

    /**
     * Creates, if missing, an index on {@code field}: {@code metadata.<name>} for the top-level metadata field
     * {@code <name>} (what {@link Query} equality filters read), or {@code key} or {@code tags}, which every provider
     * with this facet indexes already (a no-op). Idempotent; the index lasts as long as the store.
     *
     * @throws InvalidRequestException for another field, or a metadata name the backend cannot index, saying why
     */
    void index(String field);
}
