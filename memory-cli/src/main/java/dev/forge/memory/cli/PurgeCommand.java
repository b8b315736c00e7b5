package dev.forge.memory.cli;

import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code purge KEY [--scope S]} and {@code purge --all --scope S}: erases keys with every version, for privacy.
 *
 * <p>Not the {@link EntryArguments} mixin of get, delete and history: there KEY is required and {@code --scope}
 * defaults to project, while here KEY is left out with {@code --all}, and {@code --all} must be told its scope.
 */
@Command(name = "purge", mixinStandardHelpOptions = true,
        customSynopsis = {
            "forge-memory purge [OPTIONS] KEY [--scope=S]",
            "   or: forge-memory purge [OPTIONS] --all --scope=S --yes",
        },
        description = {"Erase KEY for good: the entry, every version of its history, the record of its deletion (where "
                + "the provider keeps one) and its relations. Use it to remove "
                + "private data; delete keeps the history where the provider records deletions. Files the provider "
                + "cannot read (listed by doctor) are left alone: remove them by hand.",
            "With --all, erase every key of the scope given with --scope (required), deleted keys included: for session "
                    + "this session's, for project this project's, for global every global key on the backend.",
            "Cannot be undone. A single KEY needs no confirmation (like delete); --all needs --yes (like clear).",
            "With --json, {\"key\", \"scope\", \"purged\": true}, or {\"scope\", \"purged\": N} with --all.",
            "Exits 1 if nothing is stored under KEY, 2 for --all without --scope or --yes, 5 if the provider keeps no "
                    + "history (then delete is all there is)."})
final class PurgeCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "KEY", description = "The key to erase; leave it out with --all.")
    String key;

    // No default: --all must see whether a scope was given.
    @Option(names = "--scope", paramLabel = "S",
            description = "session, project or global; default project for KEY, required with --all.")
    Scope scope;

    @Option(names = "--all", description = "Erase every key of the scope given with --scope.")
    boolean all;

    @Option(names = "--yes", description = "Confirm --all: really erase every key of the scope.")
    boolean yes;

    @Override
    public Integer call() {
        if (all && key != null) {
            throw new ParameterException(spec.commandLine(), "purge takes a KEY or --all, not both.");
        }
        if (all && scope == null) {
            throw new ParameterException(spec.commandLine(), "purge --all erases every key of one scope and needs it "
                    + "named: add --scope session, --scope project or --scope global.");
        }
        if (all && !yes) {
            throw new UsageException("purge --all erases every " + scope.id() + " key with its whole history and cannot "
                    + "be undone; add --yes to confirm.");
        }
        if (!all && key == null) {
            throw new ParameterException(spec.commandLine(), "purge needs a KEY, or --all with --scope.");
        }
        return all ? purgeAll(scope) : purgeKey(key, scope == null ? Scope.PROJECT : scope);
    }

    private int purgeKey(String key, Scope scope) {
        boolean purged;
        try (MemoryProvider memory = cli.open()) {
            purged = memory.requireHistory().purge(key, scope);
        }
        if (!purged) {
            // Like delete: a missing key is "not found", exit 1, one line on stderr.
            throw new EntryNotFoundException("Nothing stored under '" + key + "' in scope " + scope.id()
                    + ": no entry and no history.");
        }
        if (cli.json) {
            cli.printJson(Json.ref(new EntryRef(key, scope)).put("purged", true));
        } else {
            cli.println("Purged key '" + key + "' (" + scope.id() + "): every version is gone.");
        }
        return ExitCodes.OK;
    }

    private int purgeAll(Scope scope) {
        int purged;
        try (MemoryProvider memory = cli.open()) {
            purged = memory.requireHistory().purge(scope);
        }
        if (cli.json) {
            cli.printJson(Json.object().put("scope", scope.id()).put("purged", purged));
        } else {
            cli.println("Purged " + purged + (purged == 1 ? " key" : " keys") + " from scope " + scope.id()
                    + ": every version is gone.");
        }
        return ExitCodes.OK;
    }
}
