package dev.forge.memory.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.lifecycle.PluginMemory;
import dev.forge.memory.lifecycle.PruneAction;
import dev.forge.memory.lifecycle.PruneReport;
import dev.forge.memory.lifecycle.PruneRequest;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code prune}: applies the plugin memory pruning rules to the layered documents. */
@Command(name = "prune", mixinStandardHelpOptions = true,
        description = {"Apply the pruning rules to the plugin memory documents (layered keys such as "
                + "skills/python-code-review/my-api/review_history), one 'ACTION KEY: REASON' line each:",
            "  review_history keeps its 10 newest '## Review' sections and moves older ones, verbatim, to "
                + "review_history_archive beside it;",
            "  known_issues removes issues resolved 30 or more days ago, keeps those in progress, and tags "
                + "[VERIFY STATUS] on those without a status update for 90 days;",
            "  test_results_history keeps 15 sessions and folds older ones into a 'Historical Summary' section.",
            "Then the documents over their size limit, as warnings. --dry-run says what would be done and writes nothing.",
            "With --json, {\"dry_run\", \"examined\", \"actions\": [{\"key\", \"action\", \"reason\"}], \"warnings\": [...]}."})
final class PruneCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Option(names = "--dry-run", description = "Report what would be pruned; change nothing.")
    boolean dryRun;

    @Option(names = "--project-name", paramLabel = "NAME",
            description = "Only the documents of this plugin project (the {project} of the keys; --project is the directory).")
    String project;

    @Option(names = "--skill", paramLabel = "NAME", description = "Only the documents of this skill.")
    String skill;

    @Option(names = "--scope", paramLabel = "S", defaultValue = "project",
            description = "The scope the documents are kept in (default: project).")
    Scope scope;

    @Override
    public Integer call() {
        PruneRequest request = new PruneRequest(Optional.ofNullable(project), Optional.ofNullable(skill), dryRun);
        PruneReport report;
        try (MemoryProvider memory = cli.open()) {
            report = PluginMemory.builder(memory).scope(scope).build().prune(request);
        }
        if (cli.json) {
            ObjectNode out = Json.object();
            out.put("dry_run", report.dryRun()).put("examined", report.examined());
            ArrayNode actions = out.putArray("actions");
            for (PruneAction action : report.actions()) {
                actions.addObject().put("key", action.key().key()).put("action", action.kind().name().toLowerCase(java.util.Locale.ROOT))
                        .put("reason", action.reason());
            }
            ArrayNode warnings = out.putArray("warnings");
            report.warnings().forEach(warnings::add);
            cli.printJson(out);
            return ExitCodes.OK;
        }
        for (PruneAction action : report.actions()) {
            cli.out().println(action.kind() + " " + ExitCodes.oneLine(action.key().key()) + ": " + ExitCodes.oneLine(action.reason()));
        }
        for (String warning : report.warnings()) {
            cli.out().println("WARNING " + ExitCodes.oneLine(warning));
        }
        String summary = report.actions().isEmpty() ? "Nothing to prune" : (dryRun ? "Would apply " : "Applied ")
                + report.actions().size() + " action(s)";
        cli.out().println(summary + " in " + report.examined() + " document(s)" + (dryRun ? "; dry run, nothing written." : "."));
        cli.out().flush();
        return ExitCodes.OK;
    }
}
