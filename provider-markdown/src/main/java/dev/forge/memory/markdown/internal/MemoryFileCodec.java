package dev.forge.memory.markdown.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.reader.ReaderException;

/**
 * Reads and writes memory files (ADR-0044): a line {@code ---}, YAML front-matter, a line {@code ---}, then the
 * markdown body, which is the memory's value.
 *
 * <pre>
 * ---
 * id: mem_0b9d6c1e-3f4a-4c2b-9d1e-5a6b7c8d9e0f
 * key: build-tool
 * created_at: 2026-11-22T04:15:12.123Z
 * updated_at: 2026-11-22T04:15:12.123Z
 * version: 1
 * scope: project
 * tags:
 *   - build
 * ---
 * We use Maven 3.9 with the wrapper.
 * </pre>
 *
 * <p>Reading is lenient where people edit by hand (missing optional fields get defaults, CRLF line endings, a BOM,
 * a single tag written without a list) and strict where a mistake would lose data (invalid UTF-8, duplicate
 * fields, values of the wrong type, unsafe ids). Writing is deterministic and lossless:
 * {@code parse(serialize(m), m.id() + ".md", t)} equals {@code m} for every {@link MemoryFile} whose body UTF-8 can
 * encode.
 *
 * <p>The YAML is written by this class, not by Jackson's {@code YAMLGenerator}: with {@code MINIMIZE_QUOTES} the
 * generator writes number-like strings ({@code "123"}, {@code "1e3"}, {@code "0x1F"}, {@code ".inf"}) unquoted, so
 * they read back as numbers, and it writes every multi-line string as a literal block, where SnakeYAML leaves NEL
 * (U+0085) unescaped and the reader turns it into a line break. Jackson's parser reads the files.
 */
public final class MemoryFileCodec {

    /** What every id starts with. */
    public static final String ID_PREFIX = "mem_";

    /** What every memory file name ends with. */
    public static final String FILE_SUFFIX = ".md";

    private static final String DELIMITER = "---";
    private static final int INDENT = 2;
    /** Longer keys are written as explicit {@code ? key} entries: YAML limits implicit keys to 1024 characters. */
    private static final int MAX_IMPLICIT_KEY_LENGTH = 200;
    private static final String RFC_3339_EXAMPLE = "2026-11-22T04:15:12.123Z";

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter
            .ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

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

    /** Plain words YAML 1.1 readers take as booleans or null; written quoted so every reader sees a string. */
    private static final Set<String> RESERVED_WORDS = Set.of("null", "true", "false", "yes", "no", "on", "off", "y", "n");

    private MemoryFileCodec() {
    }

    private static LoaderOptions loaderOptions() {
        LoaderOptions options = new LoaderOptions();
        options.setNestingDepthLimit(MemoryFile.MAX_DEPTH + 16);
        return options;
    }

    /**
     * Checks that an id is safe to use in a file name: not empty, and free of {@code /}, {@code \}, {@code ..} and
     * control characters (NUL included), so that no id can point outside its directory.
     *
     * @return the id, unchanged
     * @throws NullPointerException     if the id is null
     * @throws IllegalArgumentException saying which rule the id breaks
     */
    public static String checkId(String id) {
        String problem = idProblem(Objects.requireNonNull(id, "id"));
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return id;
    }

    private static String idProblem(String id) {
        if (id.isEmpty()) {
            return "an id must not be empty";
        }
        if (id.indexOf('/') >= 0) {
            return "an id must not contain '/'";
        }
        if (id.indexOf('\\') >= 0) {
            return "an id must not contain '\\'";
        }
        if (id.contains("..")) {
            return "an id must not contain '..'";
        }
        for (int i = 0; i < id.length(); i++) {
            if (Character.isISOControl(id.charAt(i))) {
                return String.format(Locale.ROOT, "an id must not contain a control character (U+%04X)", (int) id.charAt(i));
            }
        }
        return null;
    }

    /** Whether {@code name} is a memory file name: {@code mem_<x>.md} where {@code mem_<x>} is a safe id. */
    public static boolean isMemoryFileName(String name) {
        return name != null && name.length() > ID_PREFIX.length() + FILE_SUFFIX.length()
                && name.startsWith(ID_PREFIX) && name.endsWith(FILE_SUFFIX)
                && idProblem(name.substring(0, name.length() - FILE_SUFFIX.length())) == null;
    }

