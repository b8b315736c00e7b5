package dev.forge.memory.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.transfer.ImportResult;
import dev.forge.memory.transfer.TransferProblem;
import java.util.Locale;

/** How import and migrate report an {@link ImportResult}: lines for people, one JSON object for scripts. */
final class TransferSummary {

    private TransferSummary() {
    }

    /** Prints the summary on stdout: text, or with --json one object. */
    static void print(ForgeMemoryCommand cli, String verb, String from, ImportResult result) {
        if (cli.json) {
            ObjectNode document = Json.object();
            document.put("from", from);
            document.put("provider", result.target());
            document.put("created", result.created());
            document.put("overwritten", result.overwritten());
            document.put("unchanged", result.unchanged());
            document.put("skipped", result.skipped());
            document.put("history_versions", result.historyVersionsWritten());
            document.put("history_versions_dropped", result.historyVersionsDropped());
            document.put("timestamps_not_kept", result.timestampsNotKept());
            document.put("relations", result.relationsWritten());
            document.put("relations_dropped", result.relationsDropped());
            document.put("relation_times_not_kept", result.relationTimesNotKept());
            document.put("deleted_keys", result.deletedKeysKept());
            document.put("deleted_keys_dropped", result.deletedKeysDropped());
            document.put("source_problems", result.sourceProblems());
            ObjectNode defaulted = document.putObject("defaulted");
            result.defaulted().forEach(defaulted::put);
            document.put("invalid_skipped", result.invalidCount());
            ArrayNode invalid = document.putArray("invalid");
            for (TransferProblem problem : result.invalid()) {
                invalid.addObject().put("location", problem.location()).put("message", problem.message());
            }
            ArrayNode losses = document.putArray("losses");
            result.losses().forEach(losses::add);
            document.put("lossless", result.lossless());
            document.put("seconds", result.took().toMillis() / 1000.0);
            cli.printJson(document);
            return;
        }
        cli.println(String.format(Locale.ROOT, "%s %d %s from %s into '%s': %d created, %d overwritten, %d unchanged, "
                        + "%d skipped (existing); %d earlier %s, %d %s; %.1f s.", verb, result.entries(),
                result.entries() == 1 ? "entry" : "entries", from, result.target(), result.created(), result.overwritten(),
                result.unchanged(), result.skipped(), result.historyVersionsWritten(),
                result.historyVersionsWritten() == 1 ? "version" : "versions", result.relationsWritten(),
                result.relationsWritten() == 1 ? "relation" : "relations", result.took().toMillis() / 1000.0));
        if (result.deletedKeysKept() > 0) {
            cli.println("Kept the histories of " + result.deletedKeysKept() + " deleted key(s), deleted again.");
        }
        if (!result.defaulted().isEmpty()) {
            StringBuilder line = new StringBuilder("Defaulted (not in the input): ");
            result.defaulted().forEach((field, count) -> line.append(field).append(" in ").append(count).append(" version(s), "));
            cli.println(line.substring(0, line.length() - 2) + ".");
        }
        for (TransferProblem problem : result.invalid()) {
            cli.println("Skipped " + problem);
        }
        if (result.invalidCount() > result.invalid().size()) {
            cli.println("... and " + (result.invalidCount() - result.invalid().size()) + " more invalid records skipped.");
        }
        for (String loss : result.losses()) {
            cli.println("Not kept: " + loss + ".");
        }
    }
}
