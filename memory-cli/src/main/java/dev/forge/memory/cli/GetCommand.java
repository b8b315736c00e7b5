package dev.forge.memory.cli;

import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/** {@code get KEY}: prints a memory's value. */
@Command(name = "get", mixinStandardHelpOptions = true,
        description = {"Print the value stored under KEY (with a newline added if it has none).",
            "With --json, the entry object itself, every field at the top level (key, value, scope, tags, metadata, "
                    + "createdAt, updatedAt, version): the same object set --json prints, so 'get --json | jq -r .value' "
                    + "gives the value.",
            "Exits 1 if there is no such entry."})
final class GetCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Mixin
    EntryArguments target;

    @Override
    public Integer call() {
        try (MemoryProvider memory = cli.open()) {
            MemoryEntry entry = memory.get(target.key, target.scope).orElseThrow(() -> notFound(target.key, target.scope));
            if (cli.json) {
                cli.printJson(Json.entry(entry));
            } else {
                PrintWriter out = cli.out();
                out.print(entry.value());
                if (!entry.value().endsWith("\n")) {
                    out.println();
                }
                out.flush();
            }
        }
        return ExitCodes.OK;
    }

    static EntryNotFoundException notFound(String key, Scope scope) {
        return new EntryNotFoundException("No entry '" + key + "' in scope " + scope.id() + ".");
    }
}
