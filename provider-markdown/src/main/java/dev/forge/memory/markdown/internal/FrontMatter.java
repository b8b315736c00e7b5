package dev.forge.memory.markdown.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.reader.ReaderException;

/**
 * The front-matter of a memory file as YAML reads it: the top-level fields in file order, with the line each is on,
 * and their values as Jackson reads them (strings, booleans, null, numbers in {@link MemoryFile}'s canonical form,
 * ordered maps and lists). Strict where a mistake would lose data: duplicate fields, aliases, binary values, nesting
 * deeper than {@link MemoryFile#MAX_DEPTH}. What each field means is {@link FrontMatterFields}' concern.
 */
record FrontMatter(Map<String, Object> fields, Map<String, Integer> lines) {

    /**
     * Only {@code true} and {@code false} are booleans (YAML 1.2): a tag {@code no} or {@code on} stays a string. An
     * empty unquoted value ({@code category:}) is null as YAML says, not Jackson's default empty string; a quoted
     * {@code ''} stays a string. The nesting limit leaves room for {@link MemoryFile#MAX_DEPTH} below the
     * front-matter itself.
     */
    private static final YAMLFactory YAML = YAMLFactory.builder()
            .enable(YAMLParser.Feature.PARSE_BOOLEAN_LIKE_WORDS_AS_STRINGS)
            .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL)
            .loaderOptions(loaderOptions())
            .build();

    private static LoaderOptions loaderOptions() {
        LoaderOptions options = new LoaderOptions();
        options.setNestingDepthLimit(MemoryFile.MAX_DEPTH + 16);
        return options;
    }

    Object get(String name) {
        return fields.get(name);
    }

    /** An error about field {@code name}, on its line when it has one. */
    MemoryFileException error(String name, String problem) {
        Integer line = lines.get(name);
        return line == null ? new MemoryFileException(problem, null) : new MemoryFileException(line, problem, null);
    }

    /**
     * Reads the YAML between the two {@code ---} lines.
     *
     * @throws MemoryFileException if it is not a YAML mapping of fields, or breaks a rule above; the message names the
     *                             file line and never quotes a value
     */
    static FrontMatter read(String yaml) throws MemoryFileException {
        try (JsonParser parser = YAML.createParser(new SurrogateSafeReader(yaml))) {
            JsonToken token = parser.nextToken();
            if (token == null) {
                throw new MemoryFileException(2, "empty front-matter: it needs at least the field 'key'", null);
            }
            if (token != JsonToken.START_OBJECT) {
                throw new MemoryFileException(line(parser), "the front-matter must be a YAML mapping of fields such as"
                        + " 'key: ...', not " + (token == JsonToken.START_ARRAY ? "a list" : "a single value"), null);
            }
            Map<String, Object> fields = new LinkedHashMap<>();
            Map<String, Integer> lines = new HashMap<>();
            while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                int line = line(parser);
                if (fields.containsKey(name)) {
                    throw new MemoryFileException(line, "duplicate field " + quote(name) + " in the front-matter", null);
                }
                fields.put(name, readValue(parser, parser.nextToken(), 1, name));
                lines.put(name, line);
            }
            if (parser.nextToken() != null) {
                throw new MemoryFileException(line(parser), "the front-matter holds more than one YAML document", null);
            }
            return new FrontMatter(fields, lines);
        } catch (JsonProcessingException e) {
            throw notYaml(e, yaml);
        } catch (YAMLException e) {
            throw notYaml(e, yaml);
        } catch (IOException e) {
            throw new MemoryFileException("the front-matter cannot be read: " + e.getClass().getSimpleName(), e);
        } catch (RuntimeException e) {
            // A parser bug must not stop a store from reading its other files.
            throw new MemoryFileException("the YAML parser failed on the front-matter (" + e.getClass().getSimpleName()
                    + ")", e);
        }
    }

    /**
     * Reads a string, never ending a read that fills the buffer with the first half of a surrogate pair. SnakeYAML
     * 2.3 then reads one more character past the end of its buffer and throws IndexOutOfBoundsException (SnakeYAML
     * issue 1098), so an emoji at the wrong offset would make a valid file unreadable.
     */
    private static final class SurrogateSafeReader extends Reader {

        private final String text;
        private int position;

        SurrogateSafeReader(String text) {
            this.text = text;
        }

        @Override
        public int read(char[] buffer, int offset, int length) {
            Objects.checkFromIndexSize(offset, length, buffer.length);
            if (length == 0) {
                return 0;
            }
            if (position >= text.length()) {
                return -1;
            }
            int count = Math.min(length, text.length() - position);
            if (count > 1 && Character.isHighSurrogate(text.charAt(position + count - 1))) {
                count--;
            }
            text.getChars(position, position + count, buffer, offset);
            position += count;
            return count;
        }

        @Override
        public void close() {
        }
    }

    /** The 1-based file line of the parser's current token: YAML line 1 is file line 2. */
    private static int line(JsonParser parser) {
        return Math.max(parser.currentTokenLocation().getLineNr(), 1) + 1;
    }

    /**
     * One value, as Jackson reads it: String, Boolean, null, numbers in {@link MemoryFile}'s canonical form,
     * ordered maps and lists.
     *
     * @param depth the nesting level a container here has (a top-level field's value is level 1)
     */
    private static Object readValue(JsonParser parser, JsonToken token, int depth, String field)
            throws IOException, MemoryFileException {
        switch (token) {
            case START_OBJECT -> {
                checkDepth(parser, depth, field);
                Map<String, Object> map = new LinkedHashMap<>();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    if (map.containsKey(name)) {
                        throw new MemoryFileException(line(parser), "duplicate key " + quote(name) + " in " + quote(field), null);
                    }
                    map.put(name, readValue(parser, parser.nextToken(), depth + 1, field));
                }
                return map;
            }
            case START_ARRAY -> {
                checkDepth(parser, depth, field);
                List<Object> list = new ArrayList<>();
                for (JsonToken next = parser.nextToken(); next != JsonToken.END_ARRAY; next = parser.nextToken()) {
                    list.add(readValue(parser, next, depth + 1, field));
                }
                return list;
            }
            case VALUE_STRING -> {
                if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
                    // Jackson reports an alias as a string holding its name, which would silently change the value.
                    throw new MemoryFileException(line(parser), quote(field)
                            + " uses a YAML alias (*name), which is not supported: write the value out", null);
                }
                return parser.getText();
            }
            case VALUE_NUMBER_INT -> {
                try {
                    return MemoryFile.canonicalNumber(parser.getNumberValue(), field);
                } catch (JsonProcessingException | NumberFormatException e) {
                    throw new MemoryFileException(line(parser), quote(field) + " holds a whole number that cannot be read"
                            + " (it may exceed the parser's limit of 1000 digits)", e);
                }
            }
            case VALUE_NUMBER_FLOAT -> {
                return readFloat(parser, field);
            }
            case VALUE_TRUE, VALUE_FALSE -> {
                return token == JsonToken.VALUE_TRUE;
            }
            case VALUE_NULL -> {
                return null;
            }
            case VALUE_EMBEDDED_OBJECT -> throw new MemoryFileException(line(parser), quote(field)
                    + " holds a binary value (!!binary), which is not supported", null);
            default -> throw new MemoryFileException(line(parser), quote(field) + " holds an unexpected " + token, null);
        }
    }

    /** Reads the exact decimal written, so that a number beyond a double's precision keeps its value. */
    private static Number readFloat(JsonParser parser, String field) throws IOException, MemoryFileException {
        BigDecimal value;
        try {
            value = parser.getDecimalValue();
        } catch (JsonProcessingException | NumberFormatException e) {
            // Jackson's message quotes the text, which may be private; ours does not.
            throw new MemoryFileException(line(parser), quote(field) + " holds a number that is not a finite decimal"
                    + " (such as .inf, .nan or a value tagged !!float), which JSON cannot hold", null);
        }
        if (value.signum() == 0 && parser.getText().strip().startsWith("-")) {
            return -0.0; // BigDecimal has no negative zero; the double written as -0.0 reads back as itself
        }
        return MemoryFile.canonicalNumber(value, field);
    }

    private static void checkDepth(JsonParser parser, int depth, String field) throws MemoryFileException {
        if (depth > MemoryFile.MAX_DEPTH) {
            throw new MemoryFileException(line(parser), quote(field) + " nests lists and maps more than "
                    + MemoryFile.MAX_DEPTH + " deep", null);
        }
    }

    /**
     * One line from the YAML parser's error, with the file line. Jackson's own message is not used: it quotes the
     * offending line of the file, which may hold a private metadata value.
     */
    private static MemoryFileException notYaml(Exception e, String yaml) {
        Throwable cause = e instanceof YAMLException ? e : e.getCause();
        if (cause instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
            Mark at = marked.getProblemMark();
            String problem = firstLine(marked.getProblem());
            String context = firstLine(marked.getContext());
            Mark contextMark = marked.getContextMark();
            String where = "";
            if (contextMark != null && contextMark.getLine() != at.getLine()) {
                where = " (" + context + " started on line " + (contextMark.getLine() + 2) + ")";
            } else if (!context.isEmpty()) {
                where = " (" + context + ")";
            }
            return new MemoryFileException(at.getLine() + 2, "front-matter is not valid YAML: " + problem + where, e);
        }
        if (cause instanceof ReaderException reader) {
            int offset = yaml.offsetByCodePoints(0, Math.min(reader.getPosition(), yaml.codePointCount(0, yaml.length())));
            int line = 2 + (int) yaml.substring(0, offset).chars().filter(c -> c == '\n').count();
            return new MemoryFileException(line, String.format(Locale.ROOT, "the front-matter holds a character YAML does"
                    + " not allow (U+%04X); write it as an escape inside double quotes", reader.getCodePoint()), e);
        }
        if (cause instanceof YAMLException) {
            return new MemoryFileException("front-matter is not valid YAML: " + firstLine(cause.getMessage()), e);
        }
        // Jackson's own parse errors (its message may quote the text): in practice a key that is a list or a map.
        int line = e instanceof JsonProcessingException json && json.getLocation() != null
                ? json.getLocation().getLineNr() : -1;
        String problem = "front-matter cannot be read as fields and values (" + e.getClass().getSimpleName()
                + "); every key must be a single value, not a list or a map";
        return line > 0 ? new MemoryFileException(line + 1, problem, e) : new MemoryFileException(problem, e);
    }

    private static String firstLine(String text) {
        return text == null ? "" : text.strip().lines().findFirst().orElse("");
    }

    /** A field or key name for a message: quoted, one line, not overly long. */
    static String quote(String name) {
        StringBuilder quoted = new StringBuilder("'");
        name.codePoints().limit(60).forEach(cp -> quoted.appendCodePoint(YamlWriter.isRaw(cp) ? cp : '?'));
        return quoted.append(name.codePointCount(0, name.length()) > 60 ? "...'" : "'").toString();
    }
}
