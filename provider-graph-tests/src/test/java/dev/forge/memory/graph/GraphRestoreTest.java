package dev.forge.memory.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.Transaction;

import dev.forge.memory.ConflictException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;

/**
 * What a restore leaves in Neo4j, beyond what the conformance suite sees through the API: the same nodes and chain as
 * writes leave, one transaction (an interrupted restore changes nothing), and a new revision for optimistic
 * transactions. The reindex race of a restore is {@link GraphReindexTest}'s.
 */
class GraphRestoreTest {

    private static final Instant T1 = Instant.parse("2021-03-04T05:06:07.008Z");
    private static final Instant T2 = Instant.parse("2022-05-06T07:08:09.010Z");
    private static final Instant T3 = Instant.parse("2023-07-08T09:10:11.012Z");

    @TempDir
    Path directory;

    /** Each test its own project, so its nodes are found by project on the shared server. */
    private final String project = "restore-test-" + UUID.randomUUID();
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

    private static MemoryEntry version(String key, String value, long version, Instant at) {
        return new MemoryEntry(key, value, Scope.PROJECT, List.of("imported"), Map.of("n", version), T1, at, version);
    }

    private static List<MemoryEntry> chain(String key) {
        return List.of(version(key, "first words", 1, T1), version(key, "second words", 2, T2),
                version(key, "third words, the imported ones", 3, T3));
    }

    /**
     * The key's nodes as the provider lays them out: from its {@code :Memory} node along {@code SUPERSEDES}, each node's
     * labels, version and property names (vectors named {@code embedding_*}), then every version node of the key the
     * chain does not reach.
     */
    private List<String> layout(String key) {
        Map<String, Object> params = Map.of("project", project, "key", key);
        try (Session session = driver.session()) {
            List<String> nodes = new ArrayList<>(session.run("MATCH (m:Memory {project: $project, key: $key})"
                    + " MATCH p = (m)-[:SUPERSEDES*0..]->(n) WITH n, length(p) AS depth ORDER BY depth"
                    + " RETURN labels(n) AS labels, n.version AS version, n.tombstone AS tombstone,"
                    + " [k IN keys(n) WHERE NOT k STARTS WITH 'embedding_' | k] + [k IN keys(n) WHERE k STARTS WITH 'embedding_' | 'embedding_*'] AS props",
                    params).list(GraphRestoreTest::describe));
            session.run("MATCH (v:MemoryVersion {project: $project, key: $key})"
                    + " WHERE NOT EXISTS { MATCH (:Memory {project: $project, key: $key})-[:SUPERSEDES*]->(v) }"
                    + " RETURN 'unreachable ' + toString(v.version) AS orphan", params)
                    .forEachRemaining(r -> nodes.add(r.get("orphan").asString()));
            return nodes;
        }
    }

    private static String describe(Record row) {
        List<String> props = new ArrayList<>(row.get("props").asList(v -> v.asString()));
        props.sort(null);
        return row.get("labels").asList(v -> v.asString()) + " v" + row.get("version").asLong() + " tombstone="
                + row.get("tombstone").asObject() + " " + props;
    }

    @Test
    void a_restore_leaves_the_nodes_and_chain_that_writes_leave() {
        provider.set("written", "first words", Scope.PROJECT);
        provider.set("written", "second words", Scope.PROJECT);
        provider.set("written", "third words", Scope.PROJECT);
        // a key with more history than the chain, and a tombstone, all of which the restore replaces
        for (int i = 0; i < 4; i++) {
            provider.set("restored", "old value " + i, Scope.PROJECT);
        }
        provider.delete("restored", Scope.PROJECT);
        provider.set("restored", "after the deletion", Scope.PROJECT);

        provider.requireRestoring().restore(chain("restored"));

        assertThat(layout("restored")).hasSize(3).containsExactlyElementsOf(layout("written"));
        assertThat(layout("restored").get(0)).contains("[Memory] v3").contains("embedding_*");
        assertThat(layout("restored").get(2)).contains("[MemoryVersion] v1 tombstone=false");
        assertThat(provider.requireHistory().versions("restored", Scope.PROJECT)).containsExactlyElementsOf(chain("restored"));
        assertThat(provider.doctor()).isEmpty();
    }

