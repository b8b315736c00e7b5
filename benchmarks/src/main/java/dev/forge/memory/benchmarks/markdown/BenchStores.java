package dev.forge.memory.benchmarks.markdown;

import dev.forge.memory.Keys;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.file.FileConfig;
import dev.forge.memory.file.FileMemoryProvider;
import dev.forge.memory.markdown.MarkdownConfig;
import dev.forge.memory.markdown.MarkdownMemoryProvider;
import dev.forge.memory.spi.ProviderContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The stores and data the markdown, file and MCP benchmarks share: providers opened on a benchmark's temporary
 * directory with the providers' default settings (only {@code fsync} chosen by the caller), and the notes written
 * to them, the same on every side of a pair.
 */
public final class BenchStores {

    /** The project id of every benchmark store. */
    public static final String PROJECT = "bench";

    /** The tag every note carries (the MCP baseline's {@code entityType}). */
    public static final String TAG = "note";

    private BenchStores() {
    }

    /** The key of note {@code i}: {@code note-000042}. */
    public static String key(int i) {
        return String.format(Locale.ROOT, "note-%06d", i);
    }

    /** The value of note {@code i}: about 150 characters of prose, as an agent's memory is. */
    public static String value(int i) {
        return "Note " + i + ": the build uses Maven 3.9 with the wrapper; run ./mvnw -B -o verify before a commit, "
                + "and keep every dependency version in the parent POM.";
    }

    /** A context whose project directory and forge home lie under {@code directory}. */
    public static ProviderContext context(Path directory) {
        return ProviderContext.builder().projectId(PROJECT).sessionId("bench-session").baseDirectory(directory)
                .forgeHome(directory.resolve("home")).build();
    }

    /**
     * A markdown provider on {@code directory}/memory (global memories in {@code directory}/home/memory), every
     * setting at its default but {@code fsync}.
     */
    public static MarkdownMemoryProvider openMarkdown(Path directory, boolean fsync) {
        return MarkdownMemoryProvider.open(context(directory),
                new MarkdownConfig(directory.resolve("memory").toString(), null, null, fsync));
    }

    /** A file provider on {@code directory}/memory, every setting at its default but {@code fsync}. */
    public static FileMemoryProvider openFile(Path directory, boolean fsync) {
        return FileMemoryProvider.open(context(directory),
                new FileConfig(directory.resolve("memory").toString(), null, null, fsync));
    }

    /** The providers these benchmarks open. */
    public enum Backend {
        /** The markdown provider. */
        MARKDOWN,
        /** The file provider. */
        FILE;

        /** Opens this provider on {@code directory}, every setting at its default but {@code fsync}. */
        public MemoryProvider open(Path directory, boolean fsync) {
            return this == MARKDOWN ? openMarkdown(directory, fsync) : openFile(directory, fsync);
        }

        /**
         * The directory where {@code provider}, opened by {@link #open}, keeps the project's entry files: the markdown
         * version files, or the file provider's JSON files.
         */
        public Path entryDirectory(MemoryProvider provider) {
            return this == MARKDOWN ? ((MarkdownMemoryProvider) provider).versionDirectory()
                    : ((FileMemoryProvider) provider).directory().resolve("project").resolve(Keys.toFileName(PROJECT));
        }
    }

    /** Writes notes {@code from} (inclusive) to {@code to} (exclusive) as PROJECT memories. */
    public static void fill(MemoryProvider provider, int from, int to) {
        for (int i = from; i < to; i++) {
            write(provider, i);
        }
    }

    /** Writes note {@code i} as a PROJECT memory. */
    public static void write(MemoryProvider provider, int i) {
        provider.set(key(i), value(i), Scope.PROJECT, List.of(TAG), Map.of());
    }

    /** A new temporary directory for one benchmark's stores. */
    public static Path newDirectory(String prefix) {
        try {
            return Files.createTempDirectory("forge-bench-" + prefix + "-");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a temporary directory for the benchmark stores", e);
        }
    }

    /** Removes {@code directory} and everything under it; nothing if it does not exist. */
    public static void deleteTree(Path directory) {
        if (directory == null || !Files.exists(directory)) {
            return;
        }
        try {
            Files.walkFileTree(directory, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    if (e != null) {
                        throw e;
                    }
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot remove the benchmark directory " + directory, e);
        }
    }
}
