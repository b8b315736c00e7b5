package dev.forge.memory.lifecycle;

import dev.forge.memory.InvalidRequestException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Line limits of plugin memory documents. Going over one gives a warning text; it never blocks a write.
 *
 * @param anyFile    the most lines of any document (500 by default)
 * @param byFileType stricter limits for some file types, each with its advice
 */
public record SizeLimits(Limit anyFile, Map<String, Limit> byFileType) {

    /**
     * One limit and what to do when it is exceeded.
     *
     * @param maxLines the most lines, at least 1
     * @param advice   what the warning tells the reader to do
     */
    public record Limit(int maxLines, String advice) {
        /** Checks the values. */
        public Limit {
            Objects.requireNonNull(advice, "advice");
            if (maxLines < 1) {
                throw new InvalidRequestException("A line limit must be at least 1, was " + maxLines + ".");
            }
        }
    }

    /** The file type suffix of archives, which have no size limit. */
    public static final String ARCHIVE_SUFFIX = "_archive";

    /** The adapter's limits: 500 lines for any file, 200 for {@code project_overview}, 300 for {@code review_history}. */
    public static final SizeLimits DEFAULT = new SizeLimits(new Limit(500, "split it into focused sub-files"), Map.of(
            "project_overview", new Limit(200, "move detailed sections to separate files"),
            "review_history", new Limit(300, "archive older entries (pruning does this)")));

    /** Copies the map. */
    public SizeLimits {
        Objects.requireNonNull(anyFile, "anyFile");
        byFileType = Map.copyOf(byFileType);
    }

    /** These limits with {@code maxLines} for every file. */
    public SizeLimits withAnyFile(int maxLines) {
        return new SizeLimits(new Limit(maxLines, anyFile.advice()), byFileType);
    }

    /** These limits with a limit of its own for {@code fileType}. */
    public SizeLimits with(String fileType, int maxLines, String advice) {
        Map<String, Limit> limits = new TreeMap<>(byFileType);
        limits.put(fileType, new Limit(maxLines, advice));
        return new SizeLimits(anyFile, limits);
    }

    /**
     * The warning for a document of {@code fileType} with {@code lineCount} lines, or empty when it is within its
     * limits. The file type's own limit is checked first; the general limit still applies to it. Archives (file
     * types ending in {@code _archive}) have no limit: they are never loaded automatically.
     */
    public Optional<String> check(String fileType, int lineCount) {
        if (fileType.endsWith(ARCHIVE_SUFFIX)) {
            return Optional.empty();
        }
        Limit own = byFileType.get(fileType);
        if (own != null && lineCount > own.maxLines()) {
            return Optional.of(warning(fileType, lineCount, own, fileType + " limit"));
        }
        if (lineCount > anyFile.maxLines()) {
            return Optional.of(warning(fileType, lineCount, anyFile, "limit for any memory file"));
        }
        return Optional.empty();
    }

    private static String warning(String fileType, int lineCount, Limit limit, String which) {
        return fileType + " has " + lineCount + " lines, over the " + which + " of " + limit.maxLines() + ": " + limit.advice() + ".";
    }

    /** The number of lines of a text: its line ends, plus one for a last line without an end; 0 for empty text. */
    public static int lineCount(String text) {
        if (text.isEmpty()) {
            return 0;
        }
        int lines = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                lines++;
            }
        }
        return text.endsWith("\n") ? lines : lines + 1;
    }
}
