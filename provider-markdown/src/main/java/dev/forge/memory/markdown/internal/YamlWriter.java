package dev.forge.memory.markdown.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Block-style YAML for JSON values, two-space indent, lists indented under their key. A string is written plain
 * when that is certain to read back as the same string, as a literal block ({@code |}) when it is multi-line
 * text that survives editing, single-quoted when every character can appear as itself, else double-quoted
 * with escapes. Nothing is written at column 0 but top-level keys, so no line of the front-matter can be
 * {@code ---}.
 */
final class YamlWriter {

    private static final int INDENT = 2;
    /** Longer keys are written as explicit {@code ? key} entries: YAML limits implicit keys to 1024 characters. */
    private static final int MAX_IMPLICIT_KEY_LENGTH = 200;

    /** Plain words YAML 1.1 readers take as booleans or null; written quoted so every reader sees a string. */
    private static final Set<String> RESERVED_WORDS = Set.of("null", "true", "false", "yes", "no", "on", "off", "y", "n");

    /** A scalar written exactly as given, for timestamps the codec formats. */
    record Verbatim(String text) {
    }

    private final StringBuilder out;

    YamlWriter(StringBuilder out) {
        this.out = out;
    }

    /** The entries of a map; the first continues the current line if {@code inline} (after {@code "- "}). */
    void entries(Map<?, ?> map, int indent, boolean inline) {
        boolean first = true;
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (!first || !inline) {
                indent(indent);
            }
            first = false;
            String key = (String) entry.getKey();
            if (key.length() > MAX_IMPLICIT_KEY_LENGTH) {
                out.append("? ").append(quoted(key)).append('\n');
                indent(indent);
                out.append(':');
            } else {
                out.append(isPlain(key) ? key : quoted(key)).append(':');
            }
            Object value = entry.getValue();
            if (value instanceof Map<?, ?> nested && !nested.isEmpty()) {
                out.append('\n');
                entries(nested, indent + INDENT, false);
            } else if (value instanceof List<?> list && !list.isEmpty()) {
                out.append('\n');
                items(list, indent + INDENT, false);
            } else {
                out.append(' ');
                scalar(value, indent);
            }
        }
    }

    /** The items of a list; the first continues the current line if {@code inline}. */
    void items(List<?> list, int indent, boolean inline) {
        boolean first = true;
        for (Object item : list) {
            if (!first || !inline) {
                indent(indent);
            }
            first = false;
            out.append("- ");
            if (item instanceof Map<?, ?> nested && !nested.isEmpty()) {
                entries(nested, indent + INDENT, true);
            } else if (item instanceof List<?> nested && !nested.isEmpty()) {
                items(nested, indent + INDENT, true);
            } else {
                scalar(item, indent);
            }
        }
    }

    /** A scalar or empty container and its line break; {@code indent} is the column of its key or dash. */
    private void scalar(Object value, int indent) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String text) {
            string(text, indent);
        } else if (value instanceof Verbatim verbatim) {
            out.append(verbatim.text());
        } else if (value instanceof BigDecimal decimal) {
            out.append(decimal); // toString has a point or an exponent: MemoryFile keeps the scale above 0
        } else if (value instanceof Double || value instanceof Long || value instanceof Integer
                || value instanceof BigInteger || value instanceof Boolean) {
            out.append(value); // Double.toString always has a point, so it reads back as a float
        } else if (value instanceof Map) {
            out.append("{}");
        } else if (value instanceof List) {
            out.append("[]");
        } else {
            throw new IllegalStateException("MemoryFile let through a " + value.getClass().getName());
        }
        out.append('\n');
    }

    private void string(String text, int indent) {
        if (isPlain(text)) {
            out.append(text);
        } else if (isLiteral(text)) {
            boolean trailingBreak = text.endsWith("\n");
            out.append(trailingBreak ? "|" : "|-");
            String content = trailingBreak ? text.substring(0, text.length() - 1) : text;
            for (String line : content.split("\n", -1)) {
                out.append('\n');
                if (!line.isEmpty()) {
                    indent(indent + INDENT);
                    out.append(line);
                }
            }
        } else {
            out.append(quoted(text));
        }
    }

    private void indent(int columns) {
        out.append(" ".repeat(columns));
    }

    /**
     * Whether a string can be written without quotes and read back as the same string: one line of ordinary
     * characters that does not start like a number, an indicator or another YAML construct, holds no comment or
     * mapping marker, and is not a word YAML 1.1 reads as a boolean or null. Deliberately stricter than YAML.
     */
    static boolean isPlain(String text) {
        if (text.isEmpty() || RESERVED_WORDS.contains(text.toLowerCase(Locale.ROOT))) {
            return false;
        }
        int first = text.codePointAt(0);
        int last = text.codePointBefore(text.length());
        if ("-?:,[]{}#&*!|>'\"%@`+.~<=\\".indexOf(first) >= 0 || Character.isDigit(first) || isBlank(first)
                || isBlank(last) || last == ':') {
            return false;
        }
        if (text.contains(": ") || text.contains(" #")) {
            return false;
        }
        return text.codePoints().allMatch(cp -> isRaw(cp) && ",[]{}".indexOf(cp) < 0);
    }

    /**
     * Whether a multi-line string can be a literal block: printable lines with no tab, CR or trailing blank (an
     * editor would strip it), a first line that fixes the indentation, and at most one final line break.
     */
    private static boolean isLiteral(String text) {
        if (text.indexOf('\n') < 0 || text.startsWith("\n") || text.endsWith("\n\n") || isBlank(text.codePointAt(0))) {
            return false;
        }
        for (String line : text.split("\n", -1)) {
            if (!line.isEmpty() && isBlank(line.codePointBefore(line.length()))) {
                return false;
            }
            if (!line.codePoints().allMatch(YamlWriter::isRaw)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isBlank(int cp) {
        return Character.isWhitespace(cp) || Character.isSpaceChar(cp);
    }

    /**
     * Whether a character may appear as itself inside any scalar: YAML's printable set without tab and line
     * breaks, without NEL, U+2028 and U+2029 (line breaks to YAML 1.1 readers) and without the BOM.
     */
    static boolean isRaw(int cp) {
        return (cp >= 0x20 && cp <= 0x7E)
                || (cp >= 0xA0 && cp <= 0xD7FF && cp != 0x2028 && cp != 0x2029)
                || (cp >= 0xE000 && cp <= 0xFFFD && cp != 0xFEFF)
                || (cp >= 0x10000 && cp <= 0x10FFFF);
    }

    /** Single quotes when every character can appear as itself, else double quotes with escapes. */
    private static String quoted(String text) {
        if (text.codePoints().allMatch(YamlWriter::isRaw)) {
            return "'" + text.replace("'", "''") + "'";
        }
        StringBuilder quoted = new StringBuilder(text.length() + 8).append('"');
        text.codePoints().forEach(cp -> {
            switch (cp) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\t' -> quoted.append("\\t");
                case '\r' -> quoted.append("\\r");
                case 0 -> quoted.append("\\0");
                case 0x1B -> quoted.append("\\e");
                case 0x85 -> quoted.append("\\N");
                case 0x2028 -> quoted.append("\\L");
                case 0x2029 -> quoted.append("\\P");
                default -> {
                    if (isRaw(cp)) {
                        quoted.appendCodePoint(cp);
                    } else if (cp <= 0xFF) {
                        quoted.append(String.format(Locale.ROOT, "\\x%02X", cp));
                    } else {
                        quoted.append(String.format(Locale.ROOT, "\\u%04X", cp)); // a BOM, U+FFFE, a lone surrogate
                    }
                }
            }
        });
        return quoted.append('"').toString();
    }
}
