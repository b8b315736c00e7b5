package dev.forge.memory.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;

/**
 * A transaction's commit and a batch of restores go to Neo4j as a few {@code UNWIND} statements whatever the number of
 * keys (counted with Neo4j's query collector, {@code db.stats.collect}), and leave the same nodes, chains, histories
 * and relations as the same writes made one by one.
 */
class GraphBatchedWritesTest {

    private static final Instant T1 = Instant.parse("2021-03-04T05:06:07.008Z");
    private static final Instant T2 = Instant.parse("2022-05-06T07:08:09.010Z");

    /** More than any per-key statement count could stay under, and the collector's 100 invocations per query. */
    private static final int KEYS = 150;

    @TempDir
    Path directory;

    private final String project = "batch-test-" + UUID.randomUUID();
    private MemoryProvider provider;
    private Driver driver;

    @BeforeEach
    void open() {
        provider = GraphTestStores.open(directory, project, Map.of());
        driver = GraphTestStores.driver();
    }

    @AfterEach
    void close() {
        provider.close();
        driver.close();
    }

    /**
     * Runs {@code work} and returns how many times the server ran each statement meanwhile, at most 100 each (the
     * collector's limit). The collector records queries from a queue, late: a fence query before and after the work,
     * each awaited in the collected data, keeps earlier and pending statements out.
     */
    private Map<String, Integer> statementsDuring(Runnable work) {
        try (Session session = driver.session()) {
            session.run("CALL db.stats.collect('QUERIES')").consume();
            fence(session);
            session.run("CALL db.stats.stop('QUERIES')").consume();
            session.run("CALL db.stats.clear('QUERIES')").consume();
            session.run("CALL db.stats.collect('QUERIES')").consume();
            try {
                work.run();
                fence(session);
            } finally {
                session.run("CALL db.stats.stop('QUERIES')").consume();
            }
            Map<String, Integer> statements = collected(session);
            statements.keySet().removeIf(query -> query.contains("db.stats") || query.contains("fence"));
            return statements;
        }
    }

    /** Runs a query of its own and waits until the collector holds it, so that every earlier query is collected. */
    private static void fence(Session session) {
        String fence = "RETURN 'fence " + UUID.randomUUID() + "' AS fence";
        session.run(fence).consume();
        for (int attempt = 0; attempt < 600 && !collected(session).containsKey(fence); attempt++) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        assertThat(collected(session)).as("the query collector never recorded the fence").containsKey(fence);
    }

    private static Map<String, Integer> collected(Session session) {
        Map<String, Integer> statements = new java.util.TreeMap<>();
        for (Value data : session.run("CALL db.stats.retrieve('QUERIES') YIELD data RETURN data").list(r -> r.get("data"))) {
            statements.merge(data.get("query").asString(), data.get("invocations").size(), Integer::sum);
        }
        return statements;
    }

    @Test
    void a_commit_of_many_new_keys_is_a_few_statements() {
        MemoryTransaction tx = provider.requireTransactions().begin();
        for (int i = 0; i < KEYS; i++) {
            tx.set("new-" + i, "value " + i, Scope.PROJECT, List.of("batch"), Map.of("n", i));
        }

        Map<String, Integer> statements = statementsDuring(tx::commit);

        assertThat(total(statements)).as("%s", statements).isBetween(1, 6);
        assertThat(provider.get("new-7", Scope.PROJECT)).get().extracting(MemoryEntry::version, MemoryEntry::tags)
                .containsExactly(1L, List.of("batch"));
        assertThat(provider.search(SearchRequest.builder("value 149").limit(1).build()))
                .extracting(h -> h.entry().key()).containsExactly("new-149");
    }

    @Test
    void set_all_reads_every_key_it_has_not_seen_in_one_statement() {
        provider.set("old-3", "stored", Scope.PROJECT);
        List<MemoryTransaction.Write> writes = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            writes.add(new MemoryTransaction.Write("old-" + i, "value " + i, Scope.PROJECT, List.of("batch"), Map.of("n", i)));
        }
        MemoryTransaction tx = provider.requireTransactions().begin();
        List<MemoryEntry> written = new ArrayList<>();

        Map<String, Integer> statements = statementsDuring(() -> written.addAll(tx.setAll(writes)));

