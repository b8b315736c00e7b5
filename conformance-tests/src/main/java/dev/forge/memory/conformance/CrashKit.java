package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.forge.memory.Capability;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.EntryRules;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety of a durable provider: a {@link CrashWriter} child JVM writes in a loop and is killed (SIGKILL on
 * POSIX) at a random moment, {@code Reliability.count("kills", 4, 1000)} times, always on the same store, so that each
 * round starts from what the kill before left (recovery of a recovery included). After every kill the store is
 * opened again and must hold exactly what the child acknowledged: every key's current value, tags, metadata and
 * version, and where the provider keeps history, every key's version chain; the one operation in flight may be
 * applied whole or not at all, never in part. {@link MemoryProvider#doctor()} must find nothing, a keyword search for
 * each current value's unique word must find exactly its entry, and at the end the store must take new writes.
 *
 * <p>A provider's test is a few lines: extend this class with the factory's {@link #providerName() name} and its
 * {@link #config() config block}; the provider's jar must be on the test class path, as the child finds it by
 * {@link java.util.ServiceLoader}. Figures go to {@link Reliability#report}: "kills survived" and "acknowledged writes
 * checked". Two weaker behaviours a provider may document are allowed only when its test says so:
 * {@link #searchMayMissInFlightWrite()} and {@link #inFlightSetMayKeepEarlierTagsAndMetadata()}.
 */
@Tag(Reliability.TAG)
public abstract class CrashKit {

    private static final Duration STEP = Duration.ofSeconds(120);

    /** The store: base directory, forge home and the signal directories of the rounds. */
    @TempDir
    protected Path store;

    /** The factory name the child opens, such as {@code sqlite}. */
    protected abstract String providerName();

    /** The provider's config block; maps, lists, strings, numbers and booleans only. */
    protected abstract Map<String, Object> config();

    /** The name the figures are reported under; the factory name unless overridden. */
    protected String label() {
        return providerName();
    }

    /** The PROJECT keys written: {@code crash/p0} to {@code crash/p5} unless overridden. */
    protected List<String> projectKeys() {
        return IntStream.range(0, 6).mapToObj(i -> "crash/p" + i).toList();
    }

    /** The GLOBAL keys written: {@code crash/g0} to {@code crash/g3} unless overridden. */
    protected List<String> globalKeys() {
        return IntStream.range(0, 4).mapToObj(i -> "crash/g" + i).toList();
    }

    /**
     * Whether the provider's search may miss the write in flight at a kill until the key is written again or
     * {@link dev.forge.memory.Reindexing#reindex() reindexed} (a router that updates its search index after its
     * storage, as the hybrid provider documents); false by default. When true, keyword searches need not find the
     * entries changed by the operations in flight at the kills until they are written again, but
     * {@link MemoryProvider#doctor()} must then report exactly those it misses, each naming the key (in quotes) and
     * {@code forge-memory reindex}, and nothing else but keys whose delete was in flight (whose copy a search index
     * may still hold); after the last kill the kit reindexes and then requires every search to find its entry.
     */
    protected boolean searchMayMissInFlightWrite() {
        return false;
    }

    /**
     * Whether a set in flight at the kill may show with its value but the tags and metadata of the version before it
     * (a provider whose plain document holds the value and is written before the version carrying tags and metadata,
     * as the markdown provider's layered layout documents); false by default.
     */
    protected boolean inFlightSetMayKeepEarlierTagsAndMetadata() {
        return false;
    }

    /**
     * Whether a transaction in flight at the kill may show only its GLOBAL part applied (a provider that keeps GLOBAL
     * in a store of its own and commits that store first, without a record tying the two commits together, as the
     * sqlite provider documents); false by default. When true, the state "acknowledged plus the in-flight
     * transaction's GLOBAL writes" is accepted too.
     */
    protected boolean inFlightGlobalPartMayCommitAlone() {
        return false;
    }

    /** More checks of the reopened store after each kill, such as on the provider's files; none by default. */
    protected void checkStore(MemoryProvider provider, Path base) {
    }

    /** One change of one entry: a set of round {@code round}, operation {@code op}, part {@code part}, or a delete. */
    private record Event(boolean delete, int round, int op, int part, boolean keepsEarlierTags) {
    }

    /** One version as the checks compare it. */
    private record Version(long version, String value, List<String> tags, Map<String, Object> metadata) {

        static Version of(MemoryEntry entry) {
            return new Version(entry.version(), entry.value(), entry.tags(), entry.metadata());
        }
    }

    /** What the child acknowledged in one round, and the operation it had begun but not acknowledged, if any. */
    private record Round(List<List<String>> acknowledged, Optional<List<String>> inFlight) {
    }

    @Test
    void a_writer_killed_at_random_moments_loses_no_acknowledged_write() throws Exception {
        int kills = Reliability.count("kills", 4, 1000);
        Path base = Files.createDirectories(store.resolve("base"));
        CrashWriter.Spec spec = new CrashWriter.Spec(providerName(), config(), "crash-project", base.toString(),
                store.resolve("home").toString(), projectKeys(), globalKeys());
        Path specFile = store.resolve("spec.ser");
        spec.write(specFile);
        Random random = new Random();
        Map<String, List<Event>> model = new TreeMap<>();
        Set<String> lagging = new TreeSet<>(); // entries whose search copy may miss a write in flight at a kill
        long checked = 0;
        long named = 0;
        Set<String> missed = new TreeSet<>(); // entries a search missed at the last check, which doctor() named
        for (int round = 0; round < kills; round++) {
            Path signals = Files.createDirectories(store.resolve("round-" + round));
            boolean early = random.nextInt(100) < 20;
            killAtRandom(specFile, signals, round, random, early);
            Round result = read(signals.resolve("acks"));
            assertThat(early || !result.acknowledged().isEmpty()).as("round %d acknowledged a write", round).isTrue();
            for (int op = 0; op < result.acknowledged().size(); op++) {
                apply(model, result.acknowledged().get(op), round, op, false);
                checked += result.acknowledged().get(op).size();
                result.acknowledged().get(op).forEach(o -> lagging.remove(CrashWriter.ref(o)));
            }
            try (MemoryProvider provider = spec.open("crash-check-" + round)) {
                model = afterKill(spec, provider, model, result, round, lagging, signals);
                Set<String> now = checkDoctor(spec, provider, model, lagging, round);
                named += now.stream().filter(ref -> !missed.contains(ref)).count();
                missed.clear();
                missed.addAll(now);
                checkStore(provider, base);
            }
        }

        try (MemoryProvider provider = spec.open("crash-after")) {
            if (searchMayMissInFlightWrite()) {
                provider.requireReindexing().reindex();
                assertThat(differences(spec, provider, model, Set.of())).as("the store reindexed").isEmpty();
            }
            // The store takes new writes on top of everything, and keeps them.
            int op = 0;
            for (String ref : refs(spec)) {
                String setOp = "S " + ref + " 0";
                provider.set(key(spec, ref), CrashWriter.value(kills, op, 0), scope(ref), CrashWriter.tags(kills, op),
                        CrashWriter.metadata(kills, op));
                apply(model, List.of(setOp), kills, op++, false);
            }
            assertThat(differences(spec, provider, model, Set.of())).as("the store after new writes").isEmpty();
        }
        try (MemoryProvider provider = spec.open("crash-reopened")) {
            assertThat(differences(spec, provider, model, Set.of())).as("the store reopened after new writes").isEmpty();
            assertThat(provider.doctor()).isEmpty();
        }
        Reliability.report("crash", label(), "kills survived", kills);
        Reliability.report("crash", label(), "acknowledged writes checked", checked);
        if (searchMayMissInFlightWrite()) {
            Reliability.report("crash", label(), "in-flight writes search missed, named by doctor()", named);
        }
    }

    /**
     * Checks {@link MemoryProvider#doctor()} after a kill: it finds nothing, or, where search may miss the writes in
     * flight ({@link #searchMayMissInFlightWrite()}), it names exactly the entries of {@code lagging} that a keyword
     * search misses, and otherwise only entries of {@code lagging} that are deleted. Returns those it had to name.
     */
    private Set<String> checkDoctor(CrashWriter.Spec spec, MemoryProvider provider, Map<String, List<Event>> model,
            Set<String> lagging, int round) {
        List<String> problems = provider.doctor().stream().map(p -> p.location() + ": " + p.problem()).toList();
        if (!searchMayMissInFlightWrite()) {
            assertThat(problems).as("problems found by doctor() after kill %d", round + 1).isEmpty();
            return Set.of();
        }
        Set<String> missed = new TreeSet<>();
        Set<String> deleted = new TreeSet<>();
        for (String ref : lagging) {
            List<Event> events = model.getOrDefault(ref, List.of());
            if (events.isEmpty() || events.get(events.size() - 1).delete()) {
                deleted.add(ref);
            } else if (searchProblem(spec, provider, ref, events).isPresent()) {
                missed.add(ref);
            }
        }
        for (String ref : missed) {
            String key = "'" + key(spec, ref) + "'";
            assertThat(problems).as("after kill %d a search misses %s: doctor() must name it", round + 1, key)
                    .anySatisfy(p -> assertThat(p).contains(key).contains("forge-memory reindex"));
        }
        for (String problem : problems) {
            assertThat(missed.stream().anyMatch(ref -> problem.contains("'" + key(spec, ref) + "'"))
                    || deleted.stream().anyMatch(ref -> problem.contains("'" + key(spec, ref) + "'")))
                    .as("after kill %d doctor() reports only entries a search misses %s or whose delete was in flight"
                            + " %s, not: %s", round + 1, missed, deleted, problem).isTrue();
        }
        return missed;
    }

    /**
     * Checks the reopened store against {@code model}, the acknowledged state, or else against it with the operation
     * in flight applied; returns the state found. Adds the entries the operation in flight changed to {@code lagging}
     * where the provider's search may miss it.
     */
    private Map<String, List<Event>> afterKill(CrashWriter.Spec spec, MemoryProvider provider,
            Map<String, List<Event>> model, Round result, int round, Set<String> lagging, Path signals) {
        List<String> without = differences(spec, provider, model, lagging);
        if (without.isEmpty() || result.inFlight().isEmpty()) {
            assertThat(without).as("the store after kill %d; child output:%n%s", round + 1, log(signals)).isEmpty();
            return model;
        }
        List<String> inFlight = result.inFlight().get();
        int op = result.acknowledged().size();
        Set<String> maybeLagging = new TreeSet<>(lagging);
        if (searchMayMissInFlightWrite()) {
            inFlight.forEach(o -> maybeLagging.add(CrashWriter.ref(o)));
        }
        Map<String, List<Event>> with = copy(model);
        apply(with, inFlight, round, op, false);
        List<String> withDifferences = differences(spec, provider, with, maybeLagging);
        if (!withDifferences.isEmpty() && inFlightSetMayKeepEarlierTagsAndMetadata()) {
            Map<String, List<Event>> keeping = copy(model);
            apply(keeping, inFlight, round, op, true);
            if (differences(spec, provider, keeping, maybeLagging).isEmpty()) {
                with = keeping;
                withDifferences = List.of();
            }
        }
        if (!withDifferences.isEmpty() && inFlightGlobalPartMayCommitAlone()) {
            List<String> globalPart = inFlight.stream().filter(o -> scope(CrashWriter.ref(o)) == Scope.GLOBAL).toList();
            if (!globalPart.isEmpty() && globalPart.size() < inFlight.size()) {
                Map<String, List<Event>> half = copy(model);
                apply(half, globalPart, round, op, false);
                if (differences(spec, provider, half, maybeLagging).isEmpty()) {
                    with = half;
                    withDifferences = List.of();
                }
            }
        }
        if (!withDifferences.isEmpty()) {
            fail("after kill %d the store is neither the acknowledged state nor that plus the operation in flight %s."
                    + "%nWithout it:%n%s%nWith it:%n%s%nChild output:%n%s", round + 1, inFlight,
                    String.join("\n", without), String.join("\n", withDifferences), log(signals));
        }
        lagging.addAll(maybeLagging);
        return with;
    }

    private static void killAtRandom(Path specFile, Path signals, int round, Random random, boolean early)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(ChildJvm.command(
                List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto"), CrashWriter.class,
                specFile.toString(), signals.toString(), Integer.toString(round), Long.toString(random.nextLong())));
        builder.redirectErrorStream(true);
        builder.redirectOutput(signals.resolve("child.log").toFile());
        Process child = builder.start();
        try {
            Path awaited = signals.resolve(early ? "opened" : "ready");
            if (!ChildJvm.awaitFile(awaited, STEP)) {
                fail("round %d: the child never created %s; its output:%n%s", round, awaited.getFileName(),
                        log(signals));
            }
            Thread.sleep(early ? random.nextInt(30) : 20 + random.nextInt(280));
            assertThat(child.isAlive()).as("the child still runs when killed; its output:%n%s", log(signals)).isTrue();
        } finally {
            child.destroyForcibly();
            assertThat(child.waitFor(STEP.toSeconds(), TimeUnit.SECONDS)).as("the killed child ended").isTrue();
        }
    }

    /** The complete lines of the acks file: a kill may cut the last one short. */
    private static Round read(Path acks) throws IOException {
        String text = Files.exists(acks) ? Files.readString(acks, StandardCharsets.UTF_8) : "";
        String[] lines = text.split("\n", -1);
        List<List<String>> acknowledged = new ArrayList<>();
        List<String> begun = null;
        for (int i = 0; i < lines.length - 1; i++) {
            String[] parts = lines[i].split(" ", 3);
            int op = Integer.parseInt(parts[1]);
            if (parts[0].equals("T")) {
                assertThat(begun).as("operation %d began before the one before it was acknowledged", op).isNull();
                assertThat(op).as("operations in order").isEqualTo(acknowledged.size());
                begun = List.of(parts[2].split("\\|"));
            } else {
                assertThat(begun).as("acknowledgement of operation %d without its beginning", op).isNotNull();
                acknowledged.add(begun);
                begun = null;
            }
        }
        return new Round(acknowledged, Optional.ofNullable(begun));
    }

    private static void apply(Map<String, List<Event>> model, List<String> ops, int round, int op,
            boolean keepsEarlierTags) {
        for (String o : ops) {
            String[] parts = o.split(" ");
            List<Event> events = model.computeIfAbsent(CrashWriter.ref(o), r -> new ArrayList<>());
            events.add(parts[0].equals("D") ? new Event(true, round, op, 0, false)
                    : new Event(false, round, op, Integer.parseInt(parts[3]), keepsEarlierTags));
        }
    }

    private static Map<String, List<Event>> copy(Map<String, List<Event>> model) {
        Map<String, List<Event>> copy = new TreeMap<>();
        model.forEach((ref, events) -> copy.put(ref, new ArrayList<>(events)));
        return copy;
    }

    private static List<String> refs(CrashWriter.Spec spec) {
        List<String> refs = new ArrayList<>();
        IntStream.range(0, spec.projectKeys().size()).forEach(k -> refs.add("P " + k));
        IntStream.range(0, spec.globalKeys().size()).forEach(k -> refs.add("G " + k));
        return refs;
    }

    private static Scope scope(String ref) {
        return ref.startsWith("G") ? Scope.GLOBAL : Scope.PROJECT;
    }

    private static String key(CrashWriter.Spec spec, String ref) {
        return spec.keys(scope(ref)).get(Integer.parseInt(ref.substring(2)));
    }

    /**
     * Every way the store differs from {@code model}; empty if it matches. A keyword search is not required to find
     * the entries of {@code lagging} (references such as {@code "P 3"}).
     */
    private static List<String> differences(CrashWriter.Spec spec, MemoryProvider provider,
            Map<String, List<Event>> model, Set<String> lagging) {
        boolean tombstones = provider.capabilities().contains(Capability.TOMBSTONES);
        List<String> found = new ArrayList<>();
        Map<Scope, TreeSet<String>> live = new LinkedHashMap<>();
        live.put(Scope.PROJECT, new TreeSet<>());
        live.put(Scope.GLOBAL, new TreeSet<>());
        for (String ref : refs(spec)) {
            Scope scope = scope(ref);
            String key = key(spec, ref);
            List<Version> history = new ArrayList<>();
            long number = 0;
            Event current = null;
            for (Event event : model.getOrDefault(ref, List.of())) {
                if (event.delete()) {
                    current = null;
                    if (tombstones) {
                        number++;
                    } else {
                        number = 0;
                        history.clear();
                    }
                } else {
                    number++;
                    List<String> tags = CrashWriter.tags(event.round(), event.op());
                    Map<String, Object> metadata = EntryRules.normalizeMetadata(
                            CrashWriter.metadata(event.round(), event.op()), key);
                    if (event.keepsEarlierTags()) {
                        Version earlier = current == null ? null : history.get(history.size() - 1);
                        tags = earlier == null ? List.of() : earlier.tags();
                        metadata = earlier == null ? Map.of() : earlier.metadata();
                    }
                    current = event;
                    history.add(new Version(number, CrashWriter.value(event.round(), event.op(), event.part()), tags,
                            metadata));
                }
            }
            Optional<Version> expected = current == null ? Optional.empty() : Optional.of(history.get(history.size() - 1));
            Optional<Version> actual = provider.get(key, scope).map(Version::of);
            if (!actual.equals(expected)) {
                found.add(scope + " " + key + ": get() is " + actual + ", expected " + expected);
            }
            if (provider.history().isPresent()) {
                List<Version> versions = provider.history().get().versions(key, scope).stream().map(Version::of)
                        .toList();
                if (!versions.equals(history)) {
                    found.add(scope + " " + key + ": versions() are " + versions + ", expected " + history);
                }
            }
            if (current != null) {
                live.get(scope).add(key);
                if (!lagging.contains(ref)) {
                    searchProblem(spec, provider, ref, model.get(ref)).ifPresent(found::add);
                }
            }
        }
        live.forEach((scope, keys) -> {
            List<String> listed = provider.query(Query.of("*", scope)).stream().map(MemoryEntry::key).toList();
            if (!listed.equals(List.copyOf(keys))) {
                found.add(scope + ": query(*) lists " + listed + ", expected " + keys);
            }
        });
        return found;
    }

    /**
     * What is wrong with a keyword search for the unique word of the current value of {@code ref}, whose changes are
     * {@code events} (the last a set): empty if it finds exactly that entry, or if the provider has no keyword search.
     */
    private static Optional<String> searchProblem(CrashWriter.Spec spec, MemoryProvider provider, String ref,
            List<Event> events) {
        if (!provider.capabilities().contains(Capability.KEYWORD_SEARCH)) {
            return Optional.empty();
        }
        Event current = events.get(events.size() - 1);
        Scope scope = scope(ref);
        String key = key(spec, ref);
        String token = CrashWriter.token(current.round(), current.op(), current.part());
        String value = CrashWriter.value(current.round(), current.op(), current.part());
        List<String> hits = provider.search(SearchRequest.builder(token).scopes(scope).build()).stream()
                .map(Hit::entry).map(e -> e.key() + " = " + e.value().replace("\n", "\\n")).toList();
        String wanted = key + " = " + value.replace("\n", "\\n");
        return hits.equals(List.of(wanted)) ? Optional.empty() : Optional.of(scope + " " + key
                + ": a keyword search for " + token + " finds " + hits + ", expected only " + wanted);
    }

    private static String log(Path signals) {
        try {
            Path file = signals.resolve("child.log");
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "(no output)";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
