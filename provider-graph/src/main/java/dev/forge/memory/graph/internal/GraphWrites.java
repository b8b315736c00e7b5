package dev.forge.memory.graph.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;

import org.neo4j.driver.Record;
import org.neo4j.driver.SimpleQueryRunner;
import org.neo4j.driver.TransactionContext;
import org.neo4j.driver.types.Node;

import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.support.EntryWrite;

/**
 * The write statements of a {@link GraphStore}, each sent once for any number of keys as one {@code UNWIND} over a
 * list of rows: a transaction of 1,000 sets is a handful of statements, not thousands, whatever the number of keys.
 * Every statement here runs inside the caller's write transaction; the keys' nodes must be locked with
 * {@link #lock} first (except by {@link #lock} itself).
 */
final class GraphWrites {

    /** The key of row variable {@code row}: {@code {store: row.store, ..., key: row.key}}. */
    static String keyOf(String row) {
        return "{store: " + row + ".store, project: " + row + ".project, session: " + row + ".session, scope: "
                + row + ".scope, key: " + row + ".key}";
    }

    private static final String LOCK = "UNWIND $keys AS k MERGE (m:Memory " + keyOf("k") + ")"
            + " ON CREATE SET m.version = 0 SET m.lock = true REMOVE m.lock";

    private static final String UNLOCK_UNUSED = "UNWIND $keys AS k MATCH (m:Memory " + keyOf("k") + ")"
            + " WHERE m.version = 0 DETACH DELETE m";

    // The highest version number first, then the node holding it: an aggregate, not ORDER BY ... LIMIT, so that each
    // row of the UNWIND gets its own answer.
    private static final String CURRENTS = "UNWIND $keys AS k"
            + " OPTIONAL MATCH (m:Memory " + keyOf("k") + ") WHERE m.version > 0"
            + " OPTIONAL MATCH (v:MemoryVersion " + keyOf("k") + ")"
            + " WITH k, m, max(v.version) AS last"
            + " OPTIONAL MATCH (h:MemoryVersion {store: k.store, project: k.project, session: k.session, scope: k.scope,"
            + " key: k.key, version: last})"
            + " RETURN k.i AS i, m, last, h.rev AS head";

    /** {@link #LOCK} and {@link #CURRENTS} in one statement: a commit's first round trip. */
    private static final String LOCK_AND_READ = LOCK
            + " WITH k, CASE WHEN m.version > 0 THEN m END AS m"
            + " OPTIONAL MATCH (v:MemoryVersion " + keyOf("k") + ")"
            + " WITH k, m, max(v.version) AS last"
            + " OPTIONAL MATCH (h:MemoryVersion {store: k.store, project: k.project, session: k.session, scope: k.scope,"
            + " key: k.key, version: last})"
            + " RETURN k.i AS i, m, last, h.rev AS head";

    /** Turns each live node into a version at the head of its key's chain, as {@code GraphStore}'s layout says. */
    private static final String RETIRE = "UNWIND $keys AS k MATCH (m:Memory " + keyOf("k") + ") WHERE m.version > 0"
            + " CREATE (p:MemoryVersion) SET p = properties(m), p.tombstone = false"
            + " WITH m, p FOREACH (x IN [x IN keys(p) WHERE x STARTS WITH 'embedding'"
            + " OR x IN ['zeroVector', 'searchText', 'searchFields']] | REMOVE p[x])"
            + " WITH m, p OPTIONAL MATCH (m)-[s:SUPERSEDES]->(older:MemoryVersion)"
            + " FOREACH (o IN CASE WHEN older IS NULL THEN [] ELSE [older] END | CREATE (p)-[:SUPERSEDES]->(o))"
            + " DELETE s CREATE (m)-[:SUPERSEDES]->(p)";

    /** Replaces each live node by a tombstone version; the node's relations go with it. */
    private static final String TOMBSTONE = "UNWIND $rows AS r MATCH (m:Memory " + keyOf("r") + ")"
            + " OPTIONAL MATCH (m)-[:SUPERSEDES]->(p:MemoryVersion)"
            + " CREATE (t:MemoryVersion " + keyOf("r") + ") SET t.version = r.version, t.tombstone = true,"
            + " t.updatedAt = r.updatedAt, t.rev = r.rev"
            + " FOREACH (x IN CASE WHEN p IS NULL THEN [] ELSE [p] END | CREATE (t)-[:SUPERSEDES]->(x))"
            + " DETACH DELETE m";

    private static final String DELETE_VERSIONS = "UNWIND $keys AS k MATCH (v:MemoryVersion " + keyOf("k") + ")"
            + " DETACH DELETE v";

    // Rows come oldest first; each links to the one before it (the planner reads the nodes created by earlier rows).
    private static final String CREATE_VERSIONS = "UNWIND $versions AS r CREATE (v:MemoryVersion) SET v = r.node"
            + " WITH v, r WHERE r.older IS NOT NULL"
            + " MATCH (o:MemoryVersion {store: v.store, project: v.project, session: v.session, scope: v.scope,"
            + " key: v.key, version: r.older}) CREATE (v)-[:SUPERSEDES]->(o)";

