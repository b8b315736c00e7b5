package dev.forge.memory.conformance;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Scope;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The child process of {@link CrashKit}: opens a provider by its factory name through the {@link ProviderRegistry}
 * (the class path's {@link java.util.ServiceLoader}) and writes to it until it is killed.
 *
 * <p>Arguments: the {@link Spec} file, the signal directory, the round number, a random seed. The child creates
 * {@code opened} in the signal directory once the provider is open, then mixes writes over the spec's keys: new keys,
 * overwrites with tags and metadata, deletions, and, where the provider has transactions, transactions of two or three
 * of these. Before an operation it appends {@code T <i> <ops>} to {@code acks} in the signal directory, after it
 * returns {@code A <i>}, each line in one unbuffered write, so that a kill loses at most the line being written; after
 * the first acknowledgement it creates {@code ready}. An operation is {@code S <scope> <key index> <part>} (a set of
 * {@link #value} with {@link #tags} and {@link #metadata}) or {@code D <scope> <key index>}, scope {@code P} or
 * {@code G}. Any failure exits with status 1 and the stack trace on standard error.
 */
public final class CrashWriter {

    /** At most this many operations per round; then the child waits to be killed. */
    static final int MAX_OPERATIONS = 20_000;

    private CrashWriter() {
    }

    /**
     * What the child opens and writes: the provider factory's name, its config block, the project id, the base
     * directory and forge home of the context, and the PROJECT and GLOBAL keys it writes.
     *
     * @param provider    the factory name, as in {@code memory.provider}
     * @param config      the provider's config block (serializable maps, lists, strings, numbers, booleans)
     * @param projectId   the project of the context
     * @param base        the context's base directory
     * @param forgeHome   the context's forge home, where GLOBAL memories go by default
     * @param projectKeys the PROJECT keys written
     * @param globalKeys  the GLOBAL keys written
     */
    public record Spec(String provider, Map<String, Object> config, String projectId, String base, String forgeHome,
            List<String> projectKeys, List<String> globalKeys) implements Serializable {

        /** Copies the lists; the config is copied into serializable maps and lists. */
        public Spec {
            config = serializable(config);
            projectKeys = List.copyOf(projectKeys);
            globalKeys = List.copyOf(globalKeys);
        }

        /** The context this spec opens providers with, for session {@code session}. */
        public ProviderContext context(String session) {
            return ProviderContext.builder()
                    .projectId(projectId)
                    .sessionId(session)
                    .baseDirectory(Path.of(base))
                    .forgeHome(Path.of(forgeHome))
                    .registry(ProviderRegistry.load())
                    .config(ProviderConfig.of(config, "crash kit", "memory.config"))
                    .build();
        }

        /** Opens the provider of this spec for session {@code session}. */
        public MemoryProvider open(String session) {
            ProviderContext context = context(session);
            return context.registry().open(provider, context);
        }

        /** The keys of {@code scope}: PROJECT or GLOBAL. */
        public List<String> keys(Scope scope) {
            return scope == Scope.GLOBAL ? globalKeys : projectKeys;
        }

        /** Writes this spec to {@code file}. */
        public void write(Path file) {
            try (ObjectOutputStream out = new ObjectOutputStream(Files.newOutputStream(file))) {
                out.writeObject(this);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Reads a spec {@link #write written} to {@code file}. */
        public static Spec read(Path file) {
            try (ObjectInputStream in = new ObjectInputStream(Files.newInputStream(file))) {
                return (Spec) in.readObject();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
        }

        @SuppressWarnings("unchecked")
        private static <T> T serializable(T value) {
            if (value instanceof Map<?, ?> map) {
                Map<String, Object> copy = new LinkedHashMap<>();
                map.forEach((k, v) -> copy.put((String) k, serializable(v)));
                return (T) copy;
            }
            if (value instanceof List<?> list) {
                List<Object> copy = new ArrayList<>();
                list.forEach(v -> copy.add(serializable(v)));
                return (T) copy;
            }
            return value;
        }
    }

    /** The value set by part {@code part} of operation {@code op} of round {@code round}: several lines, non-ASCII. */
    public static String value(int round, int op, int part) {
        return "# crash round " + round + "\n\nOperation " + op + " part " + part + ": h\u00e9llo \u00fcber \u2713\n"
                + token(round, op, part) + "\n";
    }

    /** A word found only in {@link #value} of that round, operation and part, for keyword searches. */
    public static String token(int round, int op, int part) {
        return "tok" + round + "x" + op + "x" + part;
    }

    /** The tags of that write: none for even operations, two for odd ones. */
    public static List<String> tags(int round, int op) {
        return op % 2 == 0 ? List.of() : List.of("crash", "round-" + round);
    }

    /** The metadata of that write: none for even operations, strings, a number and a flag for odd ones. */
    public static Map<String, Object> metadata(int round, int op) {
        return op % 2 == 0 ? Map.of() : Map.of("round", "r" + round, "op", (long) op, "odd", true);
    }

    /** Runs the child; see the class comment for the arguments. */
    public static void main(String[] args) {
        try {
            run(Spec.read(Path.of(args[0])), Path.of(args[1]), Integer.parseInt(args[2]), Long.parseLong(args[3]));
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1);
        }
    }

    private static void run(Spec spec, Path signals, int round, long seed) throws IOException, InterruptedException {
        try (MemoryProvider provider = spec.open("crash-session-" + round);
                FileOutputStream acks = new FileOutputStream(signals.resolve("acks").toFile(), true)) {
            ChildJvm.signal(signals.resolve("opened"));
            Map<String, Boolean> exists = new HashMap<>();
            List<String> refs = new ArrayList<>();
            for (Scope scope : List.of(Scope.PROJECT, Scope.GLOBAL)) {
                List<String> keys = spec.keys(scope);
                for (int k = 0; k < keys.size(); k++) {
                    String ref = (scope == Scope.GLOBAL ? "G " : "P ") + k;
                    refs.add(ref);
                    exists.put(ref, provider.get(keys.get(k), scope).isPresent());
                }
            }
            Random random = new Random(seed);
            boolean transactions = provider.transactions().isPresent();
            for (int op = 0; op < MAX_OPERATIONS; op++) {
                int parts = transactions && random.nextInt(100) < 15 ? 2 + random.nextInt(2) : 1;
                List<String> chosen = new ArrayList<>(refs);
                java.util.Collections.shuffle(chosen, random);
                List<String> ops = new ArrayList<>();
                for (int part = 0; part < parts; part++) {
                    String ref = chosen.get(part);
                    boolean delete = exists.get(ref) && random.nextInt(100) < (parts > 1 ? 35 : 20);
                    ops.add(delete ? "D " + ref : "S " + ref + " " + part);
                }
                line(acks, "T " + op + " " + String.join("|", ops));
                if (parts == 1) {
                    apply(spec, provider, null, ops.get(0), round, op);
                } else {
                    int current = op;
                    provider.requireTransactions().inTransaction(tx -> {
                        ops.forEach(o -> apply(spec, provider, tx, o, round, current));
                        return null;
                    });
                }
                line(acks, "A " + op);
                ops.forEach(o -> exists.put(ref(o), o.startsWith("S")));
                if (op == 0) {
                    ChildJvm.signal(signals.resolve("ready"));
                }
            }
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    private static void apply(Spec spec, MemoryProvider provider, MemoryTransaction tx, String op, int round, int i) {
        String[] parts = op.split(" ");
        Scope scope = parts[1].equals("G") ? Scope.GLOBAL : Scope.PROJECT;
        String key = spec.keys(scope).get(Integer.parseInt(parts[2]));
        if (parts[0].equals("D")) {
            boolean deleted = tx != null ? tx.delete(key, scope) : provider.delete(key, scope);
            if (!deleted) {
                throw new IllegalStateException("the child deleted " + scope + " " + key + ", which it had seen, but it "
                        + "was not there");
            }
            return;
        }
        int part = Integer.parseInt(parts[3]);
        String value = value(round, i, part);
        if (tx != null) {
            tx.set(key, value, scope, tags(round, i), metadata(round, i));
        } else {
            provider.set(key, value, scope, tags(round, i), metadata(round, i));
        }
    }

    /** The entry an operation is about, {@code <scope> <key index>}: {@code "P 3"} of {@code "S P 3 0"}. */
    static String ref(String op) {
        String[] parts = op.split(" ");
        return parts[1] + " " + parts[2];
    }

    /** Appends {@code text} and a line break in one unbuffered write: a kill cannot lose it once this returns. */
    private static void line(FileOutputStream out, String text) throws IOException {
        out.write((text + "\n").getBytes(StandardCharsets.UTF_8));
    }
}
