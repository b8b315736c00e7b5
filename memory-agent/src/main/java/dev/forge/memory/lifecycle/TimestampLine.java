package dev.forge.memory.lifecycle;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The first line of every plugin memory document, {@code <!-- Last Updated: YYYY-MM-DD -->}, which is part of the
 * stored value. Reading tolerates a byte order mark, a CRLF line end and trailing spaces; a first line that is not
 * exactly this comment with a real date means "no timestamp".
 */
public final class TimestampLine {

    private static final String BOM = "\uFEFF";
    private static final Pattern LINE = Pattern.compile("<!-- Last Updated: (\\d{4}-\\d{2}-\\d{2}) -->[ \\t]*");

    private TimestampLine() {
    }

    /** The line for {@code date}, without a line end: {@code <!-- Last Updated: 2026-02-10 -->}. */
    public static String format(LocalDate date) {
        return "<!-- Last Updated: " + date + " -->";
    }

    /** The date on the first line of {@code value}, if that line is a timestamp line. */
    public static Optional<LocalDate> parse(String value) {
        Matcher m = LINE.matcher(firstLine(value));
        if (!m.matches()) {
            return Optional.empty();
        }
        return isoDate(m.group(1));
    }

    /** {@code text} as a {@code YYYY-MM-DD} date, empty if it is not a real day (such as 2026-02-30). */
    static Optional<LocalDate> isoDate(String text) {
        try {
            return Optional.of(LocalDate.parse(text));
        } catch (DateTimeException notADate) {
            return Optional.empty();
        }
    }

    /**
     * {@code value} without its timestamp line and the one blank line after it (what {@link #stamp} adds), or
     * {@code value} without a byte order mark when it has no timestamp line.
     */
    public static String body(String value) {
        String text = stripBom(value);
        if (!LINE.matcher(firstLine(text)).matches()) {
            return text;
        }
        String rest = text.substring(lineEnd(text, 0));
        if (rest.startsWith("\r\n")) {
            return rest.substring(2);
        }
        return rest.startsWith("\n") ? rest.substring(1) : rest;
    }

    /**
     * {@code content} with its first line set to the timestamp of {@code date}: an existing timestamp line is
     * replaced (keeping its line end), otherwise the line and one blank line are put in front. A byte order mark
     * is dropped, since the timestamp must be the very first line.
     */
    public static String stamp(String content, LocalDate date) {
        String text = stripBom(content);
        if (LINE.matcher(firstLine(text)).matches()) {
            int contentEnd = firstLine(text).length();
            return format(date) + text.substring(contentEnd);
        }
        return compose(date, text);
    }

    /** A value made of the timestamp line of {@code date}, one blank line, and {@code body} as it is. */
    public static String compose(LocalDate date, String body) {
        return format(date) + "\n\n" + body;
    }

    private static String stripBom(String text) {
        return text.startsWith(BOM) ? text.substring(1) : text;
    }

    private static String firstLine(String value) {
        String text = stripBom(value);
        int end = text.indexOf('\n');
        String line = end < 0 ? text : text.substring(0, end);
        return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    }

    /** The index just after the line end of the line starting at {@code from}, or the text's length. */
    private static int lineEnd(String text, int from) {
        int end = text.indexOf('\n', from);
        return end < 0 ? text.length() : end + 1;
    }
}
