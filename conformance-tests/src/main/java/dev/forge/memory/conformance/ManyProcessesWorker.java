package dev.forge.memory.conformance;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One writing process of {@link ManyProcessesKit}, and the writing threads the kit's own JVM runs the same way.
 *
 * <p>Arguments of {@link #main}: the store directory, the work directory and this process's id (such as {@code w1}).
 * The work directory holds {@value #PLAN_FILE}, written by the kit: the provider's factory name, its config and the
 * sizes. The process opens the provider through the public API ({@link ProviderRegistry#load()} by name), creates
 * {@code ready-<id>}, waits for {@code go}, runs its threads, closes the provider and exits 0; any failure exits 1 with
 * the stack trace on standard error.
 *
 * <p>Each thread does a fixed mix of operations, seeded by its name: 40% sets of one of its three own
 * keys, 40% sets of one of the two keys every thread of every process shares, 20% deletes of one of
 * its own keys; each set carries tags and metadata naming the writer and the operation. Every operation is
 * appended to the thread's log ({@code log-<id>-t<n>.tsv}, flushed per line) once the provider has acknowledged it:
 * {@code index, kind, key, value, answer}, where the answer is the version a set returned or whether a delete removed
 * something.
 */
public final class ManyProcessesWorker {

    /** Reads and writes the plan's {@code config} property: the provider's config block as one JSON object. */
    static final ObjectMapper CONFIG_JSON = new ObjectMapper();

    /** The file of the work directory that holds the plan: provider, config, sizes. */
    public static final String PLAN_FILE = "plan.properties";

    /** The signal file that starts every writing thread of every process. */
    public static final String GO = "go";

    /** How many keys each thread owns. */
    static final int OWN_KEYS = 3;

    /** How many keys every thread of every process overwrites. */
    static final int SHARED_KEYS = 2;

    /** The project every writer and checker opens the store for. */
    static final String PROJECT = "many-processes";

    /** The tag every write carries, besides its writer's. */
    static final String TAG = "many-processes";

    private ManyProcessesWorker() {
    }

    /** Runs one writing process; see the class comment for the arguments. */
    public static void main(String[] args) {
        try {
            Path store = Path.of(args[0]);
            Path work = Path.of(args[1]);
            String process = args[2];
            Properties plan = plan(work);
            try (MemoryProvider provider = open(store, plan, process + "-session")) {
                ChildJvm.signal(work.resolve("ready-" + process));
                write(provider, work, process, plan);
            }
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    /** Reads the plan the kit wrote into {@code work}. */
    static Properties plan(Path work) {
        Properties plan = new Properties();
        try (Reader reader = Files.newBufferedReader(work.resolve(PLAN_FILE), StandardCharsets.UTF_8)) {
            plan.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return plan;
    }

    /** Opens the planned provider on {@code store} by its factory name, for {@link #PROJECT} and {@code session}. */
    static MemoryProvider open(Path store, Properties plan, String session) {
        Map<String, Object> config;
        try {
            config = CONFIG_JSON.readValue(plan.getProperty("config", "{}"), new TypeReference<Map<String, Object>>() {
            });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the plan's config is not a JSON object: " + e.getOriginalMessage(), e);
        }
        ProviderRegistry registry = ProviderRegistry.load();
        ProviderContext context = ProviderContext.builder()
                .projectId(PROJECT)
                .sessionId(session)
                .clock(Clock.systemUTC())
                .baseDirectory(store)
                .forgeHome(store.resolve("forge-home"))
                .registry(registry)
                .config(ProviderConfig.of(config, "many-processes plan", "memory.config"))
                .build();
        return registry.open(plan.getProperty("provider"), context);
    }

    /** The key of {@code name}: the plan's key prefix (empty, or a layered layout's directory) and the name. */
    static String key(Properties plan, String name) {
        return plan.getProperty("keyPrefix", "") + name;
    }

    /** The name of own key {@code k} of thread {@code thread} of {@code process}. */
    static String ownName(String process, int thread, int k) {
        return process + "-t" + thread + "-k" + k;
    }

    /** The writer of thread {@code thread} of {@code process}, as its metadata and tag name it. */
    static String writer(String process, int thread) {
        return process + "-t" + thread;
    }

    /** The tags of every write of {@code writer}. */
    static List<String> tags(String writer) {
        return List.of(TAG, "writer-" + writer);
    }

    /** The metadata of operation {@code index} of {@code writer}. */
    static Map<String, Object> metadata(String writer, int index) {
        return Map.of("writer", writer, "op", (long) index);
    }

    /** The value operation {@code index} of {@code writer} sets: unique across the run. */
    static String value(String writer, int index) {
        return "value of " + writer + " op " + index;
    }

    /** The log file of thread {@code thread} of {@code process}. */
    static Path log(Path work, String process, int thread) {
        return work.resolve("log-" + process + "-t" + thread + ".tsv");
    }

    /**
     * Waits for {@link #GO}, then runs the planned threads of {@code process} on {@code provider} and waits for them;
     * the first failure of a thread is thrown.
     */
    static void write(MemoryProvider provider, Path work, String process, Properties plan) throws Exception {
        int threads = Integer.parseInt(plan.getProperty("threads"));
        int ops = Integer.parseInt(plan.getProperty("ops"));
        Duration wait = Duration.ofSeconds(Long.parseLong(plan.getProperty("waitSeconds")));
        if (!ChildJvm.awaitFile(work.resolve(GO), wait)) {
            throw new IllegalStateException("no '" + GO + "' signal within " + wait);
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Void>> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                running.add(pool.submit(() -> {
                    writeThread(provider, work, process, thread, ops, plan);
                    return null;
                }));
            }
            for (Future<Void> future : running) {
                future.get(wait.toSeconds(), TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static void writeThread(MemoryProvider provider, Path work, String process, int thread, int ops,
            Properties plan) throws IOException {
        String writer = writer(process, thread);
        Random random = new Random(writer.hashCode());
        try (Writer log = new BufferedWriter(Files.newBufferedWriter(log(work, process, thread), StandardCharsets.UTF_8))) {
            for (int i = 0; i < ops; i++) {
                int choice = random.nextInt(10);
                String line;
                if (choice < 8) {
                    String name = choice < 4 ? ownName(process, thread, random.nextInt(OWN_KEYS))
                            : "shared-" + random.nextInt(SHARED_KEYS);
                    String key = key(plan, name);
                    MemoryEntry stored = provider.set(key, value(writer, i), Scope.PROJECT, tags(writer),
                            metadata(writer, i));
                    line = String.join("\t", Integer.toString(i), "SET", key, value(writer, i),
                            Long.toString(stored.version()));
                } else {
                    String key = key(plan, ownName(process, thread, random.nextInt(OWN_KEYS)));
                    boolean deleted = provider.delete(key, Scope.PROJECT);
                    line = String.join("\t", Integer.toString(i), "DELETE", key, "", Boolean.toString(deleted));
                }
                log.write(line + "\n");
                log.flush();
            }
        }
    }
}
