package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Capability;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Semantic and hybrid search where offered; a clean refusal where not (and, since
 * {@link KeywordSearchContract} as a whole needs keyword search, the refusal of keyword search too).
 *
 * <p>The texts share words as well as meaning with the queries, so that the tests hold for a real embedding
 * model and for a simple bag-of-words one alike; no test depends on exact score values.
 */
public abstract class SemanticSearchContract extends ContractSupport {

    private static final String FINANCE = "Quarterly revenue grew by twelve percent";

    // ---------------------------------------------------------------- semantic search

    @Test
    @RequiresCapability(Capability.SEMANTIC_SEARCH)
    void semantic_hits_are_sorted_by_score_within_range() {
        seedTopics();
        List<Hit> hits = semantic(SearchRequest.builder("quarterly revenue report"));
        assertThat(hits).hasSizeGreaterThanOrEqualTo(2);
        assertThat(hits).allSatisfy(hit -> assertThat(hit.score()).isGreaterThan(0.0).isLessThanOrEqualTo(1.0));
        assertThat(hits).extracting(Hit::score).isSortedAccordingTo((a, b) -> Double.compare(b, a));
        assertThat(hitKeys(hits)).doesNotHaveDuplicates();
    }

    @Test
    @RequiresCapability(Capability.SEMANTIC_SEARCH)
    void entry_whose_text_equals_the_query_ranks_first() {
        seedTopics();
        assertThat(semantic(SearchRequest.builder(FINANCE)).get(0).entry().key()).isEqualTo("finance");
        assertThat(semantic(SearchRequest.builder("The cat sat on the warm windowsill")).get(0).entry().key()).isEqualTo("pets");
    }

    @Test
    @RequiresCapability(Capability.SEMANTIC_SEARCH)
    void semantic_search_respects_the_limit() {
        seedDeployments();
        assertThat(semantic(SearchRequest.builder("deploy the service to production").limit(2))).hasSize(2);
        assertThat(semantic(SearchRequest.builder("deploy the service to production").limit(1))).hasSize(1);
        assertThat(semantic(SearchRequest.builder("deploy the service to production").limit(50))).hasSize(5);
    }

    @Test
    @RequiresCapability(Capability.SEMANTIC_SEARCH)
    void semantic_threshold_excludes_lower_scores() {
        seedDeployments();
        List<Hit> all = semantic(SearchRequest.builder("deploy the service to production").limit(50));
        int lastOfTop = firstDrop(all);
        double between = (all.get(lastOfTop).score() + all.get(lastOfTop + 1).score()) / 2;
        List<Hit> top = semantic(SearchRequest.builder("deploy the service to production").limit(50).threshold(between));
        assertThat(hitKeys(top)).containsExactlyElementsOf(hitKeys(all.subList(0, lastOfTop + 1)));
        assertThat(top).allSatisfy(hit -> assertThat(hit.score()).isGreaterThanOrEqualTo(between));
    }

    @Test
    @RequiresCapability(Capability.SEMANTIC_SEARCH)
    void semantic_search_looks_only_in_the_given_scopes() {
        provider.set("in-session", FINANCE, Scope.SESSION);
        put("in-project", FINANCE);
        provider.set("in-global", FINANCE, Scope.GLOBAL);
        assertThat(hitKeys(semantic(SearchRequest.builder(FINANCE).scopes(Scope.PROJECT)))).containsExactly("in-project");
        assertThat(hitKeys(semantic(SearchRequest.builder(FINANCE).scopes(Scope.SESSION, Scope.GLOBAL))))
                .containsExactlyInAnyOrder("in-session", "in-global");
    }

    @Test
    @RequiresCapability(Capability.SEMANTIC_SEARCH)
    void semantic_filters_apply_before_the_limit() {
        // the best neighbours are filtered out: a provider that filters after cutting the top k finds nothing
        for (int i = 1; i <= 5; i++) {
            put("close-" + i, FINANCE, List.of("other"), Map.of("team", "sales"));
        }
        put("wanted", "Quarterly revenue grew by nine percent", List.of("wanted"), Map.of("team", "finance"));
        put("wanted-wrong-team", "Quarterly revenue grew by eight percent", List.of("wanted"), Map.of("team", "sales"));
        assertThat(hitKeys(semantic(SearchRequest.builder(FINANCE).tag("wanted").metadata("team", "finance").limit(1))))
                .containsExactly("wanted");
        assertThat(hitKeys(semantic(SearchRequest.builder(FINANCE).tag("wanted").limit(5))))
                .containsExactlyInAnyOrder("wanted", "wanted-wrong-team");
    }

    @Test
    @RequiresCapability(Capability.SEMANTIC_SEARCH)
    void semantic_search_follows_updates_and_deletes() {
        seedTopics();
        put("note", "The cat sat on the warm windowsill");
        MemoryEntry updated = put("note", "Simmer the tomato sauce for twenty minutes, then add basil");
        List<Hit> hits = semantic(SearchRequest.builder("Simmer the tomato sauce for twenty minutes, then add basil"));
        assertThat(hits.get(0).entry()).isEqualTo(updated);
        provider.delete("note", Scope.PROJECT);
        assertThat(hitKeys(semantic(SearchRequest.builder("Simmer the tomato sauce for twenty minutes, then add basil").limit(50))))
                .doesNotContain("note");
    }

    // ---------------------------------------------------------------- hybrid search

