package dev.forge.memory.vector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The labelled retrieval set of this module's tests, shared through its test jar: four conversations of 25 short chat
 * turns ({@code retrieval/conversations.txt}, one entry per turn, keyed {@code conversation:NN}) and 42 questions that
 * paraphrase what was said ({@code retrieval/queries.jsonl}), each with the keys of the turns that answer it.
 */
public final class LabelledRetrievalSet {

    /** One labelled question. */
    public record LabelledQuery(String id, String text, Set<String> relevant) {
    }

    private LabelledRetrievalSet() {
    }

    /** The turns, key to text, in order. */
    public static Map<String, String> turns() {
        Map<String, String> turns = new LinkedHashMap<>();
        String conversation = null;
        int turn = 0;
        try (BufferedReader reader = resource("retrieval/conversations.txt")) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                if (line.startsWith("== ")) {
                    conversation = line.substring(3).trim();
                    turn = 0;
                    continue;
                }
                turns.put("%s:%02d".formatted(conversation, ++turn), line.trim());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return turns;
    }

    /** The questions, in file order. */
    public static List<LabelledQuery> queries() {
        ObjectMapper json = new ObjectMapper();
        List<LabelledQuery> queries = new ArrayList<>();
        try (BufferedReader reader = resource("retrieval/queries.jsonl")) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode node = json.readTree(line);
                List<String> relevant = new ArrayList<>();
                node.get("relevant").forEach(key -> relevant.add(key.asText()));
                queries.add(new LabelledQuery(node.get("id").asText(), node.get("text").asText(), Set.copyOf(relevant)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return queries;
    }

    /** The mean over {@code queries} of the share of each question's relevant turns among the first {@code k} hits. */
    public static double meanRecall(MemoryProvider provider, List<LabelledQuery> queries, SearchMode mode, int k) {
        double sum = 0;
        for (LabelledQuery query : queries) {
            List<Hit> hits = provider.search(SearchRequest.builder(query.text()).scopes(Scope.PROJECT).mode(mode)
                    .limit(k).build());
            long found = hits.stream().map(hit -> hit.entry().key()).filter(query.relevant()::contains).count();
            sum += (double) found / query.relevant().size();
        }
        return sum / queries.size();
    }

    private static BufferedReader resource(String name) {
        InputStream in = Objects.requireNonNull(LabelledRetrievalSet.class.getClassLoader().getResourceAsStream(name),
                "test resource " + name);
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }
}
