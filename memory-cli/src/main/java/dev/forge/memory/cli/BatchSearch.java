package dev.forge.memory.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.Hit;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.spi.Suggestions;
import dev.forge.memory.support.files.LimitedText;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code search --batch}: the JSON Lines query format, checked line by line before anything runs, and the result
 * format. Made for evaluation runs: one query per line in, one result per line out, in the same order.
 */
final class BatchSearch {

    /** The fields an input line may have. */
    static final Set<String> FIELDS = Set.of("id", "text", "scope", "scopes", "limit", "mode", "threshold", "tags",
            "relevant");

    private BatchSearch() {
    }

    /** What a line's missing fields default to: the command's options. */
    record Defaults(Set<Scope> scopes, SearchMode mode, int limit, double threshold, List<String> tags) {
    }

    /**
     * One checked input line.
     *
     * @param relevant the keys a perfect search finds (a labelled query), or null if the line has no labels
     */
    record Line(int number, String id, SearchRequest request, List<String> relevant) {
    }

    /**
     * The most a queries file (or stdin) may hold: 64 MiB, a few hundred thousand queries. The whole input is checked
     * before any search runs, so it is held in memory; an endless stdin or a huge file stops here instead.
     */
    static final long MAX_INPUT_BYTES = 64L * 1024 * 1024;

    /** Reads and checks a queries file. */
    static List<Line> read(Path file, Defaults defaults) {
        String text;
        try {
            text = LimitedText.read(file, MAX_INPUT_BYTES);
        } catch (NoSuchFileException e) {
            throw new UsageException("The queries file " + file + " does not exist.", e);
        } catch (LimitedText.TooLargeException e) {
            throw tooLarge(file.toString(), e);
        } catch (CharacterCodingException e) {
            throw new UsageException("The queries file " + file + " is not UTF-8 text.", e);
        } catch (IOException e) {
            throw new UsageException("The queries file " + file + " cannot be read: " + e.getMessage() + ".", e);
        }
        return parse(text, file.toString(), defaults);
    }

    /** Reads and checks queries from {@code stdin}. */
    static List<Line> read(InputStream stdin, Defaults defaults) {
        String text;
        try {
            text = LimitedText.read(stdin, MAX_INPUT_BYTES);
        } catch (LimitedText.TooLargeException e) {
            throw tooLarge("stdin", e);
        } catch (CharacterCodingException e) {
            throw new UsageException("The queries on stdin are not UTF-8 text.", e);
        } catch (IOException e) {
            throw new UsageException("stdin cannot be read: " + e.getMessage() + ".", e);
        }
        return parse(text, "stdin", defaults);
    }

    private static UsageException tooLarge(String source, LimitedText.TooLargeException e) {
        return new UsageException("The queries in " + source + " are " + e.describeSize() + ", over the limit of "
                + MAX_INPUT_BYTES + " bytes of a batch. Split them into several files.", e);
    }

    /**
     * Checks every line; blank lines are skipped but counted.
     *
     * @throws UsageException naming {@code source} and the line number of the first bad line
     */
    static List<Line> parse(String text, String source, Defaults defaults) {
        List<Line> lines = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        Iterator<String> iterator = text.lines().iterator();
        int number = 0;
        while (iterator.hasNext()) {
            String raw = iterator.next();
            number++;
            if (raw.isBlank()) {
                continue;
            }
            Line line = parseLine(raw, number, source, defaults);
            Integer earlier = seen.putIfAbsent(line.id(), number);
            if (earlier != null) {
                throw bad(source, number, "the id '" + line.id() + "' was already used on line " + earlier);
            }
            lines.add(line);
        }
        return lines;
    }

