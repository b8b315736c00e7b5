package dev.forge.memory.cli;

import dev.forge.memory.MemoryProvider;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/** {@code delete KEY}: removes a memory and its relations, and its history unless the provider keeps it. */
@Command(name = "delete", mixinStandardHelpOptions = true,
        description = {"Remove the entry under KEY with its relations, and with its history unless the provider records "
                + "deletions (capability tombstones, as markdown does): there the history stays, ended by the deletion, "
                + "until purge erases it.", "Exits 1 if there is no such entry."})
final class DeleteCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Mixin
    EntryArguments target;

    @Override
    public Integer call() {
        try (MemoryProvider memory = cli.open()) {
            if (!memory.delete(target.key, target.scope)) {
                throw GetCommand.notFound(target.key, target.scope);
            }
        }
        if (cli.json) {
            cli.printJson(Json.ref(new dev.forge.memory.EntryRef(target.key, target.scope)).put("deleted", true));
        } else {
            cli.println("Deleted " + target.scope.id() + ":" + target.key + ".");
        }
        return ExitCodes.OK;
    }
}
