package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.Capability;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.UnsupportedCapabilityException;
import java.util.List;
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
    void capabilities_are_stable_and_cannot_be_changed_by_callers() {
        assertThat(provider.capabilities()).isEqualTo(provider.capabilities());
        assertThatThrownBy(() -> provider.capabilities().add(Capability.GRAPH)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void semantic_search_implies_keyword_search() {
        if (has(Capability.SEMANTIC_SEARCH)) {
            assertThat(provider.capabilities()).contains(Capability.KEYWORD_SEARCH);
        } else {
            assertThat(provider.capabilities()).doesNotContain(Capability.SEMANTIC_SEARCH);
        }
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

    private List<MemoryEntry> seed() {
        put("one", "first");
        put("two", "second");
        return everything();
    }

    private void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, Capability capability) {
        assertThatThrownBy(call).isInstanceOfSatisfying(UnsupportedCapabilityException.class, e -> {
            assertThat(e.capability()).isEqualTo(capability);
            assertThat(e.provider()).isEqualTo(provider.name());
            assertThat(e.getMessage()).contains(provider.name()).contains(capability.name());
        });
    }
}
