package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Capability;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.GraphPath;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.Traversal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;

/**
 * Typed relations: relate, unrelate, relations, traverse, cascades and isolation. Every entry here is created
 * by the test itself; relations are compared whole, {@code createdAt} included.
 *
 * <p>Each test has a time limit and runs on a thread of its own, so that a backend that deadlocks (on its own
 * locks, say) fails the test instead of hanging the build, even when the blocked call ignores interrupts.
 */
@RequiresCapability(Capability.GRAPH)
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = ThreadMode.SEPARATE_THREAD)
public abstract class GraphContract extends ContractSupport {

    private static final String LINKS = "LINKS";

    private MemoryGraph graph() {
        return provider.graph().orElseThrow();
    }

    /** Stores an entry in PROJECT scope and returns its address. */
    private EntryRef entry(String key) {
        return entry(key, Scope.PROJECT);
    }

    private EntryRef entry(String key, Scope scope) {
        return provider.set(key, "about " + key, scope).ref();
    }

    private static EntryRef ref(String key) {
        return EntryRef.of(key, Scope.PROJECT);
    }

    private static List<EntryRef> ends(List<GraphPath> paths) {
        return paths.stream().map(GraphPath::end).toList();
    }

    private static Traversal both(int maxDepth) {
        return Traversal.outgoing(maxDepth).withDirection(Direction.BOTH);
    }

    // relate, unrelate, relations

    @Test
    void relate_returns_the_relation_stamped_by_the_context_clock() {
        EntryRef a = entry("a");
        EntryRef b = entry("b");
        Instant before = clock.peek();
        Relation relation = graph().relate(a, b, "DEPENDS_ON");
        assertThat(relation.from()).isEqualTo(a);
        assertThat(relation.type()).isEqualTo("DEPENDS_ON");
        assertThat(relation.to()).isEqualTo(b);
        assertThat(relation.createdAt()).isBetween(before, clock.peek());
        assertThat(graph().relations(a, Direction.OUTGOING)).containsExactly(relation);
        assertThat(graph().relations(b, Direction.INCOMING)).containsExactly(relation);
    }

    @Test
    void relating_again_returns_the_existing_relation_and_adds_none() {
        EntryRef a = entry("a");
        EntryRef b = entry("b");
        Relation first = graph().relate(a, b, LINKS);
        clock.advance(Duration.ofMinutes(10));
        Relation again = graph().relate(a, b, LINKS);
        assertThat(again).isEqualTo(first);
        assertThat(graph().relations(a, Direction.BOTH)).containsExactly(first);
        assertThat(graph().relations(b, Direction.BOTH)).containsExactly(first);
    }

    @Test
    void several_types_between_one_pair_are_distinct_relations() {
        EntryRef a = entry("a");
        EntryRef b = entry("b");
        Relation dependsOn = graph().relate(a, b, "DEPENDS_ON");
        Relation mentions = graph().relate(a, b, "MENTIONS");
        assertThat(graph().relations(a, Direction.OUTGOING)).containsExactly(dependsOn, mentions);
        assertThat(graph().unrelate(a, b, "DEPENDS_ON")).isTrue();
        assertThat(graph().relations(a, Direction.OUTGOING)).containsExactly(mentions);
    }

    @Test
    void relation_types_are_case_sensitive() {
        EntryRef a = entry("a");
        EntryRef b = entry("b");
        Relation upper = graph().relate(a, b, "RELATED");
        Relation lower = graph().relate(a, b, "related");
        assertThat(graph().relations(a, Direction.OUTGOING)).containsExactly(upper, lower);
        assertThat(graph().unrelate(a, b, "Related")).isFalse();
        assertThat(graph().unrelate(a, b, "related")).isTrue();
        assertThat(graph().relations(a, Direction.OUTGOING)).containsExactly(upper);
    }

    @Test
    void an_entry_may_be_related_to_itself_and_is_listed_once() {
        EntryRef a = entry("a");
        Relation self = graph().relate(a, a, "REFINES");
        assertThat(self.from()).isEqualTo(a);
        assertThat(self.to()).isEqualTo(a);
        assertThat(graph().relations(a, Direction.OUTGOING)).containsExactly(self);
        assertThat(graph().relations(a, Direction.INCOMING)).containsExactly(self);
        assertThat(graph().relations(a, Direction.BOTH)).containsExactly(self);
        // the start is never reported as reached, even along a loop
        assertThat(graph().traverse(a, both(3))).isEmpty();
    }

