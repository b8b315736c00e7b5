package dev.forge.memory.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.consolidation.Consolidation;
import dev.forge.memory.consolidation.ConsolidationReport;
import dev.forge.memory.consolidation.Consolidator;
import dev.forge.memory.consolidation.DeterministicConsolidator;
import dev.forge.memory.openai.OpenAiChatConsolidator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code consolidate}: merges duplicate memories once a scope holds more than a threshold. */
@Command(name = "consolidate", mixinStandardHelpOptions = true,
        description = {"Merge exact and near-duplicate memories once the scopes hold more than --threshold estimated "
                + "tokens (characters / 3.5). The newest memory of a group is kept; it records the others in its "
                + "'supersedes' metadata (key, value, tags, times) before they are deleted, so nothing is lost. Plugin "
                + "memory documents (layered keys) are never merged: 'prune' keeps them in shape.",
            "With --llm-model, an OpenAI-compatible chat model plans the merges instead (key from "
                + "$FORGE_CONSOLIDATION_API_KEY); if it fails or answers nonsense, nothing is changed and the command exits 4.",
            "--dry-run shows the plan and writes nothing.",
            "With --json, {\"outcome\", \"reason\", \"dry_run\", \"tokens\", \"threshold\", \"merged\": [{\"scope\", \"kept\", "
                + "\"removed\"}], \"skipped\": [{..., \"note\"}], \"removed\": [{\"scope\", \"key\"}]}."})
final class ConsolidateCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Option(names = "--dry-run", description = "Show what would be merged; change nothing.")
    boolean dryRun;

    @Option(names = "--scope", paramLabel = "S", description = "A scope to consolidate; repeatable (default: project).")
    List<Scope> scopes = new ArrayList<>();

    @Option(names = "--threshold", paramLabel = "TOKENS", defaultValue = "" + Consolidation.DEFAULT_THRESHOLD,
            description = "Consolidate only above this many estimated tokens (default: ${DEFAULT-VALUE}; 0: always).")
    int threshold;

    @Option(names = "--similarity", paramLabel = "X", defaultValue = "" + DeterministicConsolidator.DEFAULT_THRESHOLD,
            description = "How alike two values must be to merge, 0 to 1 (word-shingle Jaccard; default: ${DEFAULT-VALUE}).")
    double similarity;

    @Option(names = "--llm-model", paramLabel = "MODEL", description = "Plan the merges with this chat model.")
    String llmModel;

    @Option(names = "--llm-url", paramLabel = "URL", description = "The OpenAI-compatible base URL (default: "
            + OpenAiChatConsolidator.Settings.DEFAULT_URL + ").")
    String llmUrl;

    @Override
    public Integer call() {
        if (llmUrl != null && llmModel == null) {
            throw new UsageException("--llm-url needs --llm-model: say which chat model plans the merges.");
        }
        ConsolidationReport report;
        try (MemoryProvider memory = cli.open(); OpenAiChatConsolidator llm = llmModel == null ? null
                : OpenAiChatConsolidator.open(OpenAiChatConsolidator.Settings.of(llmUrl, llmModel))) {
            Consolidator consolidator = llm != null ? llm
                    : DeterministicConsolidator.create(similarity, DeterministicConsolidator.DEFAULT_SHINGLE);
            report = Consolidation.builder().provider(memory).scopes(QueryCommand.scopes(scopes).toArray(Scope[]::new))
                    .consolidator(consolidator).threshold(threshold).dryRun(dryRun).build().run();
        }
        if (report.outcome() == ConsolidationReport.Outcome.REJECTED) {
            throw new CommandFailedException(report.reason());
        }
        if (report.outcome() == ConsolidationReport.Outcome.PARTIAL) {
            throw new CommandFailedException(report.merged().size() + " group(s) were merged before the run failed, the "
                    + "rest were not (nothing is lost: run again): " + report.reason());
        }
        if (cli.json) {
            ObjectNode out = Json.object();
            out.put("outcome", report.outcome().name().toLowerCase(Locale.ROOT)).put("reason", report.reason())
                    .put("dry_run", report.dryRun()).put("tokens", report.tokens()).put("threshold", report.threshold());
            groups(out.putArray("merged"), report.merged());
            groups(out.putArray("skipped"), report.skipped());
            ArrayNode removed = out.putArray("removed");
            for (EntryRef ref : report.removed()) {
                removed.addObject().put("scope", ref.scope().id()).put("key", ref.key());
            }
            cli.printJson(out);
            return ExitCodes.OK;
        }
        String verb = report.dryRun() ? "WOULD MERGE " : "MERGED ";
        for (ConsolidationReport.Group group : report.merged()) {
            cli.out().println(verb + group.scope().id() + " " + ExitCodes.oneLine(group.kept()) + " <- "
                    + String.join(", ", group.removed().stream().map(ExitCodes::oneLine).toList()));
        }
        for (ConsolidationReport.Group group : report.skipped()) {
            cli.out().println("SKIPPED " + group.scope().id() + " " + ExitCodes.oneLine(group.kept()) + ": "
                    + ExitCodes.oneLine(group.note()));
        }
        cli.out().println(ExitCodes.oneLine(report.reason()) + " (" + report.tokens() + " estimated tokens, threshold "
                + report.threshold() + ")");
        cli.out().flush();
        return ExitCodes.OK;
    }

    /** The groups as JSON objects {"scope", "kept", "removed", "note" (when skipped)} in {@code array}. */
    static void groups(ArrayNode array, List<ConsolidationReport.Group> groups) {
        for (ConsolidationReport.Group group : groups) {
            ObjectNode node = array.addObject().put("scope", group.scope().id()).put("kept", group.kept());
            ArrayNode removed = node.putArray("removed");
            group.removed().forEach(removed::add);
            if (!group.note().isEmpty()) {
                node.put("note", group.note());
            }
        }
    }
}
