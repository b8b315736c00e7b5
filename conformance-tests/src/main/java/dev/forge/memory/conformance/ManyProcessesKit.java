package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Capability;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.support.files.AtomicFiles;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many processes writing one store at once: {@link #processes()} child JVMs ({@link ManyProcessesWorker}) and, unless
 * {@link #parentWrites()} is off, this JVM, each with {@link #threads()} threads, all released by one signal file,
 * set their own keys, overwrite keys every thread shares and delete their own keys, logging every acknowledged
 * operation. Afterwards the store must hold exactly what the acknowledged operations say, read through the provider
 * this JVM had open all along and through a freshly opened one:
 * <ul>
 *   <li>every set of a shared key got its own version: the versions the writers were handed are exactly 1..n, and
 *       with {@link Capability#HISTORY} the key's history is exactly those n versions, each holding the value, tags and
 *       metadata of the set that was handed its number;</li>
 *   <li>each own key answers its writer's last acknowledged operation (value, version, tags, metadata, or absent after
 *       a delete), every delete removed exactly when the key was there, versions after a delete follow the provider's
 *       rule (1 again, or after the tombstone with {@link Capability#TOMBSTONES}), and the history is the chain of
 *       sets the rule keeps;</li>
 *   <li>a query of the whole scope lists exactly the live keys; {@code doctor()} finds nothing; no temporary file
 *       ({@value AtomicFiles#TEMP_PREFIX}...) is left, nor anything {@link #leftovers} names;</li>
 *   <li>the store takes writes afterwards, continuing each key's versions.</li>
 * </ul>
 * A subclass names the provider's factory and its config for a store directory; sizes follow
 * {@link Reliability#count} ({@code processes.ops} operations per thread).
 */
@Tag(Reliability.TAG)
public abstract class ManyProcessesKit {

    /** The store directory every process opens. */
    @TempDir
    protected Path store;

    /** Plan, signals, logs and the children's output. */
    @TempDir
    protected Path work;

    /** The factory name of the provider under test, as {@link dev.forge.memory.spi.ProviderRegistry} finds it. */
    protected abstract String providerName();

    /**
     * The provider's config block for a store in {@code store}, as YAML would give it: strings, numbers, booleans,
     * and nested maps and lists (a hybrid router's children).
     */
    protected abstract Map<String, ?> config(Path store);

    /**
     * How long one process may go on seeing its own earlier view of a key another process has since written, as the
     * provider documents it (a cache's time to live); the checks start this long after the last write. Zero unless
     * overridden.
     */
    protected Duration settleTime() {
        return Duration.ZERO;
    }

    /** The provider's name in the reliability figures; the factory name unless overridden. */
    protected String reportName() {
        return providerName();
    }

    /** What every key starts with, such as a layered layout's document directory; empty by default. */
    protected String keyPrefix() {
        return "";
    }

    /**
     * Whether the short form runs at a reduced size, one child JVM beside this one and two threads each, for a
     * provider whose writes are slow; the soak form is always full size. False by default.
     */
    protected boolean reducedShortForm() {
        return false;
    }

    /** How many child JVMs write; 2 by default (1 in a {@link #reducedShortForm() reduced} short form). */
    protected int processes() {
        return reducedShortForm() && !Reliability.soak() ? 1 : 2;
    }

    /** How many threads each process writes with; 4 by default (2 in a {@link #reducedShortForm() reduced} short form). */
    protected int threads() {
        return reducedShortForm() && !Reliability.soak() ? 2 : 4;
    }

    /** Whether this JVM writes too, as one more process; on by default. */
    protected boolean parentWrites() {
        return true;
    }

    /** Operations per thread: {@code processes.ops}, 12 in the short form, 400 in the soak form. */
    protected int opsPerThread() {
        return Reliability.count("processes.ops", 12, 400);
    }

    /** Options of the child JVMs: a quick start, one GC thread. */
    protected List<String> childJvmOptions() {
        return List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m");
    }

    /** Files under {@code store} that must not be there once every writer is done; none by default. */
    protected List<Path> leftovers(Path store) throws IOException {
        return List.of();
    }

    /** One acknowledged operation of one writer thread, as its log line says. */
    private record Op(String process, String writer, int index, boolean set, String key, String value, long version,
            boolean deleted) {

        Map<String, Object> metadata() {
            return ManyProcessesWorker.metadata(writer, index);
        }
    }

    @Test
    void processes_writing_overwriting_and_deleting_one_store_at_once_lose_no_acknowledged_write() throws Exception {
        int ops = opsPerThread();
        int writerProcesses = processes() + (parentWrites() ? 1 : 0);
        long waitSeconds = 120 + (long) writerProcesses * threads() * ops / 5;
        Properties plan = new Properties();
        plan.setProperty("provider", providerName());
        plan.setProperty("keyPrefix", keyPrefix());
        plan.setProperty("threads", Integer.toString(threads()));
        plan.setProperty("ops", Integer.toString(ops));
        plan.setProperty("waitSeconds", Long.toString(waitSeconds));
        plan.setProperty("config", ManyProcessesWorker.CONFIG_JSON.writeValueAsString(config(store)));
        try (Writer out = Files.newBufferedWriter(work.resolve(ManyProcessesWorker.PLAN_FILE), StandardCharsets.UTF_8)) {
            plan.store(out, "written by " + getClass().getName());
        }

        List<String> processIds = new ArrayList<>();
        try (MemoryProvider parent = ManyProcessesWorker.open(store, plan, "parent-session")) {
            List<Process> children = new ArrayList<>();
            try {
                for (int c = 1; c <= processes(); c++) {
                    String id = "w" + c;
                    processIds.add(id);
                    ProcessBuilder builder = new ProcessBuilder(ChildJvm.command(childJvmOptions(),
                            ManyProcessesWorker.class, store.toString(), work.toString(), id));
                    builder.redirectErrorStream(true);
                    builder.redirectOutput(work.resolve(id + ".out").toFile());
                    children.add(builder.start());
                }
                for (int c = 0; c < children.size(); c++) {
                    String id = processIds.get(c);
                    assertThat(ChildJvm.awaitFile(work.resolve("ready-" + id), Duration.ofSeconds(waitSeconds)))
                            .as("child %s opened the store; alive: %s, its output:%n%s", id, children.get(c).isAlive(),
                                    output(id)).isTrue();
                }
                CompletableFuture<Void> parentWriting = CompletableFuture.completedFuture(null);
                if (parentWrites()) {
                    processIds.add("w0");
                    parentWriting = CompletableFuture.runAsync(() -> {
                        try {
                            ManyProcessesWorker.write(parent, work, "w0", plan);
                        } catch (Exception e) {
                            throw new IllegalStateException("a writer thread of this JVM failed", e);
                        }
                    });
                }
                ChildJvm.signal(work.resolve(ManyProcessesWorker.GO));
                parentWriting.get(waitSeconds, TimeUnit.SECONDS);
                for (int c = 0; c < children.size(); c++) {
                    String id = processIds.get(c);
                    Process child = children.get(c);
                    assertThat(child.waitFor(waitSeconds, TimeUnit.SECONDS)).as("child %s finished; its output:%n%s",
                            id, output(id)).isTrue();
                    assertThat(child.exitValue()).as("child %s succeeded; its output:%n%s", id, output(id)).isZero();
                }
            } finally {
                children.forEach(Process::destroyForcibly);
            }

            // Before any provider opens the store again: opening removes temporary files left by a crash.
            assertThat(temporaryFiles()).as("temporary files left in the store").isEmpty();
            assertThat(leftovers(store)).as("files left in the store").isEmpty();
            List<Op> acknowledged = readLogs(processIds);
            Thread.sleep(settleTime().toMillis());
            assertThat(acknowledged).as("acknowledged operations").hasSize(processIds.size() * threads() * ops);
            try (MemoryProvider fresh = ManyProcessesWorker.open(store, plan, "checker-session")) {
                for (MemoryProvider reader : List.of(parent, fresh)) {
                    checkSharedKeys(reader, acknowledged);
                    checkOwnKeys(reader, acknowledged);
                    assertThat(reader.doctor()).as("problems doctor() finds").isEmpty();
                }
                checkWritesGoOn(fresh, parent, acknowledged);
            }
            Reliability.report("processes", reportName(), "processes", writerProcesses);
            Reliability.report("processes", reportName(), "threads per process", threads());
            Reliability.report("processes", reportName(), "acknowledged ops checked", acknowledged.size());
            Reliability.report("processes", reportName(), "shared-key writes after another process's",
                    processSwitches(acknowledged));
        }
    }

    private String output(String process) {
        try {
            Path file = work.resolve(process + ".out");
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private List<Op> readLogs(List<String> processIds) throws IOException {
        List<Op> ops = new ArrayList<>();
        for (String process : processIds) {
            for (int t = 0; t < threads(); t++) {
                String writer = ManyProcessesWorker.writer(process, t);
                for (String line : Files.readAllLines(ManyProcessesWorker.log(work, process, t), StandardCharsets.UTF_8)) {
                    String[] f = line.split("\t", -1);
                    boolean set = f[1].equals("SET");
                    ops.add(new Op(process, writer, Integer.parseInt(f[0]), set, f[2], f[3],
                            set ? Long.parseLong(f[4]) : 0, !set && Boolean.parseBoolean(f[4])));
                }
            }
        }
        return ops;
    }

    private boolean shared(String key) {
        return key.startsWith(keyPrefix() + "shared-");
    }

    /** Each shared key: n sets handed versions 1..n, each version holding what its set wrote; the last is current. */
    private void checkSharedKeys(MemoryProvider reader, List<Op> acknowledged) {
        Map<String, List<Op>> byKey = acknowledged.stream().filter(op -> shared(op.key()))
                .collect(Collectors.groupingBy(Op::key, TreeMap::new, Collectors.toList()));
        for (Map.Entry<String, List<Op>> key : byKey.entrySet()) {
            List<Op> sets = new ArrayList<>(key.getValue());
            sets.sort(Comparator.comparingLong(Op::version));
            int n = sets.size();
            assertThat(sets).as("versions handed to the sets of %s", key.getKey()).extracting(Op::version)
                    .containsExactlyElementsOf(LongStream.rangeClosed(1, n).boxed().toList());
            Map<String, List<Long>> perWriter = sets.stream().collect(Collectors.groupingBy(Op::writer,
                    Collectors.mapping(op -> (long) op.index(), Collectors.toList())));
            perWriter.forEach((writer, indexes) -> assertThat(indexes)
                    .as("operations of %s on %s, in version order", writer, key.getKey()).isSorted());
            Op last = sets.get(n - 1);
            assertEntry(reader.get(key.getKey(), Scope.PROJECT), last);
            if (reader.capabilities().contains(Capability.HISTORY)) {
                List<MemoryEntry> history = reader.requireHistory().versions(key.getKey(), Scope.PROJECT);
                assertThat(history).as("history of %s", key.getKey()).hasSize(n);
                for (int v = 0; v < n; v++) {
                    assertEntry(Optional.of(history.get(v)), sets.get(v));
                }
            }
        }
    }

    /** Each own key: replays its writer's operations with the provider's version rule and compares. */
    private void checkOwnKeys(MemoryProvider reader, List<Op> acknowledged) {
        boolean tombstones = reader.capabilities().contains(Capability.TOMBSTONES);
        Map<String, List<Op>> byKey = acknowledged.stream().filter(op -> !shared(op.key()))
                .collect(Collectors.groupingBy(Op::key, TreeMap::new, Collectors.toList()));
        Map<String, Op> live = new HashMap<>();
        for (Map.Entry<String, List<Op>> key : byKey.entrySet()) {
            List<Op> chain = new ArrayList<>();
            Op current = null;
            long lastNumber = 0;
            for (Op op : key.getValue()) {
                if (op.set()) {
                    long expected = current != null ? current.version() + 1 : tombstones ? lastNumber + 1 : 1;
                    assertThat(op.version()).as("version of %s op %s on %s", op.writer(), op.index(), op.key())
                            .isEqualTo(expected);
                    current = op;
                    lastNumber = op.version();
                    chain.add(op);
                } else {
                    assertThat(op.deleted()).as("delete of %s op %s on %s removed something", op.writer(), op.index(),
                            op.key()).isEqualTo(current != null);
                    if (current != null) {
                        lastNumber = tombstones ? current.version() + 1 : 0;
                        if (!tombstones) {
                            chain.clear();
                        }
                    }
                    current = null;
                }
            }
            if (current != null) {
                live.put(key.getKey(), current);
                assertEntry(reader.get(key.getKey(), Scope.PROJECT), current);
            } else {
                assertThat(reader.get(key.getKey(), Scope.PROJECT)).as("deleted key %s", key.getKey()).isEmpty();
            }
            if (reader.capabilities().contains(Capability.HISTORY)) {
                List<MemoryEntry> history = reader.requireHistory().versions(key.getKey(), Scope.PROJECT);
                assertThat(history).as("history of %s", key.getKey()).hasSize(chain.size());
                for (int v = 0; v < chain.size(); v++) {
                    assertEntry(Optional.of(history.get(v)), chain.get(v));
                }
            }
        }
        Map<String, Long> expected = new TreeMap<>();
        live.forEach((key, op) -> expected.put(key, op.version()));
        acknowledged.stream().filter(op -> shared(op.key()))
                .forEach(op -> expected.merge(op.key(), op.version(), Math::max));
        Map<String, Long> listed = new TreeMap<>();
        for (MemoryEntry entry : reader.query(Query.of("*", Scope.PROJECT))) {
            assertThat(listed.put(entry.key(), entry.version())).as("%s listed twice", entry.key()).isNull();
        }
        assertThat(listed).as("keys and versions a query of the scope lists").isEqualTo(expected);
    }

    private static void assertEntry(Optional<MemoryEntry> read, Op op) {
        assertThat(read).as("%s as %s op %s set it", op.key(), op.writer(), op.index()).isPresent();
        MemoryEntry entry = read.get();
        assertThat(entry.key()).isEqualTo(op.key());
        assertThat(entry.version()).as("version of %s", op.key()).isEqualTo(op.version());
        assertThat(entry.value()).as("value of %s version %s", op.key(), op.version()).isEqualTo(op.value());
        assertThat(entry.tags()).as("tags of %s version %s", op.key(), op.version())
                .isEqualTo(ManyProcessesWorker.tags(op.writer()));
        assertThat(entry.metadata()).as("metadata of %s version %s", op.key(), op.version())
                .isEqualTo(new LinkedHashMap<>(op.metadata()));
    }

    private List<Path> temporaryFiles() throws IOException {
        try (Stream<Path> files = Files.walk(store)) {
            return files.filter(f -> f.getFileName().toString().startsWith(AtomicFiles.TEMP_PREFIX)).toList();
        }
    }

    /** After the run, one more write of each shared key continues its versions, and a new key starts at 1. */
    private void checkWritesGoOn(MemoryProvider fresh, MemoryProvider parent, List<Op> acknowledged) {
        Map<String, Long> last = new TreeMap<>();
        acknowledged.stream().filter(op -> shared(op.key())).forEach(op -> last.merge(op.key(), op.version(), Math::max));
        last.forEach((key, version) -> {
            assertThat(fresh.set(key, "after the run", Scope.PROJECT).version()).isEqualTo(version + 1);
            assertThat(parent.get(key, Scope.PROJECT).orElseThrow().value()).isEqualTo("after the run");
        });
        String key = keyPrefix() + "after-the-run";
        assertThat(parent.set(key, "new", Scope.PROJECT).version()).isEqualTo(1);
        assertThat(fresh.get(key, Scope.PROJECT).map(MemoryEntry::value)).contains("new");
        assertThat(fresh.delete(key, Scope.PROJECT)).isTrue();
        assertThat(parent.get(key, Scope.PROJECT)).isEmpty();
    }

    /** How often, along the shared keys' versions, a version was written by another process than the one before. */
    private static long processSwitches(List<Op> acknowledged) {
        Map<String, List<Op>> byKey = acknowledged.stream().filter(op -> op.set() && op.key().contains("shared-"))
                .collect(Collectors.groupingBy(Op::key));
        long switches = 0;
        for (List<Op> sets : byKey.values()) {
            List<Op> ordered = sets.stream().sorted(Comparator.comparingLong(Op::version)).toList();
            for (int i = 1; i < ordered.size(); i++) {
                switches += ordered.get(i).process().equals(ordered.get(i - 1).process()) ? 0 : 1;
            }
        }
        return switches;
    }
}
