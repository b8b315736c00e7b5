package dev.forge.memory.lifecycle;

import dev.forge.memory.support.LayeredKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One line of a document that matches a search, with up to {@value #CONTEXT_LINES} lines on each side.
 *
 * @param key        the document
 * @param lineNumber the line's number in the stored value, 1 for the timestamp line
 * @param line       the matching line, without its line end
 * @param before     up to two lines before it, in order
 * @param after      up to two lines after it, in order
 */
public record SearchMatch(LayeredKey key, int lineNumber, String line, List<String> before, List<String> after) {

    /** Lines of context on each side of a match. */
    public static final int CONTEXT_LINES = 2;

    /** Copies the lists. */
    public SearchMatch {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(line, "line");
        before = List.copyOf(before);
        after = List.copyOf(after);
    }

    /** The lines before, the line and the lines after, joined with {@code \n}. */
    public String context() {
        List<String> lines = new ArrayList<>(before);
        lines.add(line);
        lines.addAll(after);
        return String.join("\n", lines);
    }
}
