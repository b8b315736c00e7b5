package dev.forge.memory.markdown.internal;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

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
 * scope: repo
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
 * <p>The front-matter is read by {@link FrontMatter} (the YAML) and {@link FrontMatterFields} (what each field
 * means), and written by {@link YamlWriter}, not by Jackson's {@code YAMLGenerator}: with {@code MINIMIZE_QUOTES} the
 * generator writes number-like strings ({@code "123"}, {@code "1e3"}, {@code "0x1F"}, {@code ".inf"}) unquoted, so
 * they read back as numbers, and it writes every multi-line string as a literal block, where SnakeYAML leaves NEL
 * (U+0085) unescaped and the reader turns it into a line break. Jackson's parser reads the files. This class holds
 * the file's frame: the {@code ---} lines, the encoding, the body, and the rules for ids and file names.
 */
public final class MemoryFileCodec {

    /** What every id starts with. */
    public static final String ID_PREFIX = "mem_";

    /** What every memory file name ends with. */
    public static final String FILE_SUFFIX = ".md";

    private static final String DELIMITER = "---";

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter
            .ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private MemoryFileCodec() {
    }

    /**
     * Checks that an id is safe to use in a file name: not empty, not {@code .} or {@code ..}, and free
     * of {@code /}, {@code \} and control characters (NUL included), so that no id can point outside its directory.
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

    /** What makes {@code id} unsafe in a file name, or null if it is safe. */
    static String idProblem(String id) {
        if (id.isEmpty()) {
            return "an id must not be empty";
        }
        if (id.indexOf('/') >= 0) {
            return "an id must not contain '/'";
        }
        if (id.indexOf('\\') >= 0) {
            return "an id must not contain '\\'";
        }
        if (id.equals(".") || id.equals("..")) {
            // An id is a file name only with ".md" after it, so '..' inside one (seed 003 elides ids with "...")
            // cannot leave the directory; these two are refused all the same.
            return "an id must not be '.' or '..'";
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
     * (trailing blanks and CR allowed); the body is everything after that line, exactly, less one blank line right
     * after it and the one line break the writer adds at the end (CRLF if the closing line ends in CRLF), so a body
     * may itself hold {@code ---} lines.
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
                String body = withoutBlankLine(text.substring(Math.min(end + 1, text.length())), crlf);
                FrontMatter front = FrontMatter.read(text.substring(yamlStart, at));
                try {
                    return FrontMatterFields.toFile(front, fileName, fallbackTime, body(body, crlf));
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

    /**
     * The text after the closing {@code ---} line less one blank line (CRLF only in a CRLF file), if it starts with
     * one: seed 000's {@code Parse}
     * drops it, and its {@code Serialize} (like most people) writes one. The writer adds one exactly when the body
     * itself starts with a line break, so that such a body keeps it.
     */
    private static String withoutBlankLine(String rest, boolean crlf) {
        if (crlf && rest.startsWith("\r\n")) {
            return rest.substring(2);
        }
        return rest.startsWith("\n") ? rest.substring(1) : rest;
    }

    /** The body without the one line break the writer adds after it (CRLF in a CRLF file). */
    private static String body(String rest, boolean crlf) {
        if (crlf && rest.endsWith("\r\n")) {
            return rest.substring(0, rest.length() - 2);
        }
        return rest.endsWith("\n") ? rest.substring(0, rest.length() - 1) : rest;
    }


    /** A time as the writer writes it: RFC 3339, UTC, milliseconds. */
    static String timestamp(Instant instant) {
        return TIMESTAMP.format(instant);
    }

    /**
     * Writes a memory file: UTF-8, LF line endings, {@code ---}, the front-matter, {@code ---}, the body and one
     * line break, after a blank line if the body starts with a line break. Absent optional fields, an empty
     * {@code key} and empty {@code tags}, {@code metadata} and {@code related} are left out (reading restores them),
     * unknown fields follow the known ones in their order.
     *
     * @throws IllegalArgumentException if the body holds an unpaired surrogate, which UTF-8 cannot encode (in the
     *                                  front-matter it is written as an escape)
     */
    public static byte[] serialize(MemoryFile file) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("id", file.id());
        if (!file.key().isEmpty()) {
            fields.put("key", file.key()); // a file without one takes its chain's (seed 000)
        }
        fields.put("created_at", new YamlWriter.Verbatim(TIMESTAMP.format(file.createdAt())));
        fields.put("updated_at", new YamlWriter.Verbatim(TIMESTAMP.format(file.updatedAt())));
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
                item.createdAt().ifPresent(at -> map.put("created_at", new YamlWriter.Verbatim(TIMESTAMP.format(at))));
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
        out.append(DELIMITER).append('\n');
        if (file.body().startsWith("\n")) {
            out.append('\n'); // the blank line a reader drops (see withoutBlankLine)
        }
        out.append(file.body()).append('\n');
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

}
