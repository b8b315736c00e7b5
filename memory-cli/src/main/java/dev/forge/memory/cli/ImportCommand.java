package dev.forge.memory.cli;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.transfer.ConflictPolicy;
import dev.forge.memory.transfer.ImportResult;
import dev.forge.memory.transfer.Importer;
import dev.forge.memory.transfer.TransferFormat;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code import}: reads an export into the configured provider. */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = {"Read a forge-memory export (docs/export-format.md), or seed 004's export file, into the configured provider, keeping "
                + "versions, timestamps, earlier versions and relations wherever the provider can hold them; what it "
                + "cannot hold is counted and reported ('Not kept: ...'), never dropped silently.",
            "The input is read through once and checked before anything is written: a truncated file, a wrong "
                    + "format or version, a duplicate key, an invalid key or scope stops the import with the line (and "
                    + "JSON path) of each problem, and nothing is imported (exit 7), unless --skip-invalid is given: then "
                    + "the valid records are imported and each skipped one is reported.",
            "The official MCP memory server's memory.jsonl is told from its content too: its entities and relations go "
                    + "into the global scope (docs/mcp-compatibility.md), and its invalid lines are always skipped and "
                    + "reported, the rest imported.",
            "Importing the same file again changes nothing. Entries move into this project and this session. Fields the "
                    + "input leaves out (created_at, updated_at, version, tags, metadata) get defaults, counted in the summary.",
            "Prints a summary; with --json {\"from\", \"provider\", \"created\", \"overwritten\", \"unchanged\", \"skipped\", "
                    + "\"history_versions\", \"history_versions_dropped\", \"timestamps_not_kept\", \"relations\", "
                    + "\"relations_dropped\", \"relation_times_not_kept\", \"deleted_keys\", \"deleted_keys_dropped\", \"source_problems\", \"defaulted\": {FIELD: N}, \"invalid_skipped\", \"invalid\": [{\"location\", \"message\"}], \"losses\", "
                    + "\"lossless\", \"seconds\"}."})
final class ImportCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Parameters(index = "0", paramLabel = "FILE|-", description = "The export to read, or - for stdin.")
    String file;

    @Option(names = "--on-conflict", paramLabel = "overwrite|skip|newer", defaultValue = "overwrite",
            description = "A key the provider already holds: overwrite it (default), skip it, or take the newer by updated_at.")
    String onConflict;

    @Option(names = "--format", paramLabel = "json|jsonl", description = "The input's format. Default: told from the "
            + "content (a JSON document, or JSON Lines).")
    String format;

    @Option(names = "--skip-invalid", description = "Import the valid records and report each invalid one, instead of importing nothing.")
    boolean skipInvalid;

    @Option(names = "--no-progress", description = "Draw no progress bar.")
    boolean noProgress;

    @Override
    public Integer call() {
        ConflictPolicy policy = ConflictPolicy.parse(onConflict);
        boolean stdin = "-".equals(file);
        Path path = stdin ? null : Path.of(file).toAbsolutePath().normalize();
        ImportResult result;
        try (MemoryProvider memory = cli.open();
             TransferProgressBar progress = new TransferProgressBar(cli.err(), !noProgress)) {
            Importer importer = Importer.builder().conflictPolicy(policy).skipInvalid(skipInvalid).progress(progress).build();
            if (format == null) {
                result = stdin ? importer.importStream(cli.stdin(), memory) : importer.importFile(path, memory);
            } else {
                TransferFormat chosen = TransferFormat.parse(format);
                result = stdin ? importer.importStream(cli.stdin(), chosen, memory) : importer.importFile(path, chosen, memory);
            }
        }
        TransferSummary.print(cli, "Imported", stdin ? "stdin" : path.toString(), result);
        return ExitCodes.OK;
    }
}