        assertThat(total(statements)).as("%s", statements).isEqualTo(1);
        assertThat(written).extracting(MemoryEntry::version).containsOnly(1L, 2L);
        assertThat(written.get(3).version()).isEqualTo(2);
        tx.commit();
        assertThat(provider.get("old-3", Scope.PROJECT)).contains(written.get(3));
        assertThat(provider.get("old-149", Scope.PROJECT)).contains(written.get(149));
    }

    @Test
    void a_commit_over_existing_keys_with_deletions_is_a_few_statements() {
        MemoryTransaction fill = provider.requireTransactions().begin();
        for (int i = 0; i < KEYS; i++) {
            fill.set("old-" + i, "first " + i, Scope.PROJECT);
        }
        fill.commit();
        MemoryTransaction tx = provider.requireTransactions().begin();
        for (int i = 0; i < KEYS; i++) {
            if (i % 2 == 0) {
                tx.set("old-" + i, "second " + i, Scope.PROJECT);
            } else {
                tx.delete("old-" + i, Scope.PROJECT);
            }
        }

        Map<String, Integer> statements = statementsDuring(tx::commit);

        assertThat(total(statements)).as("%s", statements).isBetween(1, 8);
        assertThat(provider.requireHistory().versions("old-4", Scope.PROJECT)).extracting(MemoryEntry::value)
                .containsExactly("first 4", "second 4");
        assertThat(provider.get("old-5", Scope.PROJECT)).isEmpty();
        // the tombstone took version 2: the key counts on from it
        assertThat(provider.set("old-5", "again", Scope.PROJECT).version()).isEqualTo(3);
    }

    @Test
    void a_batch_of_restores_is_a_few_statements() {
        List<List<MemoryEntry>> chains = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            chains.add(List.of(entry("r-" + i, "older " + i, 1, T1), entry("r-" + i, "newer " + i, 2, T2)));
        }

        Map<String, Integer> statements = statementsDuring(() -> provider.requireRestoring().restoreAll(chains));

        assertThat(total(statements)).as("%s", statements).isBetween(1, 6);
        assertThat(provider.requireHistory().versions("r-9", Scope.PROJECT)).containsExactlyElementsOf(chains.get(9));
    }

    @Test
    void a_key_restored_twice_in_one_batch_keeps_the_later_chain_and_its_relations() {
        provider.set("twice", "before", Scope.PROJECT);
        provider.set("other", "other", Scope.PROJECT);
        EntryRef twice = new EntryRef("twice", Scope.PROJECT);
        provider.requireGraph().relate(twice, new EntryRef("other", Scope.PROJECT), "DEPENDS_ON");
        List<MemoryEntry> first = List.of(entry("twice", "a", 1, T1), entry("twice", "b", 2, T2));
        List<MemoryEntry> second = List.of(entry("twice", "c", 4, T1), entry("twice", "d", 5, T2));

        provider.requireRestoring().restoreAll(List.of(first, second));

        assertThat(provider.requireHistory().versions("twice", Scope.PROJECT)).containsExactlyElementsOf(second);
        assertThat(provider.requireGraph().relations(twice, Direction.OUTGOING)).hasSize(1);
        assertThat(provider.doctor()).isEmpty();
    }

    /**
     * One transaction that writes a key several times, deletes it and writes it again leaves what the same calls made
     * one by one leave: the same chain of nodes (labels, versions, tombstones, property names) and the same history.
     */
    @Test
    void several_changes_of_one_key_in_a_transaction_leave_what_single_writes_leave() {
        provider.set("other", "other", Scope.PROJECT);
        for (String key : List.of("tx", "single")) {
            provider.set(key, "stored before", Scope.PROJECT);
            provider.requireGraph().relate(new EntryRef(key, Scope.PROJECT), new EntryRef("other", Scope.PROJECT), "SEES");
        }
        try (MemoryTransaction tx = provider.requireTransactions().begin()) {
            tx.set("tx", "one", Scope.PROJECT);
            tx.set("tx", "two", Scope.PROJECT, List.of("t"), Map.of());
            tx.delete("tx", Scope.PROJECT);
            tx.set("tx", "three", Scope.PROJECT);
            tx.commit();
        }
        provider.set("single", "one", Scope.PROJECT);
        provider.set("single", "two", Scope.PROJECT, List.of("t"), Map.of());
        provider.delete("single", Scope.PROJECT);
        provider.set("single", "three", Scope.PROJECT);

        assertThat(layout("tx")).hasSize(5).containsExactlyElementsOf(layout("single"));
        assertThat(provider.requireHistory().versions("tx", Scope.PROJECT)).extracting(MemoryEntry::value, MemoryEntry::version)
                .containsExactlyElementsOf(provider.requireHistory().versions("single", Scope.PROJECT).stream()
                        .map(e -> org.assertj.core.groups.Tuple.tuple(e.value(), e.version())).toList());
        // the deletion took the relation with it, in both
        assertThat(provider.requireGraph().relations(new EntryRef("tx", Scope.PROJECT), Direction.OUTGOING)).isEmpty();
        assertThat(provider.doctor()).isEmpty();
    }

    private static int total(Map<String, Integer> statements) {
        return statements.values().stream().mapToInt(Integer::intValue).sum();
    }

    private static MemoryEntry entry(String key, String value, long version, Instant at) {
        return new MemoryEntry(key, value, Scope.PROJECT, List.of("imported"), Map.of("n", version), T1, at, version);
    }

    /** The key's nodes from its {@code :Memory} node along {@code SUPERSEDES}: labels, version, tombstone, property names. */
    private List<String> layout(String key) {
        try (Session session = driver.session()) {
            return session.run("MATCH (m:Memory {project: $project, key: $key})"
                    + " MATCH p = (m)-[:SUPERSEDES*0..]->(n) WITH n, length(p) AS depth ORDER BY depth"
                    + " RETURN labels(n) AS labels, n.version AS version, n.tombstone AS tombstone, keys(n) AS props",
                    Map.of("project", project, "key", key)).list(r -> {
                        List<String> props = new ArrayList<>(r.get("props").asList(Value::asString));
                        props.sort(null);
                        return r.get("labels").asList(Value::asString) + " v" + r.get("version").asLong()
                                + " tombstone=" + r.get("tombstone").asObject() + " " + props;
                    });
        }
    }
}