    @Test
    void relate_with_a_missing_end_throws_and_stores_nothing() {
        EntryRef a = entry("a");
        List<MemoryEntry> before = everything();
        assertThatThrownBy(() -> graph().relate(a, ref("missing"), LINKS)).isInstanceOf(EntryNotFoundException.class);
        assertThatThrownBy(() -> graph().relate(ref("missing"), a, LINKS)).isInstanceOf(EntryNotFoundException.class);
        // the same key in another scope is another entry
        assertThatThrownBy(() -> graph().relate(a, EntryRef.of("a", Scope.GLOBAL), LINKS))
                .isInstanceOf(EntryNotFoundException.class);
        assertUnchanged(before);
        assertThat(graph().relations(a, Direction.BOTH)).isEmpty();
        // a relation stored anyway and merely hidden would show up once its end exists
        entry("missing");
        entry("a", Scope.GLOBAL);
        assertThat(graph().relations(a, Direction.BOTH)).isEmpty();
        assertThat(graph().relations(ref("missing"), Direction.BOTH)).isEmpty();
    }

    @Test
    void malformed_relation_types_are_rejected_and_store_nothing() {
        EntryRef a = entry("a");
        EntryRef b = entry("b");
        List<String> malformed = List.of("", "1ST", "9", "DEPENDS ON", "DEPENDS-ON", "_PRIVATE", " LINKS", "LINKS\n",
                "DEPENDS.ON", "A".repeat(65));
        for (String type : malformed) {
            assertThatThrownBy(() -> graph().relate(a, b, type)).as("type '%s'", type)
                    .isInstanceOf(InvalidRequestException.class);
        }
        assertThat(graph().relations(a, Direction.BOTH)).isEmpty();
    }

    @Test
    void well_formed_relation_types_up_to_64_characters_are_accepted() {
        EntryRef a = entry("a");
        EntryRef b = entry("b");
        List<String> types = List.of("a", "Z", "x_1", "dependsOn", "B2B", "A".repeat(64));
        for (String type : types) {
            assertThat(graph().relate(a, b, type).type()).isEqualTo(type);
        }
        assertThat(graph().relations(a, Direction.OUTGOING)).extracting(Relation::type)
                .containsExactlyElementsOf(types.stream().sorted().toList());
    }

    @Test
    void unrelate_returns_true_then_false_and_a_missing_end_is_not_an_error() {
        EntryRef a = entry("a");
        EntryRef b = entry("b");
        Relation first = graph().relate(a, b, LINKS);
        assertThat(graph().unrelate(a, b, LINKS)).isTrue();
        assertThat(graph().unrelate(a, b, LINKS)).isFalse();
        assertThat(graph().relations(a, Direction.BOTH)).isEmpty();
        assertThat(graph().relations(b, Direction.BOTH)).isEmpty();
        assertThat(graph().unrelate(a, ref("missing"), LINKS)).isFalse();
        // made again, it is a new relation with a new creation time
        Relation again = graph().relate(a, b, LINKS);
        assertThat(again.createdAt()).isAfter(first.createdAt());
    }

    @Test
    void relations_are_directed() {
        EntryRef a = entry("a");
        EntryRef b = entry("b");
        Relation forward = graph().relate(a, b, LINKS);
        assertThat(graph().relations(a, Direction.INCOMING)).isEmpty();
        assertThat(graph().relations(b, Direction.OUTGOING)).isEmpty();
        assertThat(graph().unrelate(b, a, LINKS)).isFalse();
        Relation backward = graph().relate(b, a, LINKS);
        assertThat(backward).isNotEqualTo(forward);
        assertThat(graph().relations(a, Direction.BOTH)).containsExactly(forward, backward);
    }

    @Test
    void relations_are_selected_by_direction() {
        EntryRef hub = entry("hub");
        EntryRef a = entry("a");
        EntryRef b = entry("b");
        EntryRef c = entry("c");
        Relation usesA = graph().relate(hub, a, "USES");
        Relation usesB = graph().relate(hub, b, "USES");
        Relation cUsesHub = graph().relate(c, hub, "USES");
        Relation aFollowsHub = graph().relate(a, hub, "FOLLOWS");
        graph().relate(a, b, "USES");
        assertThat(graph().relations(hub, Direction.OUTGOING)).containsExactly(usesA, usesB);
        assertThat(graph().relations(hub, Direction.INCOMING)).containsExactly(aFollowsHub, cUsesHub);
        assertThat(graph().relations(hub, Direction.BOTH)).containsExactly(aFollowsHub, cUsesHub, usesA, usesB);
    }

