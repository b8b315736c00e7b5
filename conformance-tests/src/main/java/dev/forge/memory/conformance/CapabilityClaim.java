package dev.forge.memory.conformance;

import dev.forge.memory.Capability;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.UnsupportedCapabilityException;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a provider does what it reports for one capability. {@link CapabilityContract} checks each claim in one
 * test; every other contract asks here before running a test that depends on the capability and skips it, naming
 * that check, when the claim is wrong: one wrong claim is one failure, not one per dependent test.
 */
final class CapabilityClaim {

    /** The {@link CapabilityContract} test that checks each capability's claim; TOMBSTONES cannot be checked without writing. */
    static final Map<Capability, String> CHECKS = Map.of(
            Capability.GRAPH, "graph_facet_is_present_exactly_when_graph_is_reported",
            Capability.TRANSACTIONS, "transactions_facet_is_present_exactly_when_transactions_are_reported",
            Capability.HISTORY, "history_facet_is_present_exactly_when_history_is_reported",
            Capability.REINDEX, "reindexing_facet_is_present_exactly_when_reindex_is_reported",
            Capability.RESTORE, "restoring_facet_is_present_exactly_when_restore_is_reported",
            Capability.FIELD_INDEX, "field_indexing_facet_is_present_exactly_when_field_index_is_reported",
            Capability.KEYWORD_SEARCH, "keyword_search_is_answered_exactly_when_keyword_search_is_reported",
            Capability.SEMANTIC_SEARCH, "semantic_search_is_answered_exactly_when_semantic_search_is_reported");

    private CapabilityClaim() {
    }

    /**
     * How the provider's claim of a facet capability (GRAPH, TRANSACTIONS, HISTORY, REINDEX, RESTORE, FIELD_INDEX) disagrees
     * with its facet accessor; empty when they agree or the capability has no facet. Reads accessors only.
     */
    static Optional<String> facetMismatch(MemoryProvider provider, Capability capability) {
        Optional<?> facet = switch (capability) {
            case GRAPH -> provider.graph();
            case TRANSACTIONS -> provider.transactions();
            case HISTORY -> provider.history();
            case REINDEX -> provider.reindexing();
            case RESTORE -> provider.restoring();
            case FIELD_INDEX -> provider.fieldIndexing();
            default -> null;
        };
        if (facet == null) {
            return Optional.empty();
        }
        boolean reported = provider.capabilities().contains(capability);
        if (reported == facet.isPresent()) {
            return Optional.empty();
        }
        String accessor = accessor(capability);
        return Optional.of(reported
                ? "provider '" + provider.name() + "' reports " + capability + " but " + accessor + " is empty"
                : "provider '" + provider.name() + "' does not report " + capability + " but " + accessor + " is present");
    }

    /**
     * How the provider's claim of a search capability (KEYWORD_SEARCH, SEMANTIC_SEARCH) disagrees with what a
     * search in that mode does; empty when they agree or the capability is not a search. Runs one search, so call
     * it before a test writes anything, never in the middle of one.
     */
    static Optional<String> searchMismatch(MemoryProvider provider, Capability capability) {
        SearchMode mode = switch (capability) {
            case KEYWORD_SEARCH -> SearchMode.KEYWORD;
            case SEMANTIC_SEARCH -> SearchMode.SEMANTIC;
            default -> null;
        };
        if (mode == null) {
            return Optional.empty();
        }
        boolean reported = provider.capabilities().contains(capability);
        try {
            provider.search(SearchRequest.builder("capability probe").mode(mode).limit(1).build());
        } catch (UnsupportedCapabilityException refused) {
            return reported
                    ? Optional.of("provider '" + provider.name() + "' reports " + capability + " but refused search("
                            + mode + "): " + refused.getMessage())
                    : Optional.empty();
        } catch (RuntimeException otherFailure) {
            // Not a question of the claim: the test that depends on the search meets the same failure and reports it.
            return Optional.empty();
        }
        return reported
                ? Optional.empty()
                : Optional.of("provider '" + provider.name() + "' does not report " + capability + " but answered search("
                        + mode + ") instead of refusing it");
    }

    /** Either kind of mismatch: see {@link #facetMismatch} and {@link #searchMismatch}. */
    static Optional<String> mismatch(MemoryProvider provider, Capability capability) {
        return facetMismatch(provider, capability).or(() -> searchMismatch(provider, capability));
    }

    /** The reason a test that depends on a wrongly claimed capability is skipped: the mismatch and where it fails. */
    static String skipReason(String mismatch, Capability capability) {
        return mismatch + "; this test depends on " + capability + " and is skipped: the claim fails once, in "
                + "Capabilities > " + CHECKS.get(capability);
    }

    private static String accessor(Capability capability) {
        return switch (capability) {
            case GRAPH -> "graph()";
            case TRANSACTIONS -> "transactions()";
            case HISTORY -> "history()";
            case REINDEX -> "reindexing()";
            case FIELD_INDEX -> "fieldIndexing()";
            default -> "restoring()";
        };
    }
}