    @Test
    void a_transaction_that_read_the_key_before_a_restore_conflicts() {
        provider.set("k", "written before", Scope.PROJECT);
        MemoryEntry restored;
        try (MemoryTransaction tx = provider.requireTransactions().begin()) {
            tx.get("k", Scope.PROJECT);
            restored = provider.requireRestoring().restore(chain("k"));
            tx.set("k", "written by the transaction", Scope.PROJECT);
            assertThatThrownBy(tx::commit).isInstanceOf(ConflictException.class);
        }
        assertThat(provider.get("k", Scope.PROJECT)).contains(restored);
    }

    /**
     * The restore is stopped inside its transaction: it holds the key's lock and waits for this test's lock on the
     * oldest version node when the test terminates it. The key must be as before, relations and search included.
     */
    @Test
    void a_restore_terminated_part_way_changes_nothing() throws Exception {
        provider.set("k", "the oldest value", Scope.PROJECT);
        provider.set("k", "the older value", Scope.PROJECT);
        MemoryEntry current = provider.set("k", "the value before the restore", Scope.PROJECT);
        provider.set("other", "another entry", Scope.PROJECT);
        EntryRef k = new EntryRef("k", Scope.PROJECT);
        provider.requireGraph().relate(k, new EntryRef("other", Scope.PROJECT), "DEPENDS_ON");
        List<MemoryEntry> history = provider.requireHistory().versions("k", Scope.PROJECT);
        ExecutorService worker = Executors.newSingleThreadExecutor();
        try (Session session = driver.session(); Transaction holder = session.beginTransaction()) {
            // only the oldest version is locked: the restore may delete the newer one before it waits
            holder.run("MATCH (v:MemoryVersion {project: $project, key: 'k', version: 1}) SET v.lock = true",
                    Map.of("project", project)).consume();
            Future<MemoryEntry> restore = worker.submit(() -> provider.requireRestoring().restore(chain("k")));
            terminateWhenBlocked(restore, "DETACH DELETE v");
            assertThatThrownBy(() -> restore.get(10, TimeUnit.MINUTES)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(MemoryException.class);
            holder.rollback();
        } finally {
            worker.shutdownNow();
        }

        assertThat(provider.get("k", Scope.PROJECT)).contains(current);
        assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).isEqualTo(history);
        assertThat(provider.requireGraph().relations(k, Direction.OUTGOING)).singleElement()
                .satisfies(r -> assertThat(r.to().key()).isEqualTo("other"));
        assertThat(provider.search(SearchRequest.builder("imported").build())).isEmpty();
        assertThat(provider.search(SearchRequest.builder("before the restore").build()))
                .extracting(h -> h.entry().key()).first().isEqualTo("k");
        // nothing is left locked or half written: the same restore now goes through
        assertThat(provider.requireRestoring().restore(chain("k"))).isEqualTo(chain("k").get(2));
        assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).containsExactlyElementsOf(chain("k"));
    }

    /** Terminates the transaction blocked in a query containing {@code query}, once it is; fails if {@code task} ends first. */
    private void terminateWhenBlocked(Future<?> task, String query) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (Session watcher = driver.session()) {
            while (!task.isDone() && System.nanoTime() < deadline) {
                List<String> blocked = watcher.run("SHOW TRANSACTIONS YIELD transactionId, status, currentQuery"
                        + " WHERE status STARTS WITH 'Blocked' AND currentQuery CONTAINS $query RETURN transactionId",
                        Map.of("query", query)).list(r -> r.get("transactionId").asString());
                if (!blocked.isEmpty()) {
                    watcher.run("TERMINATE TRANSACTIONS $ids", Map.of("ids", blocked)).consume();
                    return;
                }
                Thread.sleep(10);
            }
        }
        throw new AssertionError("The restore never waited for the test's lock");
    }
}