    @Test
    void relations_are_ordered_by_type_then_from_then_to() {
        EntryRef hub = entry("hub");
        EntryRef b = entry("b");
        EntryRef c = entry("c");
        EntryRef xGlobal = entry("x", Scope.GLOBAL);
        EntryRef xSession = entry("x", Scope.SESSION);
        EntryRef xProject = entry("x", Scope.PROJECT);
        // made out of order on purpose; the lower-case type sorts after the upper-case ones, as String.compareTo
        Relation hubAlphaB = graph().relate(hub, b, "alpha");
        Relation xGlobalLinks = graph().relate(xGlobal, hub, LINKS);
        Relation hubCitesC = graph().relate(hub, c, "CITES");
        Relation xProjectLinks = graph().relate(xProject, hub, LINKS);
        Relation bLinks = graph().relate(b, hub, LINKS);
        Relation hubCitesB = graph().relate(hub, b, "CITES");
        Relation xSessionLinks = graph().relate(xSession, hub, LINKS);
        Relation bCites = graph().relate(b, hub, "CITES");
        // EntryRef order: key, then scope in declaration order (SESSION, PROJECT, GLOBAL)
        assertThat(graph().relations(hub, Direction.BOTH)).containsExactly(
                bCites, hubCitesB, hubCitesC, bLinks, xSessionLinks, xProjectLinks, xGlobalLinks, hubAlphaB);
    }

    @Test
    void relations_may_join_entries_of_different_scopes() {
        EntryRef session = entry("note", Scope.SESSION);
        EntryRef project = entry("note", Scope.PROJECT);
        EntryRef global = entry("note", Scope.GLOBAL);
        Relation sessionToProject = graph().relate(session, project, "REFINES");
        Relation projectToGlobal = graph().relate(project, global, "REFINES");
        assertThat(graph().relations(project, Direction.BOTH)).containsExactly(sessionToProject, projectToGlobal);
        assertThat(graph().relations(global, Direction.BOTH)).containsExactly(projectToGlobal);
        assertThat(ends(graph().traverse(session, Traversal.outgoing(2)))).containsExactly(project, global);
    }

    @Test
    void overwriting_an_entry_keeps_its_relations() {
        EntryRef a = entry("a");
        EntryRef b = entry("b");
        Relation relation = graph().relate(a, b, LINKS);
        put("a", "rewritten");
        put("b", "rewritten", List.of("t"), Map.of("m", 1));
        assertThat(graph().relations(a, Direction.OUTGOING)).containsExactly(relation);
        assertThat(graph().relations(b, Direction.INCOMING)).containsExactly(relation);
    }

    @Test
    void deleting_an_entry_removes_its_relations_in_both_directions_for_good() {
        EntryRef a = entry("a");
        EntryRef b = entry("b");
        EntryRef c = entry("c");
        graph().relate(a, b, LINKS);
        graph().relate(c, a, LINKS);
        Relation kept = graph().relate(b, c, LINKS);
        assertThat(provider.delete("a", Scope.PROJECT)).isTrue();
        assertThat(graph().relations(b, Direction.BOTH)).containsExactly(kept);
        assertThat(graph().relations(c, Direction.BOTH)).containsExactly(kept);
        assertThat(graph().traverse(c, Traversal.outgoing(3))).isEmpty();
        entry("a");
        assertThat(graph().relations(a, Direction.BOTH)).isEmpty();
        assertThat(ends(graph().traverse(b, Traversal.outgoing(3)))).containsExactly(c);
    }

    @Test
    void clear_removes_the_relations_of_the_cleared_entries_only() {
        EntryRef session = entry("s", Scope.SESSION);
        EntryRef p = entry("p");
        EntryRef q = entry("q");
        EntryRef global = entry("g", Scope.GLOBAL);
        graph().relate(session, p, LINKS);
        graph().relate(p, session, LINKS);
        Relation pToQ = graph().relate(p, q, LINKS);
        Relation pToGlobal = graph().relate(p, global, LINKS);
        assertThat(provider.clear(Scope.SESSION)).isEqualTo(1);
        assertThat(graph().relations(p, Direction.BOTH)).containsExactly(pToGlobal, pToQ);
        entry("s", Scope.SESSION);
        assertThat(graph().relations(session, Direction.BOTH)).isEmpty();
        provider.clear(Scope.GLOBAL);
        assertThat(graph().relations(p, Direction.BOTH)).containsExactly(pToQ);
    }