    @Test
    @RequiresCapability(Capability.SEMANTIC_SEARCH)
    void hybrid_search_ranks_an_exact_keyword_match_first() {
        seedTopics();
        put("zanzibar", "The Zanzibar rollout uses blue-green switching");
        List<Hit> hits = provider.search(SearchRequest.builder("Zanzibar").mode(SearchMode.HYBRID).build());
        assertThat(hits.get(0).entry().key()).isEqualTo("zanzibar");
        assertThat(hits).allSatisfy(hit -> assertThat(hit.score()).isGreaterThan(0.0).isLessThanOrEqualTo(1.0));
        assertThat(hits).extracting(Hit::score).isSortedAccordingTo((a, b) -> Double.compare(b, a));
    }

    @Test
    @RequiresCapability(Capability.SEMANTIC_SEARCH)
    void hybrid_search_respects_limit_scopes_and_filters() {
        seedDeployments();
        provider.set("session-deploy", "deploy the service to production today", Scope.SESSION, List.of("ops"), Map.of());
        put("tagged-deploy", "deploy the service to production tonight", List.of("ops"), Map.of("env", "prod"));
        SearchRequest.Builder request = SearchRequest.builder("deploy the service to production").mode(SearchMode.HYBRID);
        assertThat(provider.search(request.limit(2).build())).hasSize(2);
        assertThat(hitKeys(provider.search(SearchRequest.builder("deploy the service to production").mode(SearchMode.HYBRID)
                .scopes(Scope.PROJECT).tag("ops").build()))).containsExactly("tagged-deploy");
        assertThat(hitKeys(provider.search(SearchRequest.builder("deploy the service to production").mode(SearchMode.HYBRID)
                .metadata("env", "prod").build()))).containsExactly("tagged-deploy");
        assertThat(hitKeys(provider.search(SearchRequest.builder("deploy the service to production").mode(SearchMode.HYBRID)
                .scopes(Scope.SESSION).build()))).containsExactly("session-deploy");
    }

    @Test
    @RequiresCapability(Capability.SEMANTIC_SEARCH)
    void other_projects_and_sessions_are_invisible_to_semantic_and_hybrid_search() {
        MemoryProvider otherProject = open("project-b", "session-2");
        MemoryProvider otherSession = open(PROJECT, "session-2");
        put("mine", "Quarterly revenue grew by a little");
        otherProject.set("other-project", FINANCE, Scope.PROJECT);
        otherProject.set("other-project-session", FINANCE, Scope.SESSION);
        otherSession.set("other-session", FINANCE, Scope.SESSION);
        otherProject.set("shared-global", FINANCE + " worldwide", Scope.GLOBAL);
        for (SearchMode mode : List.of(SearchMode.SEMANTIC, SearchMode.HYBRID)) {
            List<String> found = hitKeys(provider.search(SearchRequest.builder(FINANCE).mode(mode).limit(50).build()));
            assertThat(found).as("%s search", mode).contains("mine", "shared-global")
                    .doesNotContain("other-project", "other-project-session", "other-session");
        }
    }

    // ---------------------------------------------------------------- refusal where missing

    @Test
    @LacksCapability(Capability.SEMANTIC_SEARCH)
    void semantic_search_is_refused_naming_provider_and_capability_and_changes_nothing() {
        List<MemoryEntry> before = seedTopics();
        SearchRequest request = SearchRequest.builder(FINANCE).mode(SearchMode.SEMANTIC).build();
        assertRefused("search(SEMANTIC)", () -> provider.search(request), Capability.SEMANTIC_SEARCH);
        assertUnchanged(before);
    }

    @Test
    @LacksCapability(Capability.SEMANTIC_SEARCH)
    void hybrid_search_is_refused_naming_provider_and_capability_and_changes_nothing() {
        List<MemoryEntry> before = seedTopics();
        SearchRequest request = SearchRequest.builder(FINANCE).mode(SearchMode.HYBRID).scopes(Scope.PROJECT).limit(3).build();
        assertRefused("search(HYBRID)", () -> provider.search(request), Capability.SEMANTIC_SEARCH);
        assertUnchanged(before);
    }

    @Test
    @LacksCapability(Capability.KEYWORD_SEARCH)
    void keyword_search_is_refused_naming_provider_and_capability_and_changes_nothing() {
        List<MemoryEntry> before = seedTopics();
        assertRefused("search(KEYWORD)", () -> provider.search(SearchRequest.keyword("revenue")), Capability.KEYWORD_SEARCH);
        assertUnchanged(before);
    }

    // ---------------------------------------------------------------- helpers

    /** Five entries on clearly different topics, in several scopes; returns everything the provider sees. */
    private List<MemoryEntry> seedTopics() {
        put("finance", FINANCE);
        put("costs", "Operating costs and revenue forecast for the next quarter", List.of("finance"), Map.of());
        put("pets", "The cat sat on the warm windowsill");
        provider.set("build", "Install the JDK before building the project", Scope.GLOBAL);
        provider.set("weather", "Heavy rain is expected over the weekend", Scope.SESSION);
        return everything();
    }

    /** Five entries close to "deploy the service to production", none identical to it. */
    private void seedDeployments() {
        put("deploy-friday", "deploy the service to production on friday");
        put("deploy-staging", "deploy the service to staging on monday");
        put("deploy-worker", "deploy the worker to production on tuesday");
        put("deploy-review", "deploy the service to production after review");
        put("rollback", "roll back the service in production");
    }

    private List<Hit> semantic(SearchRequest.Builder request) {
        return provider.search(request.mode(SearchMode.SEMANTIC).build());
    }
}
