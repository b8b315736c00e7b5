package dev.forge.memory.markdown;

import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The other process of {@link LayeredCrashTest}: opens the markdown provider in the layered layout on the base
 * directory given as the first argument and writes the keys of {@link LayeredCrashTest#KEYS} in turn, write {@code i}
 * going to key {@code i % KEYS.size()} with {@link LayeredCrashTest#value(long)}, until it is killed. After each write
 * returns it appends {@code i} and a line break to {@code acks} in the signal directory (the second argument), and
 * after the first it creates {@code ready} there. The third argument is the first {@code i}.
 */
public final class ChildLayeredWriter {

    private ChildLayeredWriter() {
    }

    /** Runs the child; see the class comment for the arguments. */
    public static void main(String[] args) throws IOException {
        Path base = Path.of(args[0]);
        Path signals = Path.of(args[1]);
        long first = Long.parseLong(args[2]);
        try (MarkdownMemoryProvider provider = MarkdownMemoryProvider.open(Stores.context(base, "child-session"),
                LayeredLayoutTest.layered("memory"))) {
            for (long i = first; ; i++) {
                String key = LayeredCrashTest.KEYS.get((int) (i % LayeredCrashTest.KEYS.size()));
                provider.set(key, LayeredCrashTest.value(i), Scope.PROJECT);
                Files.writeString(signals.resolve("acks"), i + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
                if (i == first) {
                    ChildJvm.signal(signals.resolve("ready"));
                }
            }
        }
    }
}
