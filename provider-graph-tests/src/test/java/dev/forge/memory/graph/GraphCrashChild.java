package dev.forge.memory.graph;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ChildJvm;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;

/**
 * The child JVM of {@link GraphCrashTest}: runs a Neo4j server on a home directory and port, opens the graph provider
 * on it over Bolt, signals "ready" and then writes until it is killed: new keys, overwrites and relations between the
 * keys of its round, appending each acknowledged write to the acks file (one line, flushed before the next write).
 *
 * <p>Arguments: home directory, Bolt port, acks file, ready file, round, seed.
 */
public final class GraphCrashChild {

    /** The relation types the child uses. */
    static final List<String> TYPES = List.of("depends_on", "mentions");

    private GraphCrashChild() {
    }

    /** The value of version {@code version} of {@code key}. */
    static String value(String key, long version) {
        return key + " version " + version + " caf\u00e9 " + "x".repeat((int) (version * 7 % 40));
    }

    /** The tags of version {@code version} of {@code key}. */
    static List<String> tags(String key, long version) {
        return version % 2 == 0 ? List.of("even", "v" + version) : List.of("odd");
    }

    /** The provider of the crash tests on the server at {@code url}, with its store in {@code directory}'s context. */
    static MemoryProvider open(Path directory, String url) {
        ProviderContext context = ProviderContext.builder().projectId("crash").sessionId("s").baseDirectory(directory)
                .forgeHome(directory.resolve("forge-home")).registry(ProviderRegistry.of())
                .config(ProviderConfig.of(Map.of("url", url, "username", "", "password", "", "store", "crash",
                        "connect_timeout", "10s", "retry_time", "5s"), "test", "memory.config"))
                .build();
        return new GraphMemoryProviderFactory().open(context);
    }

    /** Runs the server and writes until killed. */
    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]);
        int port = Integer.parseInt(args[1]);
        Path acks = Path.of(args[2]);
        Path ready = Path.of(args[3]);
        int round = Integer.parseInt(args[4]);
        Random random = new Random(Long.parseLong(args[5]));
        RestartableNeo4j server = new RestartableNeo4j(home, port).start();
        MemoryProvider provider = open(home.resolveSibling("child-context"), server.uri().toString());
        List<String> keys = new ArrayList<>();
        Map<String, Long> versions = new java.util.HashMap<>();
        Set<String> related = new HashSet<>();
        try (BufferedWriter out = Files.newBufferedWriter(acks, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND)) {
            ChildJvm.signal(ready);
            for (int n = 0; ; n++) {
                int choice = random.nextInt(100);
                String line;
                if (keys.size() < 2 || choice < 40) {
                    String key = "r" + round + "-k" + keys.size();
                    MemoryEntry entry = provider.set(key, value(key, 1), Scope.PROJECT, tags(key, 1), Map.of("n", n));
                    keys.add(key);
                    versions.put(key, entry.version());
                    line = "S\t" + key + "\t" + entry.version();
                } else if (choice < 75) {
                    String key = keys.get(random.nextInt(keys.size()));
                    long next = versions.get(key) + 1;
                    MemoryEntry entry = provider.set(key, value(key, next), Scope.PROJECT, tags(key, next), Map.of("n", n));
                    versions.put(key, entry.version());
                    line = "S\t" + key + "\t" + entry.version();
                } else {
                    String from = keys.get(random.nextInt(keys.size()));
                    String to = keys.get(random.nextInt(keys.size()));
                    String type = TYPES.get(random.nextInt(TYPES.size()));
                    if (!related.add(from + "|" + type + "|" + to)) {
                        continue;
                    }
                    provider.requireGraph().relate(EntryRef.of(from, Scope.PROJECT), EntryRef.of(to, Scope.PROJECT), type);
                    line = "R\t" + from + "\t" + type + "\t" + to;
                }
                out.write(line);
                out.newLine();
                out.flush();
            }
        }
    }
}
