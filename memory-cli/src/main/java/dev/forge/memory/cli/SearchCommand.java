package dev.forge.memory.cli;

import dev.forge.memory.Hit;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.UnsupportedCapabilityException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code search TEXT} or {@code search --batch QUERIES.jsonl}: ranked text search. */
@Command(name = "search", mixinStandardHelpOptions = true,
        description = {"Ranked search for TEXT, one line per hit: score scope key; with --json, "
                + "{\"hits\": [{\"key\", \"scope\", \"score\", \"entry\"}, ...]}, best first.",
            "With --batch, run every query of a JSON Lines file on one provider and write one result line per query, "
                    + "in input order: {\"id\": ..., \"hits\": [{\"key\": ..., \"scope\": ..., \"score\": ...}]}. "
                    + "An input line holds \"id\" and \"text\", optionally \"scope\" or \"scopes\", \"limit\", \"mode\", "
                    + "\"threshold\" and \"tags\"; missing ones take the values of the options. A line with \"relevant\": "
                    + "[keys] is a labelled query: its result gets \"recall\" (the share of those keys among the hits), and "
                    + "the mean recall of all labelled queries is printed on stderr. Every line is checked "
                    + "before anything runs or is written. --json does not change the batch output: it is JSON Lines "
                    + "either way. A file that cannot be written exits 4."})
final class SearchCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Parameters(index = "0", arity = "0..1", paramLabel = "TEXT", description = "What to look for.")
    String text;

    @Option(names = "--batch", paramLabel = "QUERIES", description = "Run the queries of this JSON Lines file ('-': stdin).")
    Path batch;

    @Option(names = "--out", paramLabel = "FILE", description = "With --batch: write the results here instead of stdout.")
    Path out;

    @Option(names = "--scope", paramLabel = "S", description = "A scope to search; repeatable (default: project).")
    List<Scope> scopes = new ArrayList<>();

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "keyword",
            description = "keyword (default), semantic or hybrid; semantic and hybrid need a provider with embeddings.")
    SearchMode mode;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "" + SearchRequest.DEFAULT_LIMIT,
            description = "At most N hits (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--threshold", paramLabel = "X", defaultValue = "0", description = "The lowest score shown, 0 to 1.")
    double threshold;

    @Option(names = "--tag", paramLabel = "T", description = "A tag every hit must carry; repeatable.")
    List<String> tags = new ArrayList<>();

    @Override
    public Integer call() {
        if ((text == null) == (batch == null)) {
            throw new UsageException(text == null ? "Give the TEXT to search for, or --batch QUERIES.jsonl."
                    : "Give either TEXT or --batch QUERIES.jsonl, not both.");
        }
        if (out != null && batch == null) {
            throw new UsageException("--out only goes with --batch.");
        }
        return batch != null ? runBatch() : runOne();
    }

    private int runOne() {
        SearchRequest request = SearchRequest.builder(text)
                .scopes(QueryCommand.scopes(scopes))
                .mode(mode)
                .limit(limit)
                .threshold(threshold)
                .tags(tags)
                .build();
        List<Hit> hits;
        String none = "No matches for '" + text + "' in " + QueryCommand.names(request.scopes()) + ".";
        try (MemoryProvider memory = cli.open()) {
            hits = memory.search(request);
            if (hits.isEmpty() && threshold > 0) {
                none = belowThreshold(memory, request).orElse(none);
            }
        }
        cli.printResults(hits, "hits", Json::hit,
                hit -> String.format(Locale.ROOT, "%.3f %s %s", hit.score(), hit.entry().scope().id(), hit.entry().key()),
                none);
        return ExitCodes.OK;
    }

    /**
     * What to say when the threshold hid every hit: the best score there was, so that a user who copied a threshold
     * from an example (seed 004's 0.8 is above what a semantic score of a small local model reaches) sees why.
     */
    private Optional<String> belowThreshold(MemoryProvider memory, SearchRequest request) {
        SearchRequest unfiltered = SearchRequest.builder(text).scopes(request.scopes()).mode(mode).limit(1).threshold(0)
                .tags(tags).build();
        return memory.search(unfiltered).stream().findFirst().map(best -> String.format(Locale.ROOT,
                "No matches for '%s' at or above the threshold %.3f in %s; the best score was %.3f (%s %s). "
                        + "Scores depend on the mode and the model (docs/RETRIEVAL.md); lower --threshold to see it.",
                text, threshold, QueryCommand.names(request.scopes()), best.score(), best.entry().scope().id(),
                best.entry().key()));
    }

    private int runBatch() {
        BatchSearch.Defaults defaults = new BatchSearch.Defaults(QueryCommand.scopes(scopes), mode, limit, threshold, tags);
        List<BatchSearch.Line> queries = "-".equals(batch.toString())
                ? BatchSearch.read(cli.stdin(), defaults)
                : BatchSearch.read(batch.toAbsolutePath(), defaults);
        List<String> results = new ArrayList<>(queries.size());
        int labelled = 0;
        double recallSum = 0;
        try (MemoryProvider memory = cli.open()) {
            for (BatchSearch.Line query : queries) {
                // Refuse before the first search, so a batch never stops halfway through.
                SearchMode needed = query.request().mode();
                if (!memory.capabilities().contains(needed.requiredCapability())) {
                    throw new UnsupportedCapabilityException(memory.name(), needed.requiredCapability());
                }
            }
            for (BatchSearch.Line query : queries) {
                List<Hit> hits = memory.search(query.request());
                results.add(Json.compact(BatchSearch.result(query, hits)));
                if (query.relevant() != null) {
                    labelled++;
                    recallSum += BatchSearch.recall(query.relevant(), hits);
                }
            }
        }
        if (out == null) {
            results.forEach(cli.out()::println);
            cli.out().flush();
        } else {
            Path file = out.toAbsolutePath();
            BatchSearch.write(file, results);
            cli.err().println("Wrote the results of " + results.size() + (results.size() == 1 ? " query" : " queries")
                    + " to " + file + ".");
            cli.err().flush();
        }
        if (labelled > 0) {
            cli.err().println(String.format(Locale.ROOT, "Mean recall over %d labelled %s: %.3f", labelled,
                    labelled == 1 ? "query" : "queries", recallSum / labelled));
            cli.err().flush();
        }
        return ExitCodes.OK;
    }
}
