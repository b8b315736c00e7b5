package dev.forge.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Which keys a {@link Query} selects.
 *
 * <p>The text forms, parsed by {@link #parse}:
 * <ul>
 *   <li>{@code *}: every key;</li>
 *   <li>{@code prefix:*}, {@code *:suffix}, {@code *mid*}, or any mix such as {@code a*b*c}: a glob where
 *       {@code *} stands for any run of characters, possibly empty;</li>
 *   <li>{@code exact-key}: a text without {@code *} selects that key only;</li>
 *   <li>{@code tag:name}: every entry carrying the tag {@code name}, whatever its key.</li>
 * </ul>
 * A literal {@code *} or {@code \} in a glob is written {@code \*} or {@code \\}. To select a key that
 * itself starts with {@code tag:}, use {@link #exact(String)}.
 */
public final class KeyPattern {

    /** The shape of a pattern, for backends that translate it into their own query language. */
    public enum Kind {
        /** Every key. */
        ALL,
        /** One key. */
        EXACT,
        /** Keys starting with one literal. */
        PREFIX,
        /** Keys ending with one literal. */
        SUFFIX,
        /** Keys containing one literal. */
        CONTAINS,
        /** Any other glob. */
        GLOB,
        /** Entries carrying a tag. */
        TAG
    }

    private static final String TAG_PREFIX = "tag:";
    private static final KeyPattern ALL = new KeyPattern("*", Kind.ALL, List.of(), false, false, null);

    private final String text;
    private final Kind kind;
    private final List<String> literals;
    private final boolean anchoredStart;
    private final boolean anchoredEnd;
    private final String tag;

    private KeyPattern(String text, Kind kind, List<String> literals, boolean anchoredStart, boolean anchoredEnd, String tag) {
        this.text = text;
        this.kind = kind;
        this.literals = List.copyOf(literals);
        this.anchoredStart = anchoredStart;
        this.anchoredEnd = anchoredEnd;
        this.tag = tag;
    }

    /** The pattern that selects every key. */
    public static KeyPattern all() {
        return ALL;
    }

    /** A pattern selecting exactly {@code key}, whatever characters it holds. */
    public static KeyPattern exact(String key) {
        Objects.requireNonNull(key, "key");
        return new KeyPattern(escape(key), Kind.EXACT, List.of(key), true, true, null);
    }

    /** A pattern selecting the entries that carry {@code tag}. */
    public static KeyPattern tag(String tag) {
        Objects.requireNonNull(tag, "tag");
        if (tag.isEmpty()) {
            throw new InvalidRequestException("A tag pattern needs a tag name: 'tag:NAME'.");
        }
        return new KeyPattern(TAG_PREFIX + tag, Kind.TAG, List.of(), false, false, tag);
    }

    /**
     * Parses the text form described on the class.
     *
     * @throws InvalidRequestException for an empty pattern, {@code tag:} without a name, or a dangling {@code \}
     */
    public static KeyPattern parse(String pattern) {
        if (pattern == null || pattern.isEmpty()) {
            throw new InvalidRequestException("A key pattern must not be empty: use '*' for every key.");
        }
        if (pattern.startsWith(TAG_PREFIX)) {
            return tag(pattern.substring(TAG_PREFIX.length()));
        }
        List<String> parts = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean leadingStar = false;
        boolean trailingStar = false;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\') {
                if (i + 1 == pattern.length()) {
                    throw new InvalidRequestException("Key pattern " + quoted(pattern) + " ends with a lone '\\': write '\\\\' "
                            + "for a backslash.");
                }
                current.append(pattern.charAt(++i));
                trailingStar = false;
            } else if (c == '*') {
                if (i == 0) {
                    leadingStar = true;
                }
                if (current.length() > 0) {
                    parts.add(current.toString());
                    current.setLength(0);
                }
                trailingStar = true;
            } else {
                current.append(c);
                trailingStar = false;
            }
        }
        if (current.length() > 0) {
            parts.add(current.toString());
        }
        if (!hasUnescapedStar(pattern)) {
            return new KeyPattern(pattern, Kind.EXACT, parts, true, true, null);
        }
        if (parts.isEmpty()) {
            return new KeyPattern(pattern, Kind.ALL, List.of(), false, false, null);
        }
        Kind kind;
        if (parts.size() == 1 && !leadingStar && trailingStar) {
            kind = Kind.PREFIX;
        } else if (parts.size() == 1 && leadingStar && !trailingStar) {
            kind = Kind.SUFFIX;
        } else if (parts.size() == 1 && leadingStar) {
            kind = Kind.CONTAINS;
        } else {
            kind = Kind.GLOB;
        }
        return new KeyPattern(pattern, kind, parts, !leadingStar, !trailingStar, null);
    }

    /** The pattern in quotes for a message, shortened (with its length) where it is long. */
    private static String quoted(String pattern) {
        String shown = dev.forge.memory.Keys.abbreviate(pattern);
        return shown.length() == pattern.length() ? "'" + pattern + "'" : "'" + shown + "' (" + pattern.length() + " characters)";
    }

    private static boolean hasUnescapedStar(String pattern) {
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '*') {
                return true;
            }
        }
        return false;
    }

    private static String escape(String key) {
        String escaped = key.replace("\\", "\\\\").replace("*", "\\*");
        // A key starting with "tag:" would parse back as a tag pattern; escaping its first letter keeps it a key.
        return escaped.startsWith(TAG_PREFIX) ? "\\" + escaped : escaped;
    }

    /** The shape of this pattern. */
    public Kind kind() {
        return kind;
    }

    /** The text form; {@code parse(text())} gives an equal pattern. */
    public String text() {
        return text;
    }

    /** The literal runs between the wildcards, in order (for {@link Kind#EXACT}, the key itself). */
    public List<String> literals() {
        return literals;
    }

    /** Whether the first literal must stand at the start of the key. */
    public boolean anchoredStart() {
        return anchoredStart;
    }

    /** Whether the last literal must stand at the end of the key. */
    public boolean anchoredEnd() {
        return anchoredEnd;
    }

    /** For {@link Kind#TAG}, the tag name; empty string otherwise. */
    public String tagName() {
        return tag == null ? "" : tag;
    }

    /** The literal every matching key starts with, possibly empty; useful for range scans. */
    public String literalPrefix() {
        return anchoredStart && !literals.isEmpty() ? literals.get(0) : "";
    }

    /**
     * The fewest code points a key this pattern selects has: its literals' lengths added up (0 for {@link Kind#ALL}
     * and {@link Kind#TAG}). A pattern longer than any key ({@link Limits#MAX_KEY_LENGTH}) is a valid query that selects
     * nothing, so a backend can answer it without translating it (SQLite's {@code GLOB} refuses patterns over 50,000
     * bytes, for one).
     */
    public long minKeyLength() {
        long length = 0;
        for (String literal : literals) {
            length += literal.codePointCount(0, literal.length());
        }
        return length;
    }

    /** Whether {@code entry} is selected: by its key, or for {@link Kind#TAG} by its tags. */
    public boolean matches(MemoryEntry entry) {
        return kind == Kind.TAG ? entry.hasTag(tag) : matchesKey(entry.key());
    }

    /** Whether a key is selected. Always false for {@link Kind#TAG}, which selects by tag. */
    public boolean matchesKey(String key) {
        switch (kind) {
            case ALL:
                return true;
            case TAG:
                return false;
            case EXACT:
                return key.equals(literals.get(0));
            default:
                return globMatches(key);
        }
    }

    private boolean globMatches(String key) {
        int position = 0;
        int last = literals.size() - 1;
        for (int i = 0; i <= last; i++) {
            String literal = literals.get(i);
            if (i == 0 && anchoredStart) {
                if (!key.startsWith(literal)) {
                    return false;
                }
                position = literal.length();
            } else if (i == last && anchoredEnd) {
                return key.length() - literal.length() >= position && key.endsWith(literal);
            } else {
                int found = key.indexOf(literal, position);
                if (found < 0) {
                    return false;
                }
                position = found + literal.length();
            }
        }
        return !anchoredEnd || position == key.length();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyPattern other && kind == other.kind && literals.equals(other.literals)
                && anchoredStart == other.anchoredStart && anchoredEnd == other.anchoredEnd
                && Objects.equals(tag, other.tag);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, literals, anchoredStart, anchoredEnd, tag);
    }

    /** The text form shortened to 80 characters, for messages; {@link #text()} is the whole of it. */
    @Override
    public String toString() {
        return dev.forge.memory.Keys.abbreviate(text);
    }
}
