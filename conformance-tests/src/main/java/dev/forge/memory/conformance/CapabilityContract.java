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
        assertThat(provider.graph().isPresent()).isEqualTo(has(Capability.GRAPH));
    }

    @Test
    void transactions_facet_is_present_exactly_when_transactions_are_reported() {
        assertThat(provider.transactions().isPresent()).isEqualTo(has(Capability.TRANSACTIONS));
    }

    @Test
    void history_facet_is_present_exactly_when_history_is_reported() {
        assertThat(provider.history().isPresent()).isEqualTo(has(Capability.HISTORY));
    }

    @Test
    void reindexing_facet_is_present_exactly_when_reindex_is_reported() {
        assertThat(provider.reindexing().isPresent()).isEqualTo(has(Capability.REINDEX));
    }

    @Test
    void restoring_facet_is_present_exactly_when_restore_is_reported() {
        assertThat(provider.restoring().isPresent()).isEqualTo(has(Capability.RESTORE));
    }

    @Test
    void capabilities_are_stable_and_cannot_be_changed_by_callers() {
        assertThat(provider.capabilities()).isEqualTo(provider.capabilities());
        assertThatThrownBy(() -> provider.capabilities().add(Capability.GRAPH)).isInstanceOf(UnsupportedOperationException.class);
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
        provider.close();
        assertThat(provider.name()).isEqualTo(name);
        assertThat(provider.capabilities()).isEqualTo(capabilities);
        assertThat(provider.limits()).isEqualTo(limits);
        assertThat(provider.graph().isPresent()).isEqualTo(capabilities.contains(Capability.GRAPH));
        assertThat(provider.transactions().isPresent()).isEqualTo(capabilities.contains(Capability.TRANSACTIONS));
        assertThat(provider.history().isPresent()).isEqualTo(capabilities.contains(Capability.HISTORY));
        assertThat(provider.reindexing().isPresent()).isEqualTo(capabilities.contains(Capability.REINDEX));
        assertThat(provider.restoring().isPresent()).isEqualTo(capabilities.contains(Capability.RESTORE));
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
        assertRefused(() -> provider.requireReindexing(), Capability.REINDEX);
        assertUnchanged(before);
    }

    @Test
    @LacksCapability(Capability.GRAPH)
    void missing_graph_is_refused_naming_provider_and_capability_and_changes_nothing() {
        List<MemoryEntry> before = seed();
        assertRefused(() -> provider.requireGraph(), Capability.GRAPH);
        assertUnchanged(before);
    }

    @Test
    @LacksCapability(Capability.TRANSACTIONS)
    void missing_transactions_are_refused_naming_provider_and_capability_and_change_nothing() {
        List<MemoryEntry> before = seed();
        assertRefused(() -> provider.requireTransactions(), Capability.TRANSACTIONS);
        assertUnchanged(before);
    }

    @Test
    @LacksCapability(Capability.HISTORY)
    void missing_history_is_refused_naming_provider_and_capability_and_changes_nothing() {
        List<MemoryEntry> before = seed();
        assertRefused(() -> provider.requireHistory(), Capability.HISTORY);
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
        assertRefused(() -> provider.requireRestoring(), Capability.RESTORE);
        assertUnchanged(before);
    }

    private List<MemoryEntry> seed() {
        put("one", "first");
        put("two", "second");
        return everything();
    }
}