    private final GraphStore graph;
    private final String write;

    GraphWrites(GraphStore graph) {
        this.graph = graph;
        this.write = "UNWIND $rows AS r MERGE (m:Memory " + keyOf("r") + ")"
                + " SET m.value = r.value, m.tags = r.tags, m.tagText = r.tagText, m.metadata = r.metadata,"
                + " m.createdAt = r.createdAt, m.updatedAt = r.updatedAt, m.version = r.version, m.rev = r.rev,"
                + " m.snapshot = r.snapshot, m.embeddingModel = $embeddingModel, m.searchText = r.searchText,"
                + " m.searchFields = $searchFields"
                + (graph.model() == null ? "" : ", m." + graph.vectorProperty() + " = r.embedding")
                + " WITH m, r" + GraphStore.REMOVE_OTHER_VECTORS
                + " WITH m, r WHERE r.head IS NOT NULL"
                + " MATCH (h:MemoryVersion {store: r.store, project: r.project, session: r.session, scope: r.scope,"
                + " key: r.key, version: r.head}) CREATE (m)-[:SUPERSEDES]->(h)";
    }

    private List<Map<String, Object>> keyRows(Collection<EntryRef> refs) {
        List<Map<String, Object>> rows = new ArrayList<>(refs.size());
        // sorted, so that writers of overlapping keys lock them in one order and deadlock less
        for (EntryRef ref : new TreeSet<>(refs)) {
            rows.add(graph.keyParams(ref.scope(), ref.key()));
        }
        return rows;
    }

    /** Takes the write lock of each key's node, creating a placeholder (version 0) where there is none. */
    void lock(TransactionContext tx, Collection<EntryRef> refs) {
        if (!refs.isEmpty()) {
            tx.run(LOCK, Map.of("keys", keyRows(refs))).consume();
        }
    }

    /** Removes the placeholders {@link #lock} left that no write filled. */
    void unlockUnused(TransactionContext tx, Collection<EntryRef> refs) {
        if (!refs.isEmpty()) {
            tx.run(UNLOCK_UNUSED, Map.of("keys", keyRows(refs))).consume();
        }
    }

    /** What is stored of each key, read in {@code tx}: one statement. */
    Map<EntryRef, GraphStore.Current> currents(SimpleQueryRunner tx, Collection<EntryRef> refs) {
        return currents(tx, refs, CURRENTS);
    }

    /** {@link #lock} then {@link #currents}, in one statement. */
    Map<EntryRef, GraphStore.Current> lockAndRead(TransactionContext tx, Collection<EntryRef> refs) {
        return refs.isEmpty() ? Map.of() : currents(tx, refs, LOCK_AND_READ);
    }

