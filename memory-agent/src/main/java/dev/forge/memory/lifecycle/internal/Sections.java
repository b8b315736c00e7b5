package dev.forge.memory.lifecycle.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A markdown text cut into a preamble and sections, each section starting at a line the caller recognises as its
 * heading and running to the next such line. Lines keep their own line ends, so joining the parts gives the text
 * back exactly.
 *
 * @param preamble the text before the first section
 * @param sections the sections, in text order
 */
public record Sections(String preamble, List<Section> sections) {

    /**
     * One section: its heading line and everything up to the next section.
     *
     * @param heading the heading line, without its line end
     * @param text    the whole section, heading and line ends included
     */
    public record Section(String heading, String text) {
        /** The section's lines after the heading, without line ends. */
        public List<String> bodyLines() {
            List<String> lines = lines(text);
            return lines.subList(1, lines.size()).stream().map(Sections::strip).toList();
        }
    }

    /** Copies the list. */
    public Sections {
        sections = List.copyOf(sections);
    }

    /**
     * Cuts {@code text} at every line (line end removed) that {@code heading} accepts, except inside fenced code blocks
     * (between {@code ```} or {@code ~~~} lines), where a {@code # comment} is code, not a heading.
     */
    public static Sections split(String text, Predicate<String> heading) {
        StringBuilder preamble = new StringBuilder();
        List<Section> sections = new ArrayList<>();
        String currentHeading = null;
        StringBuilder current = null;
        String fence = null;
        for (String line : lines(text)) {
            String bare = strip(line);
            String trimmed = bare.stripLeading();
            if (fence == null && (trimmed.startsWith("```") || trimmed.startsWith("~~~"))) {
                fence = trimmed.substring(0, 3);
            } else if (fence != null && trimmed.startsWith(fence)) {
                fence = null;
            } else if (fence == null && heading.test(bare)) {
                if (current != null) {
                    sections.add(new Section(currentHeading, current.toString()));
                }
                currentHeading = bare;
                current = new StringBuilder();
            }
            (current == null ? preamble : current).append(line);
        }
        if (current != null) {
            sections.add(new Section(currentHeading, current.toString()));
        }
        return new Sections(preamble.toString(), sections);
    }

    /** The lines of {@code text}, each with its line end ({@code \n} or {@code \r\n}); a last line may have none. */
    public static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        while (start < text.length()) {
            int end = text.indexOf('\n', start);
            int next = end < 0 ? text.length() : end + 1;
            lines.add(text.substring(start, next));
            start = next;
        }
        return lines;
    }

    /** A line without its line end. */
    public static String strip(String line) {
        int end = line.length();
        if (end > 0 && line.charAt(end - 1) == '\n') {
            end--;
        }
        if (end > 0 && line.charAt(end - 1) == '\r') {
            end--;
        }
        return line.substring(0, end);
    }

    /** {@code a} followed by {@code b}, with a line end put between them when {@code a} does not end a line. */
    public static String joinLines(String a, String b) {
        if (a.isEmpty() || b.isEmpty() || a.endsWith("\n")) {
            return a + b;
        }
        return a + "\n" + b;
    }
}
