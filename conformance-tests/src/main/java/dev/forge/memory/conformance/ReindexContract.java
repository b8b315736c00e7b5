package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Capability;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Reindexing;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Rebuilding derived indexes where offered ({@link Capability#REINDEX}): nothing stored changes, progress is
 * reported in order up to the total, searches find the same entries afterwards, and the store keeps working.
 */
@RequiresCapability(Capability.REINDEX)
public abstract class ReindexContract extends ContractSupport {

    @Test
    void reindex_changes_no_entry_of_any_scope() {
        provider.set("s", "a session note about caching", Scope.SESSION, List.of("t"), Map.of("n", 1));
        provider.set("p", "the project builds with maven", Scope.PROJECT);
        provider.set("g", "the user prefers short answers", Scope.GLOBAL);
        put("p", "the project builds with maven wrapper");
        List<MemoryEntry> before = everything();

        provider.requireReindexing().reindex();

        assertUnchanged(before);
        assertThat(provider.get("p", Scope.PROJECT).orElseThrow().version()).isEqualTo(2);
    }

    @Test
    void progress_rises_to_the_total_and_the_result_counts_every_entry() {
        for (int i = 0; i < 30; i++) {
            put("k" + i, "value number " + i);
        }
        List<long[]> reports = new ArrayList<>();
        Reindexing.ReindexResult result = provider.requireReindexing().reindex((done, total) -> reports.add(new long[] {done, total}));

        assertThat(reports).isNotEmpty();
        long last = -1;
        for (long[] report : reports) {
            assertThat(report[0]).isGreaterThanOrEqualTo(last).isLessThanOrEqualTo(report[1]);
            last = report[0];
        }
        long[] end = reports.get(reports.size() - 1);
        assertThat(end[0]).isEqualTo(end[1]);
        assertThat(result.entries()).isEqualTo(end[1]).isGreaterThanOrEqualTo(30);
        assertThat(result.took().isNegative()).isFalse();
    }

    @Test
    void an_empty_store_reindexes_to_nothing() {
        Reindexing.ReindexResult result = provider.requireReindexing().reindex();
        assertThat(result.entries()).isZero();
        assertThat(everything()).isEmpty();
    }

    @Test
    @RequiresCapability(Capability.KEYWORD_SEARCH)
    void searches_find_the_same_entries_after_a_reindex() {
        put("deploy", "Deploy the service to production on Fridays never");
        put("cache", "The cache expires entries after ten minutes");
        put("tests", "Run the integration tests before every merge");
        List<String> keyword = searchKeys(SearchMode.KEYWORD, "integration tests");
        List<String> semantic = has(Capability.SEMANTIC_SEARCH) ? searchKeys(SearchMode.SEMANTIC, "cache expiry time") : List.of();

        provider.requireReindexing().reindex();

        assertThat(searchKeys(SearchMode.KEYWORD, "integration tests")).isEqualTo(keyword).contains("tests");
        if (has(Capability.SEMANTIC_SEARCH)) {
            assertThat(searchKeys(SearchMode.SEMANTIC, "cache expiry time")).isEqualTo(semantic);
            assertThat(semantic.get(0)).isEqualTo("cache");
        }
    }

    @Test
    @RequiresCapability(Capability.KEYWORD_SEARCH)
    void writes_after_a_reindex_are_searchable_and_survive_a_reopen() {
        put("before", "written before the rebuild");
        provider.requireReindexing().reindex();
        MemoryEntry after = put("after", "written after the rebuild");
        assertThat(searchKeys(SearchMode.KEYWORD, "after rebuild")).contains("after");
        MemoryProvider reopened = reopen();
        assertThat(reopened.get("after", Scope.PROJECT)).contains(after);
        assertThat(keys(everything())).containsExactly("after", "before");
    }

    @Test
    @RequiresCapability(Capability.KEYWORD_SEARCH)
    void deleted_entries_stay_deleted_after_a_reindex() {
        put("gone", "an entry about deleted things");
        put("kept", "an entry about kept things");
        provider.delete("gone", Scope.PROJECT);
        provider.requireReindexing().reindex();
        assertThat(keys(everything())).containsExactly("kept");
        assertThat(searchKeys(SearchMode.KEYWORD, "entry things")).containsExactly("kept");
    }

    @Test
    void other_projects_keep_their_entries_through_a_reindex() {
        MemoryProvider other = open("project-b", SESSION);
        MemoryEntry theirs = other.set("theirs", "another project's note", Scope.PROJECT);
        put("ours", "our note");
        provider.requireReindexing().reindex();
        assertThat(other.get("theirs", Scope.PROJECT)).contains(theirs);
        assertThat(keys(everything())).containsExactly("ours");
    }

    private List<String> searchKeys(SearchMode mode, String text) {
        return hitKeys(provider.search(SearchRequest.builder(text).mode(mode).build()));
    }
}
