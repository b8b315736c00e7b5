package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.Capability;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.UnsupportedCapabilityException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The reported capabilities match the facets; a missing capability is refused with
 * {@link UnsupportedCapabilityException} naming the provider and the capability, and nothing changes.
 */
public abstract class CapabilityContract extends ContractSupport {

    @Test
    void graph_facet_is_present_exactly_when_graph_is_reported() {
        assertClaimHolds(Capability.GRAPH);
    }

    @Test
    void transactions_facet_is_present_exactly_when_transactions_are_reported() {
        assertClaimHolds(Capability.TRANSACTIONS);
    }

    @Test
    void history_facet_is_present_exactly_when_history_is_reported() {
        assertClaimHolds(Capability.HISTORY);
    }

    @Test
    void reindexing_facet_is_present_exactly_when_reindex_is_reported() {
        assertClaimHolds(Capability.REINDEX);
    }

    @Test
    void restoring_facet_is_present_exactly_when_restore_is_reported() {
        assertClaimHolds(Capability.RESTORE);
    }

    @Test
    void field_indexing_facet_is_present_exactly_when_field_index_is_reported() {
        assertClaimHolds(Capability.FIELD_INDEX);
    }

    @Test
    void keyword_search_is_answered_exactly_when_keyword_search_is_reported() {
        assertClaimHolds(Capability.KEYWORD_SEARCH);
    }

    @Test
    void semantic_search_is_answered_exactly_when_semantic_search_is_reported() {
        assertClaimHolds(Capability.SEMANTIC_SEARCH);
    }

    @Test
    void capabilities_are_stable_and_cannot_be_changed_by_callers() {
        assertThat(provider.capabilities()).isEqualTo(provider.capabilities());
        assertThatThrownBy(() -> provider.capabilities().add(Capability.GRAPH))
                .as("capabilities().add(GRAPH) on provider '%s' must throw UnsupportedOperationException", provider.name())
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void tombstones_imply_history() {
        assertThat(!has(Capability.TOMBSTONES) || has(Capability.HISTORY))
                .as("a provider reporting TOMBSTONES reports HISTORY too; it reports %s", provider.capabilities())
                .isTrue();
    }

    @Test
    void semantic_search_implies_keyword_search() {
        assertThat(!has(Capability.SEMANTIC_SEARCH) || has(Capability.KEYWORD_SEARCH))
                .as("a provider reporting SEMANTIC_SEARCH reports KEYWORD_SEARCH too; it reports %s", provider.capabilities())
                .isTrue();
    }

    @Test
    void name_capabilities_limits_and_facet_accessors_keep_answering_after_close() {
        String name = provider.name();
        Set<Capability> capabilities = provider.capabilities();
        Limits limits = provider.limits();
        // Compared with the facets before close, not with the claims: a wrong claim fails once, in its own check above.
        List<Boolean> facets = facetsPresent();
        provider.close();
        assertThat(provider.name()).isEqualTo(name);
        assertThat(provider.capabilities()).isEqualTo(capabilities);
        assertThat(provider.limits()).isEqualTo(limits);
        assertThat(facetsPresent()).as("graph(), transactions(), history(), reindexing(), restoring(), fieldIndexing() present after close")
                .isEqualTo(facets);
    }

    @Test
    @RequiresCapability(Capability.GRAPH)
    void require_graph_returns_the_facet_when_present() {
        assertThat(provider.requireGraph()).isSameAs(provider.graph().orElseThrow());
    }

    @Test
    @RequiresCapability(Capability.TRANSACTIONS)
    void require_transactions_returns_the_facet_when_present() {
        assertThat(provider.requireTransactions()).isSameAs(provider.transactions().orElseThrow());
    }

    @Test
    @RequiresCapability(Capability.HISTORY)
    void require_history_returns_the_facet_when_present() {
        assertThat(provider.requireHistory()).isSameAs(provider.history().orElseThrow());
    }

    @Test
    @RequiresCapability(Capability.REINDEX)
    void require_reindexing_returns_the_facet_when_present() {
        assertThat(provider.requireReindexing()).isSameAs(provider.reindexing().orElseThrow());
    }

    @Test
    @LacksCapability(Capability.REINDEX)
    void missing_reindexing_is_refused_naming_provider_and_capability_and_changes_nothing() {
        List<MemoryEntry> before = seed();
        assertRefused("requireReindexing()", () -> provider.requireReindexing(), Capability.REINDEX);
        assertUnchanged(before);
    }

    @Test
    @LacksCapability(Capability.GRAPH)
    void missing_graph_is_refused_naming_provider_and_capability_and_changes_nothing() {
        List<MemoryEntry> before = seed();
        assertRefused("requireGraph()", () -> provider.requireGraph(), Capability.GRAPH);
        assertUnchanged(before);
    }

    @Test
    @LacksCapability(Capability.TRANSACTIONS)
    void missing_transactions_are_refused_naming_provider_and_capability_and_change_nothing() {
        List<MemoryEntry> before = seed();
        assertRefused("requireTransactions()", () -> provider.requireTransactions(), Capability.TRANSACTIONS);
        assertUnchanged(before);
    }

    @Test
    @LacksCapability(Capability.HISTORY)
    void missing_history_is_refused_naming_provider_and_capability_and_changes_nothing() {
        List<MemoryEntry> before = seed();
        assertRefused("requireHistory()", () -> provider.requireHistory(), Capability.HISTORY);
        assertUnchanged(before);
    }

    @Test
    @RequiresCapability(Capability.RESTORE)
    void require_restoring_returns_the_facet_when_present() {
        assertThat(provider.requireRestoring()).isSameAs(provider.restoring().orElseThrow());
    }

    @Test
    @LacksCapability(Capability.RESTORE)
    void missing_restoring_is_refused_naming_provider_and_capability_and_changes_nothing() {
        List<MemoryEntry> before = seed();
        assertRefused("requireRestoring()", () -> provider.requireRestoring(), Capability.RESTORE);
        assertUnchanged(before);
    }

    @Test
    @RequiresCapability(Capability.FIELD_INDEX)
    void require_field_indexing_returns_the_facet_when_present() {
        assertThat(provider.requireFieldIndexing()).isSameAs(provider.fieldIndexing().orElseThrow());
    }

    @Test
    @LacksCapability(Capability.FIELD_INDEX)
    void missing_field_indexing_is_refused_naming_provider_and_capability_and_changes_nothing() {
        List<MemoryEntry> before = seed();
        assertRefused("requireFieldIndexing()", () -> provider.requireFieldIndexing().index("metadata.lang"),
                Capability.FIELD_INDEX);
        assertUnchanged(before);
    }

    /**
     * Asserts that the provider does what it reports for {@code capability}: the one test that fails for a wrong
     * claim, while the tests that depend on the capability are skipped naming it.
     */
    private void assertClaimHolds(Capability capability) {
        assertThat(CapabilityClaim.mismatch(provider, capability))
                .as("what provider '%s' reports for %s against what it does (capabilities(): %s)",
                        provider.name(), capability, provider.capabilities())
                .isEmpty();
    }

    private List<Boolean> facetsPresent() {
        return List.of(provider.graph().isPresent(), provider.transactions().isPresent(), provider.history().isPresent(),
                provider.reindexing().isPresent(), provider.restoring().isPresent(), provider.fieldIndexing().isPresent());
    }

    private List<MemoryEntry> seed() {
        put("one", "first");
        put("two", "second");
        return everything();
    }
}