    private static Line parseLine(String raw, int number, String source, Defaults defaults) {
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(raw);
        } catch (JsonProcessingException e) {
            throw bad(source, number, "not valid JSON (" + e.getOriginalMessage() + ")");
        }
        if (!(node instanceof ObjectNode object)) {
            throw bad(source, number, "expected a JSON object such as {\"id\": \"q1\", \"text\": \"...\"}");
        }
        for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                String suggestion = Suggestions.closest(name, FIELDS).map(s -> " Did you mean '" + s + "'?").orElse("");
                throw bad(source, number, "unknown field '" + name + "'." + suggestion
                        + " Known fields: " + String.join(", ", new TreeSet<>(FIELDS)));
            }
        }
        String id = requiredText(object, "id", source, number);
        String text = requiredText(object, "text", source, number);
        if (object.has("scope") && object.has("scopes")) {
            throw bad(source, number, "give either 'scope' or 'scopes', not both");
        }
        Set<Scope> scopes = defaults.scopes();
        if (object.has("scope")) {
            scopes = EnumSet.of(scope(optionalText(object, "scope", source, number), source, number));
        } else if (object.has("scopes")) {
            List<String> names = textList(object, "scopes", source, number);
            if (names.isEmpty()) {
                throw bad(source, number, "'scopes' must name at least one scope");
            }
            scopes = EnumSet.noneOf(Scope.class);
            for (String name : names) {
                scopes.add(scope(name, source, number));
            }
        }
        int limit = defaults.limit();
        if (object.has("limit")) {
            JsonNode value = object.get("limit");
            if (!value.isIntegralNumber() || !value.canConvertToInt()) {
                throw bad(source, number, "'limit' must be a whole number, was " + value);
            }
            limit = value.intValue();
        }
        SearchMode mode = defaults.mode();
        if (object.has("mode")) {
            String name = optionalText(object, "mode", source, number);
            try {
                mode = SearchMode.valueOf(name.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw bad(source, number, "unknown mode '" + name + "': use keyword, semantic or hybrid");
            }
        }
        double threshold = defaults.threshold();
        if (object.has("threshold")) {
            JsonNode value = object.get("threshold");
            if (!value.isNumber()) {
                throw bad(source, number, "'threshold' must be a number from 0 to 1, was " + value);
            }
            threshold = value.doubleValue();
        }
        List<String> tags = object.has("tags") ? textList(object, "tags", source, number) : defaults.tags();
        List<String> relevant = null;
        if (object.has("relevant")) {
            relevant = List.copyOf(new java.util.LinkedHashSet<>(textList(object, "relevant", source, number)));
            if (relevant.isEmpty()) {
                throw bad(source, number, "'relevant' must name at least one key (leave it out for an unlabelled query)");
            }
        }
        try {
            SearchRequest request = SearchRequest.builder(text).scopes(scopes).mode(mode).limit(limit)
                    .threshold(threshold).tags(tags).build();
            return new Line(number, id, request, relevant);
        } catch (InvalidRequestException e) {
            throw bad(source, number, e.getMessage());
        }
    }

    private static String requiredText(ObjectNode object, String field, String source, int number) {
        if (!object.has(field)) {
            throw bad(source, number, "'" + field + "' is missing");
        }
        String text = optionalText(object, field, source, number);
        if (text.isEmpty()) {
            throw bad(source, number, "'" + field + "' is empty");
        }
        return text;
    }

    private static String optionalText(ObjectNode object, String field, String source, int number) {
        JsonNode value = object.get(field);
        if (!value.isTextual()) {
            throw bad(source, number, "'" + field + "' must be a string, was " + value);
        }
        return value.textValue();
    }

    private static List<String> textList(ObjectNode object, String field, String source, int number) {
        JsonNode value = object.get(field);
        if (!value.isArray()) {
            throw bad(source, number, "'" + field + "' must be a list of strings, was " + value);
        }
        List<String> texts = new ArrayList<>();
        for (JsonNode item : value) {
            if (!item.isTextual()) {
                throw bad(source, number, "'" + field + "' must be a list of strings, but holds " + item);
            }
            texts.add(item.textValue());
        }
        return texts;
    }

    private static Scope scope(String name, String source, int number) {
        try {
            return Scope.parse(name);
        } catch (InvalidRequestException e) {
            throw bad(source, number, e.getMessage());
        }
    }

    private static UsageException bad(String source, int number, String problem) {
        String sentence = problem.endsWith(".") ? problem : problem + ".";
        return new UsageException(source + ":" + number + ": " + sentence + " Nothing was run.");
    }

    /** One output line's document; with labels, also the query's recall. */
    static ObjectNode result(Line line, List<Hit> hits) {
        ObjectNode node = Json.object();
        node.put("id", line.id());
        ArrayNode array = node.putArray("hits");
        hits.forEach(hit -> array.add(Json.hitSummary(hit)));
        if (line.relevant() != null) {
            node.put("recall", recall(line.relevant(), hits));
        }
        return node;
    }

    /** The share of {@code relevant} keys among the keys of {@code hits} (in any scope). */
    static double recall(List<String> relevant, List<Hit> hits) {
        Set<String> found = new java.util.HashSet<>();
        hits.forEach(hit -> found.add(hit.entry().key()));
        long matched = relevant.stream().filter(found::contains).count();
        return (double) matched / relevant.size();
    }

    /** Writes the lines to {@code file} all at once: a reader never sees half the results. */
    static void write(Path file, List<String> lines) {
        Path directory = file.getParent();
        Path temporary = null;
        try {
            Files.createDirectories(directory);
            temporary = Files.createTempFile(directory, "." + file.getFileName(), ".tmp");
            Files.write(temporary, lines, StandardCharsets.UTF_8);
            try {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            if (temporary != null) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException ignored) {
                    // the original failure is the one worth reporting
                }
            }
            throw new CliIoException("The results cannot be written to " + file, e);
        }
    }
}
