package dev.forge.memory.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.transfer.ImportResult;
import dev.forge.memory.transfer.TransferProblem;
import java.io.PrintWriter;
import java.util.List;
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
            skipped(document, "invalid", result.invalid(), result.invalidCount());
            losses(document, result.losses());
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
        skipped(cli.out(), result.invalid(), result.invalidCount(), "invalid records");
        losses(cli.out(), "Not kept: ", result.losses());
        cli.out().flush();
    }

    /** {@code "<what>_skipped": count, "<what>": [{"location", "message"}]}: the records a transfer skipped. */
    static void skipped(ObjectNode document, String what, List<TransferProblem> listed, long count) {
        document.put(what + "_skipped", count);
        ArrayNode array = document.putArray(what);
        for (TransferProblem problem : listed) {
            array.addObject().put("location", problem.location()).put("message", problem.message());
        }
    }

    /** {@code "losses": [...], "lossless": bool}. */
    static void losses(ObjectNode document, List<String> losses) {
        ArrayNode array = document.putArray("losses");
        losses.forEach(array::add);
        document.put("lossless", losses.isEmpty());
    }

    /** A line per skipped record (each on one line, whatever it holds), then how many more were not listed. */
    static void skipped(PrintWriter out, List<TransferProblem> listed, long count, String what) {
        for (TransferProblem problem : listed) {
            out.println("Skipped " + ExitCodes.oneLine(problem.toString()));
        }
        if (count > listed.size()) {
            out.println("... and " + (count - listed.size()) + " more " + what + " skipped.");
        }
    }

    /** A line per loss, after {@code prefix}. */
    static void losses(PrintWriter out, String prefix, List<String> losses) {
        losses.forEach(loss -> out.println(prefix + loss + "."));
    }
}