    @Test
    void relations_survive_reopen() {
        EntryRef a = entry("a");
        EntryRef g = entry("g", Scope.GLOBAL);
        Relation relation = graph().relate(a, g, LINKS);
        reopen();
        assertThat(graph().relations(a, Direction.OUTGOING)).containsExactly(relation);
        assertThat(graph().relations(g, Direction.INCOMING)).containsExactly(relation);
    }

    // isolation

    @Test
    void another_session_does_not_see_relations_of_this_sessions_entries() {
        EntryRef scratch = entry("scratch", Scope.SESSION);
        EntryRef plan = entry("plan");
        Relation drafts = graph().relate(scratch, plan, "DRAFTS");
        MemoryProvider otherSession = open(PROJECT, "session-2");
        MemoryGraph otherGraph = otherSession.graph().orElseThrow();
        assertThat(otherGraph.relations(plan, Direction.BOTH)).isEmpty();
        assertThat(otherGraph.traverse(plan, both(3))).isEmpty();
        otherSession.set("scratch", "theirs", Scope.SESSION);
        assertThat(otherGraph.relations(scratch, Direction.BOTH)).isEmpty();
        assertThat(graph().relations(plan, Direction.BOTH)).containsExactly(drafts);
    }

    @Test
    void another_project_does_not_see_relations_to_a_global_entry() {
        EntryRef mine = entry("mine");
        EntryRef global = entry("shared", Scope.GLOBAL);
        Relation out = graph().relate(mine, global, LINKS);
        Relation in = graph().relate(global, mine, LINKS);
        MemoryGraph otherGraph = open("project-b", "session-2").graph().orElseThrow();
        assertThat(otherGraph.relations(global, Direction.BOTH)).isEmpty();
        assertThat(otherGraph.traverse(global, both(3))).isEmpty();
        assertThat(graph().relations(global, Direction.BOTH)).containsExactly(out, in);
    }

    @Test
    void another_project_cannot_relate_to_this_projects_entries() {
        EntryRef mine = entry("mine");
        EntryRef global = entry("shared", Scope.GLOBAL);
        MemoryGraph otherGraph = open("project-b", "session-2").graph().orElseThrow();
        assertThatThrownBy(() -> otherGraph.relate(mine, global, LINKS)).isInstanceOf(EntryNotFoundException.class);
        assertThatThrownBy(() -> otherGraph.relate(global, mine, LINKS)).isInstanceOf(EntryNotFoundException.class);
        assertThat(graph().relations(mine, Direction.BOTH)).isEmpty();
        assertThat(graph().relations(global, Direction.BOTH)).isEmpty();
    }

    @Test
    void the_same_key_in_two_projects_keeps_separate_relations() {
        EntryRef x = entry("x");
        EntryRef global = entry("shared", Scope.GLOBAL);
        Relation mine = graph().relate(x, global, LINKS);
        clock.advance(Duration.ofMinutes(1));
        MemoryProvider other = open("project-b", "session-2");
        MemoryGraph otherGraph = other.graph().orElseThrow();
        other.set("x", "theirs", Scope.PROJECT);
        Relation theirs = otherGraph.relate(x, global, LINKS);
        assertThat(theirs.createdAt()).as("a new relation, not project-a's").isAfter(mine.createdAt());
        assertThat(graph().relations(global, Direction.INCOMING)).containsExactly(mine);
        assertThat(otherGraph.relations(global, Direction.INCOMING)).containsExactly(theirs);
        assertThat(otherGraph.unrelate(x, global, LINKS)).isTrue();
        assertThat(otherGraph.unrelate(x, global, LINKS)).isFalse();
        other.delete("x", Scope.PROJECT);
        assertThat(graph().relations(global, Direction.INCOMING)).containsExactly(mine);
    }

    // traverse

    @Test
    void traverse_stops_at_the_maximum_depth() {
        List<EntryRef> chain = IntStream.range(0, 5).mapToObj(i -> entry("n" + i)).toList();
        for (int i = 0; i < 4; i++) {
            graph().relate(chain.get(i), chain.get(i + 1), "NEXT");
        }
        assertThat(ends(graph().traverse(chain.get(0), Traversal.outgoing(1)))).containsExactly(chain.get(1));
        List<GraphPath> two = graph().traverse(chain.get(0), Traversal.outgoing(2));
        assertThat(ends(two)).containsExactly(chain.get(1), chain.get(2));
        assertThat(two).extracting(GraphPath::length).containsExactly(1, 2);
        List<GraphPath> all = graph().traverse(chain.get(0), Traversal.outgoing(Traversal.MAX_DEPTH));
        assertThat(ends(all)).containsExactlyElementsOf(chain.subList(1, 5));
        assertThat(all.get(3).nodes()).containsExactlyElementsOf(chain);
    }

