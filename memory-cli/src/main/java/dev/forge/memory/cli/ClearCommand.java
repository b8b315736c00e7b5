package dev.forge.memory.cli;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code clear --scope S --yes}: removes every entry of a scope this project can see. */
@Command(name = "clear", mixinStandardHelpOptions = true,
        description = {"Remove every entry of one scope: SESSION this session's, PROJECT this project's, GLOBAL every "
                + "global entry on the backend. Needs --yes. Like delete, it keeps the histories where the provider "
                + "records deletions; purge --all erases them."})
final class ClearCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Option(names = "--scope", paramLabel = "S", required = true, description = "session, project or global.")
    Scope scope;

    @Option(names = "--yes", description = "Confirm: really remove them.")
    boolean yes;

    @Override
    public Integer call() {
        if (!yes) {
            throw new UsageException("clear removes every " + scope.id() + " entry and cannot be undone; "
                    + "add --yes to confirm.");
        }
        int removed;
        try (MemoryProvider memory = cli.open()) {
            removed = memory.clear(scope);
        }
        if (cli.json) {
            cli.printJson(Json.object().put("scope", scope.id()).put("removed", removed));
        } else {
            cli.println("Removed " + removed + (removed == 1 ? " entry" : " entries") + " from scope " + scope.id() + ".");
        }
        return ExitCodes.OK;
    }
}
