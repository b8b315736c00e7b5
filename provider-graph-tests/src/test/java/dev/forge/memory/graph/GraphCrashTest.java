package dev.forge.memory.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ChildJvm;
import dev.forge.memory.conformance.Reliability;

/**
 * Crash safety of the graph provider, whose durable part is the Neo4j server: a child JVM runs a Neo4j server on a
 * home directory of the test and the provider on it, writing new keys, overwrites and relations and acknowledging each
 * in a file; the test kills it with SIGKILL at a random moment, starts a server on the same home directory, and checks
 * that every acknowledged write is there and readable (value, version, tags, earlier versions, relations), that at
 * most the write in flight at the kill is missing (or present unacknowledged), and that the store takes writes again.
 */
@Tag(Reliability.TAG)
class GraphCrashTest {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(GraphCrashTest.class);

    @TempDir
    Path directory;

    /** What the store must hold: the version of each key and the relations, as {@code from|type|to}. */
    private final Map<String, Long> versions = new TreeMap<>();
    private final Set<String> relations = new TreeSet<>();
    private long acknowledged;

    @Test
    void every_acknowledged_write_survives_a_sigkill_of_the_process_running_neo4j() throws Exception {
        int kills = Reliability.count("graph.kills", 1, 50);
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        Path home = directory.resolve("neo4j-home");
        Path acks = directory.resolve("acks.tsv");
        Files.createFile(acks);
        long read = 0;
        for (int round = 0; round < kills; round++) {
            Path ready = directory.resolve("ready-" + round);
            Path log = directory.resolve("child-" + round + ".log");
            Process child = new ProcessBuilder(ChildJvm.command(List.of("-Xmx512m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"),
                    GraphCrashChild.class, home.toString(), Integer.toString(RestartableNeo4j.freePort()),
                    acks.toString(), ready.toString(), Integer.toString(round), Long.toString(random.nextLong())))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                assertThat(ChildJvm.awaitFile(ready, Duration.ofMinutes(3)))
                        .as("child %d ready (seed %d); its log: %s", round, seed, tail(log)).isTrue();
                // a random moment once it writes: after 5 to 60 acknowledged writes, and up to 20 ms more
                int target = 5 + random.nextInt(56);
                assertThat(awaitAcknowledged(acks, read, target, child))
                        .as("child %d wrote %d writes (seed %d); its log: %s", round, target, seed, tail(log)).isTrue();
                Thread.sleep(random.nextInt(21));
            } finally {
                child.destroyForcibly();
                assertThat(child.waitFor(1, TimeUnit.MINUTES)).isTrue();
            }
            read = applyAcknowledged(acks, read);
            try (RestartableNeo4j server = RestartableNeo4j.onFreePort(home).start();
                    MemoryProvider provider = GraphCrashChild.open(directory.resolve("parent-context"),
                            server.uri().toString())) {
                checkStore(provider, "after kill " + (round + 1) + " (seed " + seed + ")");
                LOG.info("kill {}: {} acknowledged writes, a server start took {} ms", round + 1, acknowledged,
                        server.lastStartTime().toMillis());
                writeAfterRecovery(provider, round);
            }
        }
        assertThat(relations).as("relations made").isNotEmpty();
        Reliability.report("crash", "graph", "kills survived", kills);
        Reliability.report("crash", "graph", "acknowledged writes checked", acknowledged);
    }

    /** Waits (at most three minutes) until the acks file holds {@code count} lines after {@code offset}. */
    private static boolean awaitAcknowledged(Path acks, long offset, int count, Process child) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (System.nanoTime() < deadline && child.isAlive()) {
            byte[] all = Files.readAllBytes(acks);
            int lines = 0;
            for (int i = (int) offset; i < all.length; i++) {
                lines += all[i] == '\n' ? 1 : 0;
            }
            if (lines >= count) {
                return true;
            }
            Thread.sleep(5);
        }
        return false;
    }

    /** Reads the acks the last child appended after {@code offset} into the expected state; the new offset. */
    private long applyAcknowledged(Path acks, long offset) throws IOException {
        byte[] all = Files.readAllBytes(acks);
        String text = new String(all, (int) offset, all.length - (int) offset, StandardCharsets.UTF_8);
        int end = text.lastIndexOf('\n') + 1; // a torn last line is no acknowledgement
        for (String line : text.substring(0, end).split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            String[] field = line.split("\t");
            if (field[0].equals("S")) {
                long version = Long.parseLong(field[2]);
                assertThat(version).as("acknowledged version of %s", field[1])
                        .isEqualTo(versions.getOrDefault(field[1], 0L) + 1);
                versions.put(field[1], version);
            } else {
                relations.add(field[1] + "|" + field[2] + "|" + field[3]);
            }
            acknowledged++;
        }
        return offset + text.substring(0, end).getBytes(StandardCharsets.UTF_8).length;
    }

    /**
     * Compares the store with the expected state: nothing acknowledged may be missing, and one write at most (the one
     * in flight at the kill) may have landed without its acknowledgement; the expected state then takes it in.
     */
    private void checkStore(MemoryProvider provider, String when) {
        Map<String, MemoryEntry> stored = new HashMap<>();
        for (MemoryEntry entry : provider.query(Query.builder().build())) {
            stored.put(entry.key(), entry);
        }
        int unacknowledged = 0;
        for (Map.Entry<String, Long> expected : versions.entrySet()) {
            MemoryEntry entry = stored.get(expected.getKey());
            assertThat(entry).as("acknowledged key %s %s", expected.getKey(), when).isNotNull();
            if (entry.version() != expected.getValue()) {
                assertThat(entry.version()).as("version of %s %s", entry.key(), when).isEqualTo(expected.getValue() + 1);
                unacknowledged++;
            }
        }
        for (String key : stored.keySet()) {
            if (!versions.containsKey(key)) {
                assertThat(stored.get(key).version()).as("unacknowledged new key %s %s", key, when).isEqualTo(1);
                unacknowledged++;
            }
        }
        Set<String> storedRelations = new HashSet<>();
        for (MemoryEntry entry : stored.values()) {
            checkReadable(provider, entry, when);
            for (Relation relation : provider.requireGraph().relations(EntryRef.of(entry.key(), Scope.PROJECT),
                    Direction.OUTGOING)) {
                storedRelations.add(relation.from().key() + "|" + relation.type() + "|" + relation.to().key());
            }
        }
        assertThat(storedRelations).as("acknowledged relations %s", when).containsAll(relations);
        Set<String> extra = new TreeSet<>(storedRelations);
        extra.removeAll(relations);
        unacknowledged += extra.size();
        assertThat(unacknowledged).as("writes present without acknowledgement %s (only the one in flight may be)", when)
                .isLessThanOrEqualTo(1);
        stored.forEach((key, entry) -> versions.put(key, entry.version()));
        relations.addAll(extra);
    }

    /** The entry and every earlier version of it hold exactly what its writer wrote. */
    private static void checkReadable(MemoryProvider provider, MemoryEntry entry, String when) {
        assertThat(entry.value()).as("value of %s %s", entry.key(), when)
                .isEqualTo(GraphCrashChild.value(entry.key(), entry.version()));
        assertThat(entry.tags()).as("tags of %s %s", entry.key(), when)
                .containsExactlyInAnyOrderElementsOf(GraphCrashChild.tags(entry.key(), entry.version()));
        List<MemoryEntry> history = provider.requireHistory().versions(entry.key(), Scope.PROJECT);
        assertThat(history).extracting(MemoryEntry::version).as("versions of %s %s", entry.key(), when)
                .containsExactlyInAnyOrderElementsOf(java.util.stream.LongStream.rangeClosed(1, entry.version())
                        .boxed().toList());
        for (MemoryEntry earlier : history) {
            assertThat(earlier.value()).as("version %d of %s %s", earlier.version(), entry.key(), when)
                    .isEqualTo(GraphCrashChild.value(entry.key(), earlier.version()));
        }
    }

    /** The recovered store takes writes: a new key, an overwrite and a relation, which later rounds check too. */
    private void writeAfterRecovery(MemoryProvider provider, int round) {
        String key = "after-" + round;
        provider.set(key, GraphCrashChild.value(key, 1), Scope.PROJECT, GraphCrashChild.tags(key, 1), Map.of());
        MemoryEntry second = provider.set(key, GraphCrashChild.value(key, 2), Scope.PROJECT, GraphCrashChild.tags(key, 2),
                Map.of());
        assertThat(second.version()).isEqualTo(2);
        String target = versions.keySet().stream().filter(k -> !k.equals(key)).findFirst().orElse(key);
        provider.requireGraph().relate(EntryRef.of(key, Scope.PROJECT), EntryRef.of(target, Scope.PROJECT), "mentions");
        versions.put(key, 2L);
        relations.add(key + "|mentions|" + target);
        acknowledged += 3;
        assertThat(provider.get(key, Scope.PROJECT)).get().extracting(MemoryEntry::version).isEqualTo(2L);
    }

    private static String tail(Path log) {
        try {
            String text = Files.exists(log) ? Files.readString(log) : "(none)";
            return text.substring(Math.max(0, text.length() - 4000));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }
}
