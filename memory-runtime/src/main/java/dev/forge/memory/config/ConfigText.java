package dev.forge.memory.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Keys;
import dev.forge.memory.support.files.LimitedText;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads and parses a config file within fixed bounds, so that a hostile or mistaken file (a cloned repository's
 * {@code .forge/config.yaml} of a few MB, a named pipe, a device) costs a bounded read and a bounded parse, and is
 * refused with a {@link ConfigurationException} naming the file.
 *
 * <p>The bounds: at most {@link #MAX_BYTES} bytes ({@link LimitedText}: refused by the file's size before anything is
 * read, and read no further than one byte past the limit where the size is unknown); the same limit on code points for the YAML
 * parser; nesting at most {@link #MAX_DEPTH} deep; no aliases. SnakeYAML's reader copies its window for every
 * 1,024 characters of one token, so a single long token costs time in the square of its length: the byte limit is
 * what keeps the worst case small (a file that is one {@value #MAX_BYTES}-byte token parses in a fraction of a second).
 */
final class ConfigText {

    /**
     * The largest config file, in bytes: 256 KiB. A forge-memory config is a few hundred bytes; this leaves room for
     * other tools' sections in a shared file.
     */
    static final int MAX_BYTES = 256 * 1024;

    /** The deepest nesting of maps and lists: settings are a few levels deep. */
    static final int MAX_DEPTH = 64;

    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .loaderOptions(loaderOptions())
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_DEPTH)
                    .maxStringLength(MAX_BYTES)
                    .maxNumberLength(1_000)
                    .build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL)
            .build());

    private ConfigText() {
    }

    /**
     * Jackson drives SnakeYAML's parser, not its composer, so of SnakeYAML's limits only the code point limit applies
     * (nesting and alias limits are the composer's): nesting is bounded by Jackson's {@link StreamReadConstraints},
     * duplicate keys by {@link StreamReadFeature#STRICT_DUPLICATE_DETECTION}, aliases by {@link #parse}.
     */
    private static LoaderOptions loaderOptions() {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(MAX_BYTES);
        return options;
    }

    /**
     * The text of {@code path}, if it exists.
     *
     * @throws ConfigurationException if it is over {@link #MAX_BYTES}, not UTF-8, or cannot be read
     */
    static Optional<String> read(Path path) {
        try {
            return Optional.of(LimitedText.read(path, MAX_BYTES));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (LimitedText.TooLargeException e) {
            throw tooLarge(path, e.describeSize());
        } catch (CharacterCodingException e) {
            throw new ConfigurationException(path + ": not UTF-8 text. Save the file as UTF-8.", path.toString(), null, e);
        } catch (IOException e) {
            throw new ConfigurationException(path + ": cannot be read (" + e.getMessage() + "). Check its permissions.",
                    path.toString(), null, e);
        }
    }

    private static ConfigurationException tooLarge(Path path, String size) {
        return new ConfigurationException(path + ": the file is " + size + "; a config file may be at most " + MAX_BYTES
                + " bytes (256 KiB). Check that it is the right file, and keep large data out of it.", path.toString(), null, null);
    }

    /**
     * Parses YAML text within the bounds: a document of maps, lists and scalars, or null for an empty one.
     *
     * @param source the file the text came from, for messages
     * @throws ConfigurationException for malformed YAML (with line and column), text over the bounds, or an alias
     */
    static Object parse(String text, String source) {
        if (text.isBlank()) {
            return null;
        }
        // Two passes: the first sees each token's alias flag, which a binding to maps and lists loses. Copying the
        // tokens instead (TokenBuffer) asks for number values the binding never asks for, and fails on YAML's .nan.
        try (JsonParser parser = YAML.createParser(text)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                if (((YAMLParser) parser).isCurrentAlias()) {
                    JsonLocation at = parser.currentTokenLocation();
                    throw new ConfigurationException(source + ":" + at.getLineNr() + ":" + at.getColumnNr() + ": YAML aliases (*"
                            + Keys.abbreviate(String.valueOf(parser.getText())) + ") are not supported in a forge-memory "
                            + "config file; write the value out.", source, null, null);
                }
            }
            return YAML.readValue(text, Object.class);
        } catch (JsonProcessingException e) {
            throw malformed(source, e);
        } catch (IOException e) {
            throw new ConfigurationException(source + ": cannot be parsed (" + e.getMessage() + ").", source, null, e);
        }
    }

    /** One line, with the position where the parser found the problem, never quoting the file's text. */
    private static ConfigurationException malformed(String source, JsonProcessingException e) {
        Throwable cause = e.getCause();
        String position;
        String problem;
        if (cause instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
            // Unclosed constructs are noticed far from where they start: point at the start, say where it ended.
            Mark at = marked.getContextMark() != null ? marked.getContextMark() : marked.getProblemMark();
            position = ":" + (at.getLine() + 1) + ":" + (at.getColumn() + 1);
            problem = marked.getProblem();
            if (marked.getContextMark() != null && marked.getContext() != null) {
                problem = marked.getContext() + ", " + problem + " (line " + (marked.getProblemMark().getLine() + 1)
                        + ", column " + (marked.getProblemMark().getColumn() + 1) + ")";
            }
        } else {
            JsonLocation where = e.getLocation();
            position = where == null ? "" : ":" + where.getLineNr() + ":" + where.getColumnNr();
            problem = e.getOriginalMessage();
        }
        problem = problem == null ? "unreadable" : problem.lines().findFirst().orElse("unreadable").trim();
        String hint = problem.contains("escape") ? " (in double quotes a backslash starts an escape: write Windows paths in single quotes or with /)" : "";
        return new ConfigurationException(source + position + ": malformed YAML: " + problem + hint + ".", source, null, e);
    }
}
