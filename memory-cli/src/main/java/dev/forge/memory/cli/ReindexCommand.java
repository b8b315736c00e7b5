package dev.forge.memory.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Reindexing;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code reindex}: rebuilds the provider's vectors and search indexes from the stored entries. */
@Command(name = "reindex", mixinStandardHelpOptions = true,
        description = {"Rebuild the configured provider's derived indexes (vectors, full-text) from the entries it "
                + "stores, with the embedding model configured now. Run it after changing the embedding model: a "
                + "provider refuses to open an index built by another model until it is rebuilt.",
            "Entries are not changed. Every project and session of the store is reindexed. A progress bar is drawn "
                    + "on stderr unless --no-progress is given.",
            "Prints 'Reindexed N entries with model FINGERPRINT in S s.'; with --json, "
                    + "{\"provider\", \"entries\", \"fingerprint\", \"seconds\"}.",
            "Exits 5 if the provider has nothing to reindex (no REINDEX capability)."})
final class ReindexCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Option(names = "--no-progress", description = "Draw no progress bar.")
    boolean noProgress;

    @Override
    public Integer call() {
        String provider;
        Reindexing.ReindexResult result;
        try (MemoryProvider memory = cli.memories().openForReindex(true).open()) {
            provider = memory.name();
            Reindexing reindexing = memory.requireReindexing();
            try (ProgressReport progress = ProgressReport.on(cli.err(), "Reindexing", !noProgress)) {
                result = reindexing.reindex(progress::update);
            }
        }
        double seconds = result.took().toNanos() / 1e9;
        if (cli.json) {
            ObjectNode document = Json.object();
            document.put("provider", provider);
            document.put("entries", result.entries());
            document.put("fingerprint", result.fingerprint());
            document.put("seconds", Math.round(seconds * 1000) / 1000.0);
            cli.printJson(document);
        } else {
            cli.println(String.format(Locale.ROOT, "Reindexed %d %s with %s in %.1f s.", result.entries(),
                    result.entries() == 1 ? "entry" : "entries",
                    result.fingerprint().isEmpty() ? "no embedding model" : "model " + result.fingerprint(), seconds));
        }
        return ExitCodes.OK;
    }
}
