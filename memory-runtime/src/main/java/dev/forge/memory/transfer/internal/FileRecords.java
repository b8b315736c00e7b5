package dev.forge.memory.transfer.internal;

import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.forge.memory.Scope;
import dev.forge.memory.StorageException;
import dev.forge.memory.transfer.TransferFileException;
import dev.forge.memory.transfer.TransferFormat;
import dev.forge.memory.transfer.TransferProblem;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The records of an export file, read by streaming: JSON Lines line by line, a JSON document token by token with one
 * record at a time as a tree. Locations name the line (and for JSON the path) of each record. A JSON document without
 * {@code format} is read as seed 004's export ({@code version}, {@code timestamp}, {@code scopes}); see
 * {@link Records.Reading}.
 */
public final class FileRecords implements RecordSource {

    // Decimals are read exactly, so that metadata a double cannot hold is refused (as the API refuses it), never rounded.
    static final ObjectMapper STRICT = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    // One JSON value a line, nothing after it; the document parser reads on past each record, so only lines check this.
    static final ObjectReader TREE = STRICT.readerFor(JsonNode.class).with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final Path file;
    private final TransferFormat format;
    private final String name;
    private final Instant now;

    /**
     * Reads {@code file} in {@code format}, naming it {@code name} in messages (a spooled stream, say); {@code now} is
     * the time of versions whose file gives none.
     */
    public FileRecords(Path file, TransferFormat format, String name, Instant now) {
        this.file = file;
        this.format = format;
        this.name = name;
        this.now = now;
    }

