package dev.forge.memory.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.consolidation.Consolidation;
import dev.forge.memory.context.ContextEntry;
import dev.forge.memory.context.ContextLoader;
import dev.forge.memory.context.ContextPage;
import dev.forge.memory.context.ContextPages;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code context}: the memories of a session as a prompt block under a token budget. */
@Command(name = "context", mixinStandardHelpOptions = true,
        description = {"Print the memories relevant to a session as a markdown prompt block that fits --budget estimated "
                + "tokens (characters / 3.5): one heading per category (metadata 'category', else the key's prefix "
                + "before ':', else the scope), newest first, or most relevant first with --query. What does not fit "
                + "goes on the next page: the footer on stderr says how to get it. Memories with a blank value are left "
                + "out, so a category whose memories are all blank gets no heading.",
            "--consolidate first merges duplicate memories of the scopes in the store, as 'consolidate' does (no "
                + "network), when they hold more than --threshold estimated tokens; stderr says what it did.",
            "With --json, {\"page\", \"pages\", \"tokens\", \"budget\", \"text\", \"entries\": [{\"scope\", \"key\", "
                + "\"category\", \"truncated\"}]}, with --consolidate also \"consolidation\": {\"outcome\", \"reason\", "
                + "\"merged\": [{\"scope\", \"kept\", \"removed\"}]}."})
final class ContextCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Option(names = "--budget", paramLabel = "N", defaultValue = "" + ContextLoader.DEFAULT_BUDGET,
            description = "The most estimated tokens per page (default: ${DEFAULT-VALUE}).")
    int budget;

    @Option(names = "--page", paramLabel = "N", defaultValue = "1", description = "Which page, from 1 (default: 1).")
    int page;

    @Option(names = "--query", paramLabel = "TEXT", description = "Rank by relevance to this text instead of by date.")
    String query;

    @Option(names = "--scope", paramLabel = "S",
            description = "A scope to draw from; repeatable (default: session, project and global).")
    List<Scope> scopes = new ArrayList<>();

    @Option(names = "--consolidate",
            description = "Consolidate the scopes first when they hold more than --threshold tokens (default: off).")
    boolean consolidate;

    @Option(names = "--threshold", paramLabel = "N",
            description = "The consolidation threshold in estimated tokens (default: " + Consolidation.DEFAULT_THRESHOLD + ").")
    Integer threshold;

    @Override
    public Integer call() {
        if (threshold != null && !consolidate) {
            throw new UsageException("--threshold applies to load-time consolidation: add --consolidate, or leave it out.");
        }
        ContextPages pages;
        try (MemoryProvider memory = cli.open()) {
            ContextLoader.Builder builder = ContextLoader.builder().provider(memory).budget(budget);
            if (!scopes.isEmpty()) {
                builder.scopes(scopes.toArray(Scope[]::new));
            }
            if (query != null) {
                builder.query(query);
            }
            if (consolidate) {
                builder.consolidateOver(threshold == null ? Consolidation.DEFAULT_THRESHOLD : threshold);
            }
            pages = builder.build().load();
        }
        ContextPage shown = pages.page(page);
        if (cli.json) {
            ObjectNode out = Json.object();
            out.put("page", shown.number()).put("pages", shown.pageCount()).put("tokens", shown.tokens())
                    .put("budget", pages.budget()).put("text", shown.text());
            ArrayNode entries = out.putArray("entries");
            for (ContextEntry entry : shown.entries()) {
                entries.addObject().put("scope", entry.entry().scope().id()).put("key", entry.entry().key())
                        .put("category", entry.category()).put("truncated", entry.truncated());
            }
            pages.consolidation().ifPresent(report -> ConsolidateCommand.groups(out.putObject("consolidation")
                    .put("outcome", report.outcome().name().toLowerCase(java.util.Locale.ROOT)).put("reason", report.reason())
                    .putArray("merged"), report.merged()));
            cli.printJson(out);
            return ExitCodes.OK;
        }
        cli.out().print(shown.text());
        if (!shown.text().endsWith("\n")) {
            cli.out().println();
        }
        cli.out().flush();
        pages.consolidation().ifPresent(report -> cli.err().println("Consolidation: " + ExitCodes.oneLine(report.reason())));
        if (shown.isEmpty()) {
            cli.err().println("No memories to show.");
        } else {
            cli.err().println("Page " + shown.number() + " of " + shown.pageCount() + " (" + shown.tokens() + " of "
                    + pages.budget() + " tokens)." + (shown.hasNext() ? " Next: --page " + (shown.number() + 1) : ""));
        }
        cli.err().flush();
        return ExitCodes.OK;
    }
}
