package dev.forge.memory.markdown;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Opening markdown providers on a test directory, and reading and editing their files the way a person would: with
 * plain string handling and a YAML parser, never through the provider's own codec.
 */
final class Stores {

    static final String PROJECT = "p";
    static final String SESSION = "s1";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private Stores() {
    }

    /** Project {@link #PROJECT}, session {@code session}, relative paths against {@code base}, forge home under it. */
    static ProviderContext context(Path base, String session) {
        return ProviderContext.builder()
                .projectId(PROJECT)
                .sessionId(session)
                .baseDirectory(base)
                .forgeHome(base.resolve("home"))
                .clock(Clock.systemUTC())
                .registry(ProviderRegistry.of(new MarkdownMemoryProviderFactory()))
                .build();
    }

    static ProviderContext context(Path base) {
        return context(base, SESSION);
    }

    static MarkdownMemoryProvider open(Path base) {
        return open(base, MarkdownConfig.defaults());
    }

    static MarkdownMemoryProvider open(Path base, MarkdownConfig config) {
        return MarkdownMemoryProvider.open(context(base), config);
    }

    /** Where PROJECT memories go by default. */
    static Path projectDirectory(Path base) {
        return base.resolve(".forge").resolve("memory");
    }

    /** The {@code mem_*.md} files directly in {@code directory}, by name; empty if it does not exist. */
    static List<Path> memoryFiles(Path directory) {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> list = Files.list(directory)) {
            return list.filter(p -> {
                String name = p.getFileName().toString();
                return name.startsWith("mem_") && name.endsWith(".md") && Files.isRegularFile(p);
            }).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The name of every entry directly in {@code directory}, hidden ones included, sorted. */
    static List<String> namesIn(Path directory) {
        try (Stream<Path> list = Files.list(directory)) {
            return list.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The text between the opening {@code ---} line and the closing one. */
    static String frontMatterText(String text) {
        if (!text.startsWith("---\n")) {
            throw new AssertionError("a memory file starts with '---\\n': " + abbreviate(text));
        }
        int close = text.indexOf("\n---\n", 3);
        if (close < 0) {
            throw new AssertionError("no closing '---' line: " + abbreviate(text));
        }
        return text.substring(4, close + 1);
    }

    /** The front-matter of a file as YAML reads it. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> frontMatter(Path file) {
        try {
            Map<String, Object> fields = YAML.readValue(frontMatterText(read(file)), Map.class);
            return fields == null ? Map.of() : fields;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Everything after the closing {@code ---} line. */
    static String bodyText(String text) {
        frontMatterText(text);
        return text.substring(text.indexOf("\n---\n", 3) + 5);
    }

    /** The id of a memory file: its name without {@code .md}. */
    static String id(Path file) {
        String name = file.getFileName().toString();
        return name.substring(0, name.length() - ".md".length());
    }

    /** The file of version {@code version} of {@code key} in {@code directory}, by its front-matter (no version: 1). */
    static Path fileOf(Path directory, String key, long version) {
        List<Path> found = new ArrayList<>();
        for (Path file : memoryFiles(directory)) {
            Map<String, Object> fields = frontMatter(file);
            Object written = fields.getOrDefault("version", 1);
            if (key.equals(fields.get("key")) && written instanceof Number number && number.longValue() == version) {
                found.add(file);
            }
        }
        if (found.size() != 1) {
            throw new AssertionError("expected one file of version " + version + " of '" + key + "' in " + directory
                    + ", found " + found);
        }
        return found.get(0);
    }

    /** A new memory file name in {@code directory}, as a person following the format would pick one. */
    static Path newMemoryFile(Path directory) {
        return directory.resolve("mem_" + UUID.randomUUID() + ".md");
    }

    /** {@code text} with {@code line} added as the last front-matter line. */
    static String withField(String text, String line) {
        int close = text.indexOf("\n---\n", 3);
        return text.substring(0, close + 1) + line + text.substring(close + 1);
    }

    /** {@code text} without the front-matter line starting with {@code field + ":"}. */
    static String withoutField(String text, String field) {
        return text.replaceFirst("(?m)^" + field + ":.*\\n", "");
    }

    /** Writes a file in place, as an editor that truncates and rewrites does. */
    static void writeInPlace(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Saves {@code text} to {@code file} as vim does: writes a new file beside it and renames it over. Makes sure the
     * directory's modification time moves (file systems stamp in ticks of a few milliseconds), since that is how the
     * provider notices.
     */
    static void saveByRename(Path file, String text) {
        changingDirectory(file.getParent(), () -> {
            Path temp = file.resolveSibling("4913");
            Files.writeString(temp, text, StandardCharsets.UTF_8);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        });
    }

    /** Creates a new file by hand, making sure the directory's modification time moves. */
    static void create(Path file, byte[] content) {
        changingDirectory(file.getParent(), () -> Files.write(file, content));
    }

    /** Deletes a file by hand, making sure the directory's modification time moves. */
    static void delete(Path file) {
        changingDirectory(file.getParent(), () -> Files.delete(file));
    }

    @FunctionalInterface
    interface IoAction {
        void run() throws IOException;
    }

    /**
     * Runs a change to {@code directory}'s entries; if the directory's modification time did not move (the change fell
     * in the same tick of the file system's clock as the last one), moves it a second on, as a later change would.
     */
    static void changingDirectory(Path directory, IoAction change) {
        try {
            FileTime before = Files.getLastModifiedTime(directory);
            change.run();
            if (Files.getLastModifiedTime(directory).equals(before)) {
                Files.setLastModifiedTime(directory, FileTime.from(before.toInstant().plus(Duration.ofSeconds(1))));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }
}
