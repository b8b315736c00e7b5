package dev.forge.memory.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.config.Memories;
import dev.forge.memory.config.ResolvedConfig;
import dev.forge.memory.transfer.ExportResult;
import dev.forge.memory.transfer.Exporter;
import dev.forge.memory.transfer.TransferFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code export}: writes the configured provider's memories in the portable format. */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Write every memory of the configured provider (this project's, this session's and the global "
                + "ones), with earlier versions and relations, in the portable forge-memory format "
                + "(docs/export-format.md). The output streams: a store of any size exports in bounded memory.",
            "A file is written under a temporary name and renamed when complete, so it is never left half-written.",
            "A stored entry that cannot be read (a damaged row or file) is left out and named ('Skipped entry "
                    + "project:KEY: ...', or the provider's doctor problems), the rest exported; the export then exits 6.",
            "Prints a summary on stderr ('Exported N entries, H earlier versions, R relations to FILE.'); with --json, "
                    + "{\"provider\", \"out\", \"format\", \"entries\": {scope: n}, \"history_versions\", \"relations\", "
                    + "\"deleted_keys\", \"unreadable_skipped\", \"unreadable\": [{\"location\", \"message\"}], "
                    + "\"source_problems\": [{\"location\", \"problem\"}], \"losses\", \"lossless\", \"seconds\"}, on "
                    + "stdout unless the export itself goes to stdout, then on stderr."})
final class ExportCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Option(names = "--out", paramLabel = "FILE|-", description = "Where to write: a file, or - for stdout (the default).")
    String out = "-";

    @Option(names = "--format", paramLabel = "json|jsonl",
            description = "json (one document) or jsonl (a record a line, for large stores). Default: from the file "
                    + "name (.jsonl, .ndjson), else json.")
    String format;

    @Option(names = "--scope", paramLabel = "SCOPE", description = "Export only this scope (repeatable): session, project, global.")
    List<Scope> scopes = List.of();

    @Option(names = "--no-progress", description = "Draw no progress bar.")
    boolean noProgress;

    @Override
    public Integer call() {
        boolean toStdout = "-".equals(out);
        Path file = toStdout ? null : Path.of(out).toAbsolutePath().normalize();
        TransferFormat chosen = format != null ? TransferFormat.parse(format) : toStdout ? TransferFormat.JSON : TransferFormat.of(file);
        Memories.Builder memories = cli.memories();
        ResolvedConfig resolved = memories.resolve(memories.registry());
        ExportResult result;
        String provider;
        try (MemoryProvider memory = memories.open();
             TransferProgressBar progress = new TransferProgressBar(cli.err(), !noProgress)) {
            provider = memory.name();
            Exporter exporter = Exporter.builder().format(chosen)
                    .scopes(scopes.isEmpty() ? EnumSet.allOf(Scope.class) : EnumSet.copyOf(scopes))
                    .project(resolved.projectId()).progress(progress).build();
            result = toStdout ? exportToStdout(exporter, memory) : exportToFile(exporter, memory, file);
        }
        report(provider, toStdout ? "-" : file.toString(), chosen, result, toStdout);
        // Written, but not all of it: a script taking a backup must notice, as it notices doctor's findings.
        return result.lossless() ? ExitCodes.OK : ExitCodes.PROBLEMS_FOUND;
    }

    private ExportResult exportToStdout(Exporter exporter, MemoryProvider memory) {
        ExportResult result = exporter.export(memory, cli.out());
        if (cli.out().checkError()) {
            throw new CliIoException("The export cannot be written to stdout", new IOException("stdout refused the output"));
        }
        return result;
    }

    private static ExportResult exportToFile(Exporter exporter, MemoryProvider memory, Path file) {
        if (file.getParent() == null || !Files.isDirectory(file.getParent())) {
            throw new CliIoException("The export cannot be written to " + file,
                    new java.nio.file.NoSuchFileException(String.valueOf(file.getParent())));
        }
        return exporter.exportFile(memory, file);
    }

    private void report(String provider, String where, TransferFormat chosen, ExportResult result, boolean toStdout) {
        if (cli.json) {
            ObjectNode document = Json.object();
            document.put("provider", provider);
            document.put("out", where);
            document.put("format", chosen.id());
            ObjectNode entries = document.putObject("entries");
            for (Scope scope : Scope.values()) {
                entries.put(scope.id(), result.entries().get(scope));
            }
            document.put("history_versions", result.historyVersions());
            document.put("relations", result.relations());
            document.put("deleted_keys", result.deletedKeys());
            TransferSummary.skipped(document, "unreadable", result.unreadable(), result.unreadableCount());
            ArrayNode sourceProblems = document.putArray("source_problems");
            for (StoreProblem problem : result.sourceProblems()) {
                sourceProblems.addObject().put("location", problem.location()).put("problem", problem.problem());
            }
            TransferSummary.losses(document, result.losses());
            document.put("seconds", Math.round(result.took().toMillis()) / 1000.0);
            if (toStdout) {
                cli.err().println(Json.pretty(document));
                cli.err().flush();
            } else {
                cli.printJson(document);
            }
            return;
        }
        cli.err().println(String.format(Locale.ROOT, "Exported %d %s, %d earlier %s, %d %s%s from '%s' to %s.",
                result.totalEntries(), result.totalEntries() == 1 ? "entry" : "entries",
                result.historyVersions(), result.historyVersions() == 1 ? "version" : "versions",
                result.relations(), result.relations() == 1 ? "relation" : "relations",
                result.deletedKeys() == 0 ? "" : ", the versions of " + result.deletedKeys() + " deleted key(s)", provider,
                toStdout ? "stdout" : where));
        TransferSummary.skipped(cli.err(), result.unreadable(), result.unreadableCount(), "unreadable entries");
        for (StoreProblem problem : result.sourceProblems()) {
            cli.err().println("Source problem " + ExitCodes.oneLine(problem.toString()));
        }
        TransferSummary.losses(cli.err(), "Not exported: ", result.losses());
        cli.err().flush();
    }
}
