package dev.forge.memory.cli;

import dev.forge.memory.Scope;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The {@code KEY [--scope S]} arguments of the commands that address one entry (get, delete, history). */
final class EntryArguments {

    @Parameters(index = "0", paramLabel = "KEY")
    String key;

    @Option(names = "--scope", paramLabel = "S", defaultValue = "project", description = "session, project (default) or global.")
    Scope scope;
}
