package dev.forge.memory.cli;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code delete KEY}: removes a memory, its history and its relations. */
@Command(name = "delete", mixinStandardHelpOptions = true,
        description = {"Remove the entry under KEY with its history and relations.", "Exits 1 if there is no such entry."})
final class DeleteCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Parameters(index = "0", paramLabel = "KEY")
    String key;

    @Option(names = "--scope", paramLabel = "S", defaultValue = "project", description = "session, project (default) or global.")
    Scope scope;

    @Override
    public Integer call() {
        try (MemoryProvider memory = cli.open()) {
            if (!memory.delete(key, scope)) {
                throw GetCommand.notFound(key, scope);
            }
        }
        if (cli.json) {
            cli.printJson(Json.ref(new dev.forge.memory.EntryRef(key, scope)).put("deleted", true));
        } else {
            cli.println("Deleted " + scope.id() + ":" + key + ".");
        }
        return ExitCodes.OK;
    }
}