    /**
     * The shape of {@code file} from its content: JSON Lines if a second JSON value follows the first, or the first is
     * a header without {@code scopes}; else one JSON document. A file too broken to tell is taken by its name
     * ({@link TransferFormat#of(Path)}), so that reading it reports what is broken.
     */
    public static TransferFormat detect(Path file) {
        try (JsonParser parser = STRICT.createParser(Files.newInputStream(file))) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return TransferFormat.of(file);
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                if (parser.getCurrentName().equals("scopes")) {
                    return TransferFormat.JSON;
                }
                parser.nextToken();
                parser.skipChildren();
            }
            return parser.nextToken() != null ? TransferFormat.JSONL : TransferFormat.of(file);
        } catch (IOException | RuntimeException e) {
            return TransferFormat.of(file);
        }
    }

    @Override
    public String describe() {
        return name;
    }

    @Override
    public void read(RecordVisitor visitor) {
        try (InputStream in = Files.newInputStream(file)) {
            Reader reader = strictUtf8(in);
            if (format == TransferFormat.JSONL) {
                readLines(new BufferedReader(reader, 1 << 16), visitor);
            } else {
                readDocument(reader, visitor);
            }
        } catch (NoSuchFileException e) {
            throw fatal("file", "the file does not exist", e);
        } catch (CharacterCodingException e) {
            throw fatal("file", "the file is not valid UTF-8", e);
        } catch (IOException e) {
            throw new StorageException("Cannot read " + name + ": " + e.getMessage(), e);
        }
    }

    private void readLines(BufferedReader in, RecordVisitor visitor) throws IOException {
        long line = 0;
        long ordinal = 0;
        boolean header = false;
        String text;
        while (true) {
            try {
                text = in.readLine();
            } catch (CharacterCodingException e) {
                throw fatal("line " + (line + 1), "the line is not valid UTF-8", e);
            }
            if (text == null) {
                break;
            }
            line++;
            if (text.isBlank()) {
                continue;
            }
            String location = "line " + line;
            JsonNode node;
            try {
                node = TREE.readValue(text);
            } catch (JsonProcessingException e) {
                if (!header) {
                    throw fatal(location, "the header line is not valid JSON: " + e.getOriginalMessage(), e);
                }
                visitor.invalid(ordinal++, location, "not valid JSON (" + e.getOriginalMessage()
                        + (e instanceof JsonEOFException ? "; the file may be truncated" : "") + ")");
                continue;
            } catch (NumberFormatException e) {
                if (!header) {
                    throw fatal(location, "the header line holds a number that cannot be read: " + e.getMessage(), e);
                }
                visitor.invalid(ordinal++, location, "a number cannot be read (" + e.getMessage() + ")");
                continue;
            }
            if (!header) {
                checkHeader(node, location, true);
                header = true;
                continue;
            }
            JsonNode kind = node.get("kind");
            String kindText = kind == null ? null : kind.asText();
            try {
                if ("entry".equals(kindText)) {
                    Records.Entry entry = Records.decodeEntry(node, Optional.empty(), new Records.Reading(false, now));
                    visitor.entry(ordinal++, location, entry);
                } else if ("relation".equals(kindText)) {
                    Records.Relation relation = Records.decodeRelation(node);
                    visitor.relation(ordinal++, location, relation);
                } else {
                    visitor.invalid(ordinal++, location, "field 'kind' must be \"entry\" or \"relation\""
                            + (kind == null ? ", and is missing" : ", found " + kind));
                }
            } catch (Records.RecordException e) {
                visitor.invalid(ordinal++, location, e.getMessage());
            }
        }
        if (!header) {
            throw fatal("line 1", "the file is empty; an export starts with a header line such as "
                    + "{\"format\": \"forge-memory\", \"version\": \"1.0\", ...}", null);
        }
    }

    private void readDocument(Reader reader, RecordVisitor visitor) throws IOException {
        long ordinal = 0;
        String formatName = null;
        String version = null;
        Instant timestamp = null;
        boolean scopes = false;
        try (JsonParser parser = STRICT.createParser(reader)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw fatal(at(parser), "a JSON export is one object starting with '{'", null);
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.getCurrentName();
                JsonToken value = parser.nextToken();
                switch (field) {
                    case "format", "version", "exported_at", "project" -> {
                        if (value != JsonToken.VALUE_STRING && !(field.equals("project") && value == JsonToken.VALUE_NULL)) {
                            throw fatal(at(parser) + " ($." + field + ")", "field '" + field + "' must be a string", null);
                        }
                        if (field.equals("format")) {
                            formatName = parser.getText();
                            checkFormat(formatName, at(parser) + " ($.format)");
                        } else if (field.equals("version")) {
                            version = parser.getText();
                            checkVersion(version, at(parser) + " ($.version)");
                        }
                    }
                    case "timestamp" -> {
                        if (formatName != null) {
                            throw fatal(at(parser) + " ($.timestamp)", "unknown field 'timestamp' in a forge-memory export; "
                                    + "its header has exported_at", null);
                        }
                        try {
                            timestamp = Records.epochSeconds(parser.readValueAsTree(), "timestamp");
                        } catch (Records.RecordException e) {
                            throw fatal(at(parser) + " ($.timestamp)", e.getMessage(), null);
                        }
                    }
                    case "scopes" -> {
                        scopes = true;
                        // Seed 004's export has no 'format' and puts version and timestamp first, as its code writes them.
                        Records.Reading reading = new Records.Reading(formatName == null, timestamp != null ? timestamp : now);
                        expect(parser, value, JsonToken.START_OBJECT, "$.scopes", "an object with an array per scope");
                        while (parser.nextToken() == JsonToken.FIELD_NAME) {
                            String name = parser.getCurrentName();
                            Scope scope = Records.scopeNamed(name);
                            String path = "$.scopes." + name;
                            if (scope == null) {
                                throw fatal(at(parser) + " (" + path + ")", "unknown scope '" + name + "'; use session, project or global", null);
                            }
                            expect(parser, parser.nextToken(), JsonToken.START_ARRAY, path, "an array of entries");
                            int index = 0;
                            while (parser.nextToken() != JsonToken.END_ARRAY) {
                                String location = at(parser) + " (" + path + "[" + index++ + "])";
                                JsonNode node = readTree(parser, location);
                                try {
                                    visitor.entry(ordinal, location, Records.decodeEntry(node, Optional.of(scope), reading));
                                } catch (Records.RecordException e) {
                                    visitor.invalid(ordinal, location, e.getMessage());
                                }
                                ordinal++;
                            }
                        }
                    }
                    case "relations" -> {
                        expect(parser, value, JsonToken.START_ARRAY, "$.relations", "an array of relations");
                        int index = 0;
                        while (parser.nextToken() != JsonToken.END_ARRAY) {
                            String location = at(parser) + " ($.relations[" + index++ + "])";
                            JsonNode node = readTree(parser, location);
                            try {
                                visitor.relation(ordinal, location, Records.decodeRelation(node));
                            } catch (Records.RecordException e) {
                                visitor.invalid(ordinal, location, e.getMessage());
                            }
                            ordinal++;
                        }
                    }
                    default -> throw fatal(at(parser) + " ($." + field + ")", "unknown field '" + field
                            + "'; an export has format, version, exported_at, project, scopes and relations", null);
                }
            }
            if (parser.currentToken() != JsonToken.END_OBJECT) {
                throw fatal(at(parser), "the document does not close properly", null);
            }
            if (parser.nextToken() != null) {
                throw fatal(at(parser), "there is more after the end of the document", null);
            }
        } catch (JsonEOFException e) {
            throw fatal(line(e.getLocation()), "the file ends in the middle of the document; it is truncated", e);
        } catch (JsonProcessingException e) {
            throw fatal(line(e.getLocation()), "not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (version == null || formatName == null && !scopes) {
            throw fatal("$", "the header field '" + (version == null ? "version" : "format")
                    + "' is missing; a forge-memory export has \"format\": \"forge-memory\" and \"version\": \"1.0\""
                    + " (seed 004's export: \"version\": \"1.0\", \"timestamp\" and \"scopes\")", null);
        }
        if (!scopes) {
            throw fatal("$", "the field 'scopes' is missing; an export lists its entries under \"scopes\" (it may be {})", null);
        }
    }

    /**
     * The value at the parser as a tree. A number too large to read (an exponent of millions of digits) ends the
     * import as a damaged file: Jackson throws {@link NumberFormatException} for it, not a parse error, and leaves
     * the parser where it cannot go on.
     */
    private JsonNode readTree(JsonParser parser, String location) throws IOException {
        try {
            return parser.readValueAsTree();
        } catch (NumberFormatException e) {
            throw fatal(location, "a number cannot be read: " + e.getMessage(), e);
        }
    }

    private void checkHeader(JsonNode node, String location, boolean lines) {
        if (!node.isObject()) {
            throw fatal(location, "the header must be a JSON object", null);
        }
        JsonNode formatNode = node.get("format");
        JsonNode versionNode = node.get("version");
        if (lines && McpMemoryRecords.isRecordLine(node)) {
            throw fatal(location, "this is the official MCP memory server's memory.jsonl, not a forge-memory export; "
                    + "import it without --format, and its format is told from its content", null);
        }
        if (formatNode == null || versionNode == null) {
            throw fatal(location, "the header needs \"format\": \"forge-memory\" and \"version\": \"1.0\""
                    + (node.has("kind") ? "; this line is a record, so the header line is missing" : ""), null);
        }
        if (!formatNode.isTextual() || !versionNode.isTextual()) {
            throw fatal(location, "the header fields format and version must be strings, as in \"version\": \"1.0\"", null);
        }
        checkFormat(formatNode.asText(), location);
        checkVersion(versionNode.asText(), location);
        for (java.util.Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!List.of("format", "version", "exported_at", "project").contains(name)) {
                throw fatal(location, "unknown header field '" + name + "'; the header has format, version, exported_at and project"
                        + (lines && name.equals("scopes") ? " (this looks like a JSON document: name the file .json or use --format json)" : ""), null);
            }
        }
    }

    private void checkFormat(String name, String location) {
        if (!Records.FORMAT.equals(name)) {
            throw fatal(location, "the format is '" + name + "', not '" + Records.FORMAT + "': this is not a forge-memory export", null);
        }
    }

    private void checkVersion(String version, String location) {
        if (!Records.VERSION.equals(version)) {
            throw fatal(location, "format version '" + version + "' is not supported; this forge-memory reads version "
                    + Records.VERSION, null);
        }
    }

    private void expect(JsonParser parser, JsonToken actual, JsonToken expected, String path, String what) {
        if (actual != expected) {
            throw fatal(at(parser) + " (" + path + ")", "'" + path.substring(path.lastIndexOf('.') + 1) + "' must be " + what, null);
        }
    }

    private static String at(JsonParser parser) {
        return line(parser.currentTokenLocation());
    }

    private static String line(JsonLocation location) {
        return location == null || location.getLineNr() < 1 ? "file" : "line " + location.getLineNr();
    }

    private TransferFileException fatal(String location, String message, Throwable cause) {
        return fatal(name, location, message, cause);
    }

    /** {@code in} as UTF-8 text that throws {@link CharacterCodingException} where a byte sequence is not UTF-8. */
    static Reader strictUtf8(InputStream in) {
        return new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT));
    }

    /** The error that ends the import of the input named {@code name}: nothing was imported. */
    static TransferFileException fatal(String name, String location, String message, Throwable cause) {
        TransferProblem problem = new TransferProblem(location, message);
        return new TransferFileException("Cannot import " + name + ": " + clause(problem) + ". Nothing was imported.",
                List.of(problem), cause);
    }

    /** {@code text} without the period that may end it, for a message that goes on after it. */
    public static String clause(Object text) {
        String clause = String.valueOf(text).strip();
        return clause.endsWith(".") ? clause.substring(0, clause.length() - 1) : clause;
    }
}