    /**
     * The file name of an id: the id and {@code .md}.
     *
     * @throws IllegalArgumentException if the id is not safe
     */
    public static String fileName(String id) {
        return checkId(id) + FILE_SUFFIX;
    }

    /**
     * Reads a memory file. The front-matter runs from the first line to the next line that is {@code ---}
     * (trailing blanks and CR allowed); the body is everything after that line, exactly, less the one line break
     * the writer adds (CRLF if the closing line ends in CRLF), so a body may itself hold {@code ---} lines.
     *
     * @param bytes        the file's content
     * @param fileName     the file's name (not a path), from which a missing {@code id} is derived
     * @param fallbackTime the time to use when neither {@code created_at} nor {@code updated_at} is given, such as
     *                     the file's modification time
     * @throws MemoryFileException if the content is not a memory file; the message says what is wrong and where
     */
    public static MemoryFile parse(byte[] bytes, String fileName, Instant fallbackTime) throws MemoryFileException {
        Objects.requireNonNull(fileName, "fileName");
        Objects.requireNonNull(fallbackTime, "fallbackTime");
        String text = decode(Objects.requireNonNull(bytes, "bytes"));
        int start = text.startsWith("\uFEFF") ? 1 : 0;
        int end = lineEnd(text, start);
        if (!isDelimiter(text, start, end)) {
            throw new MemoryFileException(1, "missing front-matter: the file must start with a line '---'", null);
        }
        int yamlStart = Math.min(end + 1, text.length());
        for (int at = yamlStart; at < text.length(); ) {
            end = lineEnd(text, at);
            if (isDelimiter(text, at, end)) {
                boolean crlf = end < text.length() && end > at && text.charAt(end - 1) == '\r';
                String body = text.substring(Math.min(end + 1, text.length()));
                FrontMatter front = readFrontMatter(text.substring(yamlStart, at));
                try {
                    return toFile(front, fileName, fallbackTime, body(body, crlf));
                } catch (IllegalArgumentException e) {
                    throw new MemoryFileException("the file holds an invalid value: " + e.getMessage(), e);
                }
            }
            at = end + 1;
        }
        throw new MemoryFileException("unclosed front-matter: no closing '---' line", null);
    }