    @Test
    void traverse_reaches_as_deep_as_max_depth_and_no_deeper() {
        // one entry more than the deepest walk reaches; Traversal itself refuses depths out of range
        List<EntryRef> chain = IntStream.rangeClosed(0, Traversal.MAX_DEPTH + 1).mapToObj(i -> entry("n" + i)).toList();
        for (int i = 0; i < chain.size() - 1; i++) {
            graph().relate(chain.get(i), chain.get(i + 1), "NEXT");
        }
        List<GraphPath> paths = graph().traverse(chain.get(0), Traversal.outgoing(Traversal.MAX_DEPTH));
        assertThat(ends(paths)).containsExactlyElementsOf(chain.subList(1, Traversal.MAX_DEPTH + 1));
        assertThat(paths.get(Traversal.MAX_DEPTH - 1).nodes()).containsExactlyElementsOf(chain.subList(0, Traversal.MAX_DEPTH + 1));
        assertThat(ends(graph().traverse(chain.get(1), both(Traversal.MAX_DEPTH)))).containsExactlyElementsOf(
                chain.stream().filter(e -> !e.equals(chain.get(1))).toList());
    }

    @Test
    void traverse_goes_breadth_first_with_ties_in_relation_order() {
        EntryRef root = entry("root");
        EntryRef k = entry("k");
        EntryRef m = entry("m");
        EntryRef z = entry("z");
        EntryRef k1 = entry("k1");
        EntryRef m1 = entry("m1");
        EntryRef z1 = entry("z1");
        graph().relate(root, m, "B_TYPE");
        graph().relate(m, m1, "B_TYPE");
        graph().relate(root, z, "A_TYPE");
        graph().relate(z, z1, "B_TYPE");
        graph().relate(root, k, "B_TYPE");
        graph().relate(k, k1, "B_TYPE");
        List<GraphPath> paths = graph().traverse(root, Traversal.outgoing(3));
        assertThat(ends(paths)).containsExactly(z, k, m, z1, k1, m1);
        assertThat(paths).extracting(GraphPath::length).containsExactly(1, 1, 1, 2, 2, 2);
        assertThat(paths).allSatisfy(path -> assertThat(path.start()).isEqualTo(root));
    }

    @Test
    void traverse_reaches_each_entry_once_by_a_shortest_path() {
        EntryRef a = entry("a");
        EntryRef b = entry("b");
        EntryRef c = entry("c");
        EntryRef d = entry("d");
        graph().relate(a, b, "NEXT");
        graph().relate(b, c, "NEXT");
        graph().relate(c, d, "NEXT");
        Relation shortcut = graph().relate(a, d, "SHORTCUT");
        List<GraphPath> paths = graph().traverse(a, Traversal.outgoing(5));
        assertThat(ends(paths)).containsExactly(b, d, c);
        assertThat(paths.get(1).relations()).containsExactly(shortcut);
    }

    @Test
    void traverse_reaches_the_bottom_of_a_diamond_once_by_the_first_shortest_path() {
        EntryRef a = entry("a");
        EntryRef b = entry("b");
        EntryRef c = entry("c");
        EntryRef d = entry("d");
        Relation ab = graph().relate(a, b, LINKS);
        graph().relate(a, c, LINKS);
        Relation bd = graph().relate(b, d, LINKS);
        graph().relate(c, d, LINKS);
        List<GraphPath> paths = graph().traverse(a, Traversal.outgoing(5));
        assertThat(ends(paths)).containsExactly(b, c, d);
        assertThat(paths.get(2).length()).isEqualTo(2);
        assertThat(paths.get(2).relations()).containsExactly(ab, bd);
        assertThat(paths.get(2).nodes()).containsExactly(a, b, d);
    }

    @Test
    void traverse_terminates_on_cycles_and_never_returns_the_start() {
        EntryRef a = entry("a");
        EntryRef b = entry("b");
        EntryRef c = entry("c");
        EntryRef d = entry("d");
        graph().relate(a, b, LINKS);
        graph().relate(b, c, LINKS);
        graph().relate(c, a, LINKS);
        graph().relate(c, d, LINKS);
        assertThat(ends(graph().traverse(a, Traversal.outgoing(Traversal.MAX_DEPTH)))).containsExactly(b, c, d);
        assertThat(ends(graph().traverse(b, both(Traversal.MAX_DEPTH)))).containsExactly(a, c, d);
    }

