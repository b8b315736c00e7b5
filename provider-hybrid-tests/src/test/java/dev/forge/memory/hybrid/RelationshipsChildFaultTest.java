package dev.forge.memory.hybrid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.GraphPath;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.Traversal;
import dev.forge.memory.graph.TestNeo4j;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relationships child goes down mid-run: the Neo4j server of the graph child is reached through a TCP relay, which
 * the test cuts while entries are written, overwritten and deleted, then restores. The storage must keep every write,
 * relation calls must fail cleanly while the graph is away, and the outbox must bring the graph's entries (and so the
 * cascade of a deletion over its relations) up to date.
 */
class RelationshipsChildFaultTest {

    @TempDir
    Path directory;

    private TcpProxy relay;
    private HybridMemoryProvider router;
    private final String store = UUID.randomUUID().toString();

    @BeforeEach
    void start() throws Exception {
        TestNeo4j.Server server = TestNeo4j.server();
        relay = new TcpProxy(server.uri().getHost(), server.uri().getPort());
        router = open();
    }

    private HybridMemoryProvider open() {
        TestNeo4j.Server server = TestNeo4j.server();
        ProviderContext context = ProviderContext.builder().projectId("fault").sessionId("s1").baseDirectory(directory)
                .forgeHome(directory.resolve("forge-home")).build();
        Map<String, Object> graph = Map.of("provider", "graph", "url", "bolt://127.0.0.1:" + relay.port(),
                "username", server.username(), "password", server.password(), "store", store,
                "connect_timeout", "2s", "retry_time", "1s");
        // a long retry interval: the test brings the child back explicitly with replayOutbox()
        return HybridStores.open(context, HybridStores.config(Map.of("provider", "sqlite"), null, graph,
                Map.of("outbox", Map.of("retry_interval", "1h"))));
    }

    @Test
    void a_router_opens_while_the_graph_is_unreachable_and_catches_up_when_it_answers() throws Exception {
        router.set("a", "written before the restart", Scope.PROJECT);
        router.close();
        relay.stop();
        router = open();
        assertThat(router.capabilities()).contains(dev.forge.memory.Capability.GRAPH);
        router.set("b", "written while the graph was unreachable at open", Scope.PROJECT);
        assertThat(router.get("b", Scope.PROJECT)).isPresent();
        assertThat(router.pendingUpdates()).isEqualTo(1);
        assertThatThrownBy(() -> router.requireGraph().relate(EntryRef.of("a", Scope.PROJECT),
                EntryRef.of("b", Scope.PROJECT), "follows")).isInstanceOf(BackendUnavailableException.class);
        assertThat(router.doctor()).extracting(dev.forge.memory.StoreProblem::problem)
                .anyMatch(p -> p.contains("cannot be reached"));

        relay.start();
        assertThat(router.replayOutbox()).isZero();
        assertThat(router.relationshipsProvider().orElseThrow().query(Query.builder().build()))
                .extracting(MemoryEntry::key).containsExactly("a", "b");
        router.requireGraph().relate(EntryRef.of("a", Scope.PROJECT), EntryRef.of("b", Scope.PROJECT), "follows");
        assertThat(router.requireGraph().relations(EntryRef.of("b", Scope.PROJECT), Direction.INCOMING)).hasSize(1);
    }

    @AfterEach
    void stop() {
        router.close();
        relay.close();
    }

    @Test
    void relations_survive_an_outage_and_the_outbox_brings_the_graph_up_to_date() throws Exception {
        MemoryGraph graph = router.requireGraph();
        EntryRef a = EntryRef.of("a", Scope.PROJECT);
        EntryRef b = EntryRef.of("b", Scope.PROJECT);
        EntryRef c = EntryRef.of("c", Scope.PROJECT);
        EntryRef d = EntryRef.of("d", Scope.PROJECT);
        for (EntryRef ref : List.of(a, b, c)) {
            router.set(ref.key(), "entry " + ref.key(), Scope.PROJECT);
        }
        graph.relate(a, b, "depends_on");
        graph.relate(b, c, "depends_on");

        relay.stop();
        router.set("d", "written while the graph was away", Scope.PROJECT);
        router.set("a", "entry a, rewritten while the graph was away", Scope.PROJECT);
        assertThat(router.delete("c", Scope.PROJECT)).isTrue();
        // b is deleted and written again: the new b must not inherit the old one's relations
        assertThat(router.delete("b", Scope.PROJECT)).isTrue();
        router.set("b", "entry b, written again while the graph was away", Scope.PROJECT);

        assertThat(router.get("d", Scope.PROJECT)).isPresent();
        assertThat(router.get("a", Scope.PROJECT)).get().extracting(MemoryEntry::value)
                .isEqualTo("entry a, rewritten while the graph was away");
        assertThat(router.get("c", Scope.PROJECT)).isEmpty();
        assertThat(router.pendingUpdates()).isEqualTo(5);
        assertThatThrownBy(() -> graph.relate(a, d, "mentions")).isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("relationships provider 'graph'");
        assertThatThrownBy(() -> graph.relations(b, Direction.BOTH)).isInstanceOf(BackendUnavailableException.class);

        relay.start();
        assertThat(router.replayOutbox()).isZero();
        assertThat(router.doctor()).isEmpty();
        List<MemoryEntry> copies = router.relationshipsProvider().orElseThrow().query(Query.builder().build());
        assertThat(copies).extracting(MemoryEntry::key).containsExactly("a", "b", "d");
        assertThat(copies.get(0).value()).isEqualTo("entry a, rewritten while the graph was away");
        // the deletions made while the graph was away removed their relations once it was back
        assertThat(graph.relations(b, Direction.BOTH)).isEmpty();
        assertThat(graph.relations(a, Direction.BOTH)).isEmpty();
        graph.relate(a, d, "mentions");
        graph.relate(d, b, "mentions");
        assertThat(graph.traverse(a, Traversal.outgoing(2)))
                .extracting(GraphPath::end).containsExactly(d, b);
    }
}