    private Map<EntryRef, GraphStore.Current> currents(SimpleQueryRunner tx, Collection<EntryRef> refs, String statement) {
        // sorted, as keyRows, so that writers of overlapping keys lock them in one order
        List<EntryRef> keys = List.copyOf(new TreeSet<>(refs));
        List<Map<String, Object>> rows = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            Map<String, Object> row = graph.keyParams(keys.get(i).scope(), keys.get(i).key());
            row.put("i", i);
            rows.add(row);
        }
        Map<EntryRef, GraphStore.Current> currents = new HashMap<>();
        for (Record row : tx.run(statement, Map.of("keys", rows)).list()) {
            EntryRef ref = keys.get(row.get("i").asInt());
            Optional<MemoryEntry> live = Optional.empty();
            String revision = row.get("head").isNull() ? "" : row.get("head").asString();
            if (!row.get("m").isNull()) {
                Node node = row.get("m").asNode();
                live = Optional.of(graph.entry(node));
                revision = GraphStore.revision(node);
            }
            long last = row.get("last").isNull() ? 0 : row.get("last").asLong();
            currents.putIfAbsent(ref, new GraphStore.Current(live, Math.max(last, live.map(MemoryEntry::version).orElse(0L)),
                    revision));
        }
        return currents;
    }

    /** What is stored of one key, read in {@code tx}. */
    GraphStore.Current current(SimpleQueryRunner tx, EntryRef ref) {
        return currents(tx, List.of(ref)).get(ref);
    }

    /**
     * Replaces what is stored of each chain's key with exactly its versions (see {@link GraphStore#restore}): every
     * version and tombstone node of the keys is deleted, the earlier versions become new chained version nodes, and
     * the last of each chain the key's live node, which stays (its relations with it). A key given twice keeps its
     * last chain, as restoring one after the other would leave it. Five statements for the whole batch.
     */
    void restore(TransactionContext tx, List<List<MemoryEntry>> chains, List<List<Double>> vectors) {
        Map<EntryRef, Integer> lastChain = new LinkedHashMap<>();
        for (int i = 0; i < chains.size(); i++) {
            List<MemoryEntry> chain = chains.get(i);
            lastChain.put(chain.get(chain.size() - 1).ref(), i);
        }
        lock(tx, lastChain.keySet());
        tx.run(DELETE_VERSIONS, Map.of("keys", keyRows(lastChain.keySet()))).consume();
        List<Map<String, Object>> versions = new ArrayList<>();
        Plan plan = new Plan(Map.of());
        for (int i : lastChain.values()) {
            List<MemoryEntry> chain = chains.get(i);
            Long older = null;
            for (MemoryEntry version : chain.subList(0, chain.size() - 1)) {
                Map<String, Object> node = graph.entryProperties(version);
                node.put("tombstone", false);
                Map<String, Object> row = new HashMap<>();
                row.put("node", node);
                row.put("older", older);
                versions.add(row);
                older = version.version();
            }
            plan.round(0).write(chain.get(chain.size() - 1), vectors.get(i), older);
        }
        if (!versions.isEmpty()) {
            tx.run(CREATE_VERSIONS, Map.of("versions", versions)).consume();
        }
        plan.apply(tx);
    }

    /** A plan of writes over what {@code currents} says is stored. */
    Plan plan(Map<EntryRef, GraphStore.Current> currents) {
        return new Plan(currents);
    }

    /**
     * Writes and deletions planned in order against what is stored, then sent in rounds: round {@code n} holds the
     * {@code n}th change of each key (so nearly always one round), each round at most three statements (retire the
     * live nodes written over, write the new entries, leave tombstones).
     */
    final class Plan {

        /** What a key holds as the plan goes: whether it is live, and its highest version number. */
        private record State(boolean live, long lastVersion) {
        }

        private final Map<EntryRef, State> states = new HashMap<>();
        private final Map<EntryRef, Integer> changes = new HashMap<>();
        private final List<Round> rounds = new ArrayList<>();

        private Plan(Map<EntryRef, GraphStore.Current> currents) {
            currents.forEach((ref, current) -> states.put(ref, new State(current.live().isPresent(), current.lastVersion())));
        }

        private Round round(int n) {
            while (rounds.size() <= n) {
                rounds.add(new Round());
            }
            return rounds.get(n);
        }

        private Round next(EntryRef ref) {
            return round(changes.merge(ref, 1, Integer::sum) - 1);
        }

        private State state(EntryRef ref) {
            return states.getOrDefault(ref, new State(false, 0));
        }

        /**
         * Writes {@code entry} over what the key holds; {@code vector} is its {@link GraphStore#embedding} (null
         * without a model, or for an entry a later write replaces). A fresh live node supersedes the key's newest
         * version, a live one is retired first.
         */
        void set(MemoryEntry entry, List<Double> vector) {
            EntryRef ref = entry.ref();
            State state = state(ref);
            Round round = next(ref);
            if (state.live()) {
                round.retire.add(ref);
            }
            round.write(entry, vector, state.live() || state.lastVersion() == 0 ? null : state.lastVersion());
            states.put(ref, new State(true, Math.max(state.lastVersion(), entry.version())));
        }

        /** Replaces the key's live entry by a tombstone stamped {@code now}; nothing when it holds none. */
        void delete(EntryRef ref, Instant now) {
            State state = state(ref);
            if (!state.live()) {
                return;
            }
            Round round = next(ref);
            round.retire.add(ref);
            long version = EntryWrite.nextVersion(ref, state.lastVersion());
            Map<String, Object> row = graph.keyParams(ref.scope(), ref.key());
            row.put("version", version);
            row.put("updatedAt", now.toEpochMilli());
            row.put("rev", UUID.randomUUID().toString());
            round.tombstones.add(row);
            states.put(ref, new State(false, version));
        }

        /** Those of {@code refs} this plan leaves without a live entry: where {@link #lock} may have left a placeholder. */
        List<EntryRef> notLive(Collection<EntryRef> refs) {
            return refs.stream().filter(ref -> !state(ref).live()).toList();
        }

        /** Sends every round, in order. */
        void apply(TransactionContext tx) {
            for (Round round : rounds) {
                round.apply(tx);
            }
        }
    }

    /** The changes of one round, at most one per key. */
    private final class Round {
        private final List<EntryRef> retire = new ArrayList<>();
        private final List<Map<String, Object>> writes = new ArrayList<>();
        private final List<Map<String, Object>> tombstones = new ArrayList<>();

        void write(MemoryEntry entry, List<Double> vector, Long head) {
            Map<String, Object> row = graph.entryProperties(entry);
            row.put("embedding", vector);
            row.put("head", head);
            row.put("searchText", graph.searchText().text(entry));
            writes.add(row);
        }

        void apply(TransactionContext tx) {
            if (!retire.isEmpty()) {
                tx.run(RETIRE, Map.of("keys", keyRows(retire))).consume();
            }
            if (!writes.isEmpty()) {
                Map<String, Object> params = new HashMap<>();
                params.put("rows", writes);
                params.put("embeddingModel", graph.model() == null ? null : graph.model().fingerprint());
                params.put("vectorProperty", graph.model() == null ? "" : graph.vectorProperty());
                params.put("searchFields", GraphKeywordSearch.fieldsKey(graph.searchText()));
                tx.run(write, params).consume();
            }
            if (!tombstones.isEmpty()) {
                tx.run(TOMBSTONE, Map.of("rows", tombstones)).consume();
            }
        }
    }
}
