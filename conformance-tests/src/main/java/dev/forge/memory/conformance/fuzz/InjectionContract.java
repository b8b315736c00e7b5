package dev.forge.memory.conformance.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.Capability;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.Query;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.conformance.ContractSupport;
import dev.forge.memory.conformance.Reliability;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Query-language injection (SQL, FTS5, Cypher) through keys, values, tags, metadata field names and values, query
 * patterns, search texts and relation types changes nothing but the one entry written: every entry, relation and
 * (with {@link Capability#HISTORY}) every earlier version is snapshotted before each hostile operation and compared
 * after it. Hostile text is stored verbatim; a hostile relation type is refused with {@link InvalidRequestException}.
 */
@Tag(Reliability.TAG)
public abstract class InjectionContract extends ContractSupport {

    /** SQL, FTS5 and Cypher fragments, each trying to break out of a quoted string or a query. */
    public static List<String> injections() {
        return List.of("x'); DROP TABLE entries; --", "'; DELETE FROM entries; --", "' OR '1'='1", "\" OR \"\"=\"",
                "1; UPDATE entries SET value='pwned' --", "x' UNION SELECT key, value FROM entries --", "%' --", "_",
                "\\'", "NEAR(", "NEAR(a b, 1)", "\"", "*", "^", "a OR b", "col : a", "{a b}: c", "- a", "a AND NOT b",
                "x\"}) MATCH (n) DETACH DELETE n //", "x'}) MATCH (n) DETACH DELETE n //", "`) DETACH DELETE n //",
                "x' OR 1=1 WITH n MATCH (m) SET m.value = 'pwned' //", "$key", "{key}", "\\u0027) DETACH DELETE n //");
    }

    /** The provider's name in the reliability figures. */
    protected abstract String providerName();

    /** The hostile texts this provider is tried with: all of {@link #injections()} unless a slow backend picks fewer. */
    protected List<String> hostileTexts() {
        return injections();
    }

    @Test
    void injected_query_syntax_is_stored_verbatim_or_refused_and_changes_nothing_else() {
        seed();
        Map<String, Object> before = snapshot();
        int operations = 0;
        for (String text : hostileTexts()) {
            MemoryEntry written = provider.set(text, text, Scope.PROJECT, List.of(text), Map.of(text, text, "v", text));
            assertThat(provider.get(text, Scope.PROJECT)).contains(written);
            assertThat(written.value()).isEqualTo(text);
            assertThat(written.tags()).containsExactly(text);
            assertThat(written.metadata()).isEqualTo(new TreeMap<>(Map.of(text, text, "v", text)));
            List<MemoryEntry> found = typed(() -> provider.query(Query.builder().pattern(text).build())).orElse(List.of());
            assertThat(found).allSatisfy(entry -> assertThat(List.of(written, seeded("a"), seeded("b"), provider.get("g", Scope.GLOBAL).orElseThrow())).contains(entry));
            typed(() -> provider.query(Query.builder().tags(List.of(text)).build())).ifPresent(tagged ->
                    assertThat(tagged).containsExactly(written));
            typed(() -> provider.search(SearchRequest.keyword(text)));
            operations += 5;
            Optional<MemoryGraph> graph = provider.graph();
            if (graph.isPresent()) {
                EntryRef a = EntryRef.of("a", Scope.PROJECT);
                assertThatThrownBy(() -> graph.get().relate(a, written.ref(), text)).isInstanceOf(InvalidRequestException.class);
                assertThatThrownBy(() -> graph.get().unrelate(a, EntryRef.of("b", Scope.PROJECT), text))
                        .isInstanceOf(InvalidRequestException.class);
                graph.get().relate(written.ref(), a, "HOSTILE");
                assertThat(graph.get().relations(written.ref(), Direction.OUTGOING)).extracting(Relation::to).containsExactly(a);
                assertThat(graph.get().unrelate(written.ref(), a, "HOSTILE")).isTrue();
                operations += 4;
            }
            assertThat(provider.delete(text, Scope.PROJECT)).isTrue();
            operations++;
            assertThat(snapshot()).as("everything after the hostile text '" + text + "'").isEqualTo(before);
        }
        Reliability.report("injection", providerName(), "hostile operations", operations);
    }

    private MemoryEntry seeded(String key) {
        return provider.get(key, Scope.PROJECT).orElseThrow();
    }

    /** Three entries with tags, metadata, a second version each, and relations between them. */
    private void seed() {
        for (String key : List.of("a", "b")) {
            provider.set(key, "first " + key, Scope.PROJECT, List.of("seed"), Map.of("n", 1L));
            provider.set(key, "second " + key + " entries", Scope.PROJECT, List.of("seed", key), Map.of("n", 2L));
        }
        provider.set("g", "global entries", Scope.GLOBAL, List.of("seed"), Map.of());
        provider.graph().ifPresent(graph -> {
            graph.relate(EntryRef.of("a", Scope.PROJECT), EntryRef.of("b", Scope.PROJECT), "DEPENDS_ON");
            graph.relate(EntryRef.of("b", Scope.PROJECT), EntryRef.of("g", Scope.GLOBAL), "FOLLOWS");
        });
    }

    /** Every entry of every scope, every relation of each, and every earlier version where history is kept. */
    private Map<String, Object> snapshot() {
        Map<String, Object> snapshot = new TreeMap<>();
        List<MemoryEntry> entries = provider.query(Query.builder().scopes(Scope.values()).limit(Query.UNLIMITED).build());
        snapshot.put("entries", entries);
        List<Object> relations = new ArrayList<>();
        List<Object> versions = new ArrayList<>();
        for (MemoryEntry entry : entries) {
            provider.graph().ifPresent(graph -> relations.add(graph.relations(entry.ref(), Direction.BOTH)));
            provider.history().ifPresent(history -> versions.add(history.versions(entry.key(), entry.scope())));
        }
        snapshot.put("relations", relations);
        snapshot.put("versions", versions);
        return snapshot;
    }

    private static <T> Optional<T> typed(java.util.function.Supplier<T> call) {
        try {
            return Optional.of(call.get());
        } catch (MemoryException e) {
            return Optional.empty();
        }
    }
}