    /** Strict UTF-8: a file that is not UTF-8 is reported, not read with replacement characters. */
    static String decode(byte[] bytes) throws MemoryFileException {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length); // UTF-8 never yields more chars than bytes
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            int at = in.position();
            int line = 1;
            for (int i = 0; i < at; i++) {
                line += bytes[i] == '\n' ? 1 : 0;
            }
            throw new MemoryFileException(line, "not valid UTF-8 text (at byte " + at + "); save the file as UTF-8", null);
        }
        return out.flip().toString();
    }

    private static int lineEnd(String text, int from) {
        int newline = text.indexOf('\n', from);
        return newline < 0 ? text.length() : newline;
    }

    /** {@code ---}, then only spaces and tabs, then an optional CR. */
    private static boolean isDelimiter(String text, int from, int to) {
        if (to > from && text.charAt(to - 1) == '\r') {
            to--;
        }
        while (to > from && (text.charAt(to - 1) == ' ' || text.charAt(to - 1) == '\t')) {
            to--;
        }
        return to - from == DELIMITER.length() && text.startsWith(DELIMITER, from);
    }

    /** The body without the one line break the writer adds after it (CRLF in a CRLF file). */
    private static String body(String rest, boolean crlf) {
        if (crlf && rest.endsWith("\r\n")) {
            return rest.substring(0, rest.length() - 2);
        }
        return rest.endsWith("\n") ? rest.substring(0, rest.length() - 1) : rest;
    }

    /** The top-level fields in file order, with the line each is on. */
    private record FrontMatter(Map<String, Object> fields, Map<String, Integer> lines) {

        Object get(String name) {
            return fields.get(name);
        }

        MemoryFileException error(String name, String problem) {
            Integer line = lines.get(name);
            return line == null ? new MemoryFileException(problem, null) : new MemoryFileException(line, problem, null);
        }
    }

    private static FrontMatter readFrontMatter(String yaml) throws MemoryFileException {
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
    private static String quote(String name) {
        StringBuilder quoted = new StringBuilder("'");
        name.codePoints().limit(60).forEach(cp -> quoted.appendCodePoint(isRaw(cp) ? cp : '?'));
        return quoted.append(name.codePointCount(0, name.length()) > 60 ? "...'" : "'").toString();
    }

    private static MemoryFile toFile(FrontMatter front, String fileName, Instant fallbackTime, String body)
            throws MemoryFileException {
        String id;
        if (front.get("id") == null) {
            if (!isMemoryFileName(fileName)) {
                throw new MemoryFileException("the field 'id' is missing and the file name is not mem_<id>.md,"
                        + " so no id can be derived", null);
            }
            id = fileName.substring(0, fileName.length() - FILE_SUFFIX.length());
        } else {
            id = safeId(front, "id", text(front, "id").orElseThrow());
        }
        String key = text(front, "key").orElseThrow(() -> front.error("key", front.fields().containsKey("key")
                ? "'key' is empty; every memory needs a key" : "the field 'key' is missing; every memory needs a key"));
        Optional<Instant> created = time(front, "created_at", front.get("created_at"));
        Optional<Instant> updated = time(front, "updated_at", front.get("updated_at"));
        long version = version(front);
        Optional<String> scope = text(front, "scope");
        Optional<String> category = text(front, "category");
        List<String> tags = tags(front);
        Map<String, Object> metadata = metadata(front);
        Optional<String> supersedes = text(front, "supersedes");
        if (supersedes.isPresent()) {
            safeId(front, "supersedes", supersedes.get());
        }
        List<String> replaces = replaces(front);
        Optional<String> committedBy = text(front, "committed_by");
        if (committedBy.isPresent()) {
            safeId(front, "committed_by", committedBy.get());
        }
        List<RelatedItem> related = related(front);
        Optional<String> sessionId = text(front, "session_id");
        Optional<String> trigger = text(front, "trigger");
        boolean tombstone = tombstone(front);
        Map<String, Object> extra = new LinkedHashMap<>(front.fields());
        extra.keySet().removeAll(MemoryFile.FIELD_NAMES);
        return new MemoryFile(id, key, created.or(() -> updated).orElse(fallbackTime),
                updated.or(() -> created).orElse(fallbackTime), version, scope, category, tags, metadata, supersedes,
                related, sessionId, trigger, tombstone, replaces, committedBy, extra, body);
    }

    private static List<String> replaces(FrontMatter front) throws MemoryFileException {
        Object value = front.get("replaces");
        if (value == null) {
            return List.of();
        }
        List<?> list = value instanceof String id ? List.of(id) : value instanceof List<?> l ? l : null;
        if (list == null) {
            throw front.error("replaces", "'replaces' must be a list of ids, not " + kind(value));
        }
        List<String> ids = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof String id)) {
                throw front.error("replaces", "'replaces' must be a list of ids, but item " + (i + 1) + " is "
                        + (list.get(i) == null ? "null" : kind(list.get(i))));
            }
            ids.add(safeId(front, "replaces", id));
        }
        return ids;
    }

    private static String safeId(FrontMatter front, String field, String id) throws MemoryFileException {
        String problem = idProblem(id);
        if (problem != null) {
            throw front.error(field, quote(field) + " is not a safe id: " + problem);
        }
        return id;
    }

    private static Optional<String> text(FrontMatter front, String field) throws MemoryFileException {
        Object value = front.get(field);
        if (value == null || value instanceof String) {
            return Optional.ofNullable((String) value);
        }
        throw front.error(field, quote(field) + " must be a string, not " + kind(value) + quotingHint(value));
    }

    private static String kind(Object value) {
        if (value instanceof Map) {
            return "a map";
        }
        if (value instanceof List) {
            return "a list";
        }
        if (value instanceof Boolean) {
            return "a boolean";
        }
        return value instanceof Number ? "a number" : "a string";
    }

    private static String quotingHint(Object value) {
        return value instanceof Number || value instanceof Boolean ? "; put the value in quotes" : "";
    }

    private static Optional<Instant> time(FrontMatter front, String field, Object value) throws MemoryFileException {
        if (value == null) {
            return Optional.empty();
        }
        if (!(value instanceof String text)) {
            throw front.error(field, quote(field) + " must be an RFC 3339 timestamp such as " + RFC_3339_EXAMPLE
                    + ", not " + kind(value));
        }
        return Optional.of(parseTime(text).orElseThrow(() -> front.error(field, quote(field)
                + " is not an RFC 3339 timestamp in the years 0000 to 9999, such as " + RFC_3339_EXAMPLE)));
    }

    /** RFC 3339 with any offset, any fraction of a second or none, and a space allowed for the {@code T}. */
    private static Optional<Instant> parseTime(String text) {
        String iso = text.strip();
        if (iso.length() > 10 && iso.charAt(10) == ' ') {
            iso = iso.substring(0, 10) + 'T' + iso.substring(11);
        }
        try {
            Instant instant = OffsetDateTime.parse(iso, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
            return instant.isBefore(MemoryFile.EARLIEST) || instant.isAfter(MemoryFile.LATEST)
                    ? Optional.empty() : Optional.of(instant);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static long version(FrontMatter front) throws MemoryFileException {
        Object value = front.get("version");
        if (value == null) {
            return 1;
        }
        if ((value instanceof Integer || value instanceof Long) && ((Number) value).longValue() >= 1) {
            return ((Number) value).longValue();
        }
        throw front.error("version", "'version' must be a whole number of 1 or more");
    }

    private static List<String> tags(FrontMatter front) throws MemoryFileException {
        Object value = front.get("tags");
        if (value == null) {
            return List.of();
        }
        if (value instanceof String tag) {
            return List.of(tag);
        }
        if (value instanceof List<?> list) {
            List<String> tags = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) {
                if (!(list.get(i) instanceof String tag)) {
                    throw front.error("tags", "'tags' must be a list of strings, but tag " + (i + 1) + " is "
                            + (list.get(i) == null ? "null" : kind(list.get(i))) + quotingHint(list.get(i)));
                }
                tags.add(tag);
            }
            return tags;
        }
        throw front.error("tags", "'tags' must be a list of strings, not " + kind(value));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> metadata(FrontMatter front) throws MemoryFileException {
        Object value = front.get("metadata");
        if (value == null) {
            return Map.of();
        }
        if (value instanceof Map) {
            return (Map<String, Object>) value;
        }
        throw front.error("metadata", "'metadata' must be a map of names to values, not " + kind(value));
    }

    private static List<RelatedItem> related(FrontMatter front) throws MemoryFileException {
        Object value = front.get("related");
        if (value == null) {
            return List.of();
        }
        if (value instanceof String key) {
            return List.of(RelatedItem.toKey(key, RelatedItem.DEFAULT_RELATIONSHIP));
        }
        if (!(value instanceof List<?> list)) {
            throw front.error("related", "'related' must be a list of links, not " + kind(value));
        }
        List<RelatedItem> related = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            related.add(relatedItem(front, "'related' item " + (i + 1), list.get(i)));
        }
        return related;
    }

    private static RelatedItem relatedItem(FrontMatter front, String what, Object value) throws MemoryFileException {
        if (value instanceof String key) {
            return RelatedItem.toKey(key, RelatedItem.DEFAULT_RELATIONSHIP);
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw front.error("related", what + " must be a map with an 'id' or a 'key', or a key, not "
                    + (value == null ? "null" : kind(value)));
        }
        Optional<String> id = itemText(front, what, map, "id");
        if (id.isPresent() && idProblem(id.get()) != null) {
            throw front.error("related", what + ": 'id' is not a safe id: " + idProblem(id.get()));
        }
        Optional<String> key = itemText(front, what, map, "key");
        if (id.isEmpty() && key.isEmpty()) {
            throw front.error("related", what + " needs an 'id' or a 'key'");
        }
        Optional<String> scope = itemText(front, what, map, "scope");
        String relationship = itemText(front, what, map, "relationship").orElse(RelatedItem.DEFAULT_RELATIONSHIP);
        if (relationship.isEmpty()) {
            throw front.error("related", what + ": 'relationship' must not be empty");
        }
        Object at = map.get("created_at");
        Optional<Instant> createdAt = at instanceof String text ? parseTime(text) : Optional.empty();
        if (at != null && createdAt.isEmpty()) {
            throw front.error("related", what + ": 'created_at' is not an RFC 3339 timestamp in the years 0000 to"
                    + " 9999, such as " + RFC_3339_EXAMPLE);
        }
        Map<String, Object> extra = new LinkedHashMap<>();
        map.forEach((name, v) -> {
            if (!RelatedItem.FIELD_NAMES.contains((String) name)) {
                extra.put((String) name, v);
            }
        });
        return new RelatedItem(id, key, scope, relationship, createdAt, extra);
    }

    private static Optional<String> itemText(FrontMatter front, String what, Map<?, ?> item, String name)
            throws MemoryFileException {
        Object value = item.get(name);
        if (value == null || value instanceof String) {
            return Optional.ofNullable((String) value);
        }
        throw front.error("related", what + ": " + quote(name) + " must be a string, not " + kind(value)
                + quotingHint(value));
    }

    private static boolean tombstone(FrontMatter front) throws MemoryFileException {
        Object value = front.get("tombstone");
        if (value == null || value instanceof Boolean) {
            return Boolean.TRUE.equals(value);
        }
        throw front.error("tombstone", "'tombstone' must be true or false");
    }

    /**
     * Writes a memory file: UTF-8, LF line endings, {@code ---}, the front-matter, {@code ---}, the body and one
     * line break. Absent optional fields and empty {@code tags}, {@code metadata} and {@code related} are left out
     * (reading restores them), unknown fields follow the known ones in their order.
     *
     * @throws IllegalArgumentException if the body holds an unpaired surrogate, which UTF-8 cannot encode (in the
     *                                  front-matter it is written as an escape)
     */
    public static byte[] serialize(MemoryFile file) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("id", file.id());
        fields.put("key", file.key());
        fields.put("created_at", new Verbatim(TIMESTAMP.format(file.createdAt())));
        fields.put("updated_at", new Verbatim(TIMESTAMP.format(file.updatedAt())));
        fields.put("version", file.version());
        file.scope().ifPresent(scope -> fields.put("scope", scope));
        file.category().ifPresent(category -> fields.put("category", category));
        if (!file.tags().isEmpty()) {
            fields.put("tags", file.tags());
        }
        if (!file.metadata().isEmpty()) {
            fields.put("metadata", file.metadata());
        }
        file.supersedes().ifPresent(id -> fields.put("supersedes", id));
        if (!file.replaces().isEmpty()) {
            fields.put("replaces", file.replaces());
        }
        file.committedBy().ifPresent(id -> fields.put("committed_by", id));
        if (!file.related().isEmpty()) {
            List<Object> items = new ArrayList<>();
            for (RelatedItem item : file.related()) {
                Map<String, Object> map = new LinkedHashMap<>();
                item.id().ifPresent(id -> map.put("id", id));
                item.key().ifPresent(key -> map.put("key", key));
                item.scope().ifPresent(scope -> map.put("scope", scope));
                map.put("relationship", item.relationship());
                item.createdAt().ifPresent(at -> map.put("created_at", new Verbatim(TIMESTAMP.format(at))));
                map.putAll(item.extra());
                items.add(map);
            }
            fields.put("related", items);
        }
        file.sessionId().ifPresent(session -> fields.put("session_id", session));
        file.trigger().ifPresent(trigger -> fields.put("trigger", trigger));
        if (file.tombstone()) {
            fields.put("tombstone", true);
        }
        fields.putAll(file.extra());

        StringBuilder out = new StringBuilder(256 + file.body().length());
        out.append(DELIMITER).append('\n');
        new YamlWriter(out).entries(fields, 0, false);
        out.append(DELIMITER).append('\n').append(file.body()).append('\n');
        try {
            ByteBuffer bytes = StandardCharsets.UTF_8.newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(out));
            byte[] array = new byte[bytes.remaining()];
            bytes.get(array);
            return array;
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("the body of " + file.id() + " holds an unpaired surrogate (half of a"
                    + " UTF-16 pair), which UTF-8 cannot encode", e);
        }
    }

    /** A scalar written exactly as given, for timestamps this class formats. */
    private record Verbatim(String text) {
    }

    /**
     * Block-style YAML for JSON values, two-space indent, lists indented under their key. A string is written plain
     * when that is certain to read back as the same string, as a literal block ({@code |}) when it is multi-line
     * text that survives editing, single-quoted when every character can appear as itself, else double-quoted
     * with escapes. Nothing is written at column 0 but top-level keys, so no line of the front-matter can be
     * {@code ---}.
     */
    private static final class YamlWriter {

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
            if (!line.codePoints().allMatch(MemoryFileCodec::isRaw)) {
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
        if (text.codePoints().allMatch(MemoryFileCodec::isRaw)) {
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