    @Test
    void traverse_follows_only_the_given_types() {
        EntryRef a = entry("a");
        EntryRef b = entry("b");
        EntryRef c = entry("c");
        EntryRef e = entry("e");
        graph().relate(a, c, "X");
        Relation ab = graph().relate(a, b, "Y");
        Relation bc = graph().relate(b, c, "Y");
        graph().relate(b, e, "X");
        List<GraphPath> onlyY = graph().traverse(a, Traversal.outgoing(3).withTypes("Y"));
        assertThat(ends(onlyY)).containsExactly(b, c);
        assertThat(onlyY.get(1).relations()).containsExactly(ab, bc);
        assertThat(ends(graph().traverse(a, Traversal.outgoing(3).withTypes("X")))).containsExactly(c);
        assertThat(ends(graph().traverse(a, Traversal.outgoing(3).withTypes("X", "Y")))).containsExactly(c, b, e);
        assertThat(graph().traverse(a, Traversal.outgoing(3).withTypes("x"))).isEmpty();
    }

    @Test
    void traverse_incoming_walks_backwards_but_keeps_each_relation_as_stored() {
        EntryRef a = entry("a");
        EntryRef b = entry("b");
        EntryRef c = entry("c");
        EntryRef d = entry("d");
        graph().relate(a, b, "FEEDS");
        Relation cb = graph().relate(c, b, "FEEDS");
        Relation dc = graph().relate(d, c, "FEEDS");
        List<GraphPath> paths = graph().traverse(b, Traversal.outgoing(3).withDirection(Direction.INCOMING));
        assertThat(ends(paths)).containsExactly(a, c, d);
        GraphPath toD = paths.get(2);
        assertThat(toD.relations()).containsExactly(cb, dc);
        assertThat(toD.relations().get(0).from()).isEqualTo(c);
        assertThat(toD.nodes()).containsExactly(b, c, d);
        assertThat(toD.end()).isEqualTo(d);
        assertThat(graph().traverse(b, Traversal.outgoing(3))).isEmpty();
    }

    @Test
    void traverse_in_both_directions_follows_relations_either_way() {
        EntryRef a = entry("a");
        EntryRef b = entry("b");
        EntryRef c = entry("c");
        EntryRef d = entry("d");
        Relation ab = graph().relate(a, b, LINKS);
        Relation cb = graph().relate(c, b, LINKS);
        Relation cd = graph().relate(c, d, LINKS);
        assertThat(ends(graph().traverse(a, Traversal.outgoing(3)))).containsExactly(b);
        List<GraphPath> paths = graph().traverse(a, both(3));
        assertThat(ends(paths)).containsExactly(b, c, d);
        assertThat(paths.get(2).relations()).containsExactly(ab, cb, cd);
        assertThat(paths.get(2).nodes()).containsExactly(a, b, c, d);
        assertThat(ends(graph().traverse(a, both(2)))).containsExactly(b, c);
    }

    @Test
    void graph_operations_after_close_fail_with_backend_unavailable_and_change_nothing() {
        EntryRef a = entry("a");
        EntryRef b = entry("b");
        Relation relation = graph().relate(a, b, LINKS);
        MemoryGraph graph = graph();
        provider.close();
        assertThat(provider.graph()).as("the accessor keeps answering after close").isPresent();
        assertThatThrownBy(() -> graph.relate(b, a, LINKS)).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> graph.unrelate(a, b, LINKS)).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> graph.relations(a, Direction.BOTH)).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> graph.traverse(a, both(3))).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> provider.graph().orElseThrow().relations(a, Direction.BOTH))
                .isInstanceOf(BackendUnavailableException.class);
        reopen();
        assertThat(graph().relations(a, Direction.BOTH)).containsExactly(relation);
    }

    @Test
    void a_missing_entry_has_no_relations_and_no_paths() {
        EntryRef a = entry("a");
        EntryRef b = entry("b");
        for (Direction direction : Direction.values()) {
            assertThat(graph().relations(ref("missing"), direction)).as("%s", direction).isEmpty();
        }
        assertThat(graph().traverse(ref("missing"), both(3))).isEmpty();
        assertThat(graph().traverse(a, both(3))).isEmpty();
        graph().relate(a, b, LINKS);
        provider.delete("a", Scope.PROJECT);
        assertThat(graph().traverse(a, both(3))).isEmpty();
    }
}
