package dev.forge.memory.cli;

import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code relate FROM TO TYPE}: a typed, directed relation between two entries. */
@Command(name = "relate", mixinStandardHelpOptions = true,
        description = {"Relate entry FROM to entry TO with TYPE (a letter, then letters, digits or _; case-sensitive).",
            "Both entries must exist (else exit 1); the provider needs the graph capability (else exit 5)."})
final class RelateCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Parameters(index = "0", paramLabel = "FROM")
    String from;

    @Parameters(index = "1", paramLabel = "TO")
    String to;

    @Parameters(index = "2", paramLabel = "TYPE")
    String type;

    @Option(names = "--from-scope", paramLabel = "S", defaultValue = "project", description = "FROM's scope (default: project).")
    Scope fromScope;

    @Option(names = "--to-scope", paramLabel = "S", defaultValue = "project", description = "TO's scope (default: project).")
    Scope toScope;

    @Override
    public Integer call() {
        Relation relation;
        try (MemoryProvider memory = cli.open()) {
            relation = memory.requireGraph().relate(EntryRef.of(from, fromScope), EntryRef.of(to, toScope), type);
        }
        if (cli.json) {
            cli.printJson(Json.relation(relation));
        } else {
            cli.println(TraverseCommand.describe(relation));
        }
        return ExitCodes.OK;
    }
}
