package dev.forge.memory.cli;

import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.config.Memories;
import dev.forge.memory.config.ResolvedConfig;
import dev.forge.memory.transfer.ConflictPolicy;
import dev.forge.memory.transfer.ImportResult;
import dev.forge.memory.transfer.Importer;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code migrate}: copies the configured provider's memories into another provider. */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = {"Copy every memory of the configured provider (the source) into another provider (the target) "
                + "directly, as export followed by import would: versions, timestamps, earlier versions and relations "
                + "are kept wherever the target can hold them, and what it cannot hold is reported. The source is not "
                + "changed. Then point memory.provider in .forge/config.yaml at the target.",
            "The target is --to-provider with the settings of --to-config (a config file naming that provider), "
                    + "else those the project's and user's config files give that provider, else its defaults.",
            "Prints the same summary as import (with --json, the same object)."})
final class MigrateCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Option(names = "--to-provider", paramLabel = "NAME", required = true, description = "The provider to copy into ('forge-memory providers' lists them).")
    String toProvider;

    @Option(names = "--to-config", paramLabel = "FILE", description = "A config file with the target's settings (memory.config).")
    Path toConfig;

    @Option(names = "--scope", paramLabel = "SCOPE", description = "Copy only this scope (repeatable): session, project, global.")
    List<Scope> scopes = List.of();

    @Option(names = "--on-conflict", paramLabel = "overwrite|skip|newer", defaultValue = "overwrite",
            description = "A key the target already holds: overwrite it (default), skip it, or take the newer by updated_at.")
    String onConflict;

    @Option(names = "--skip-invalid", description = "Copy the valid entries and report each one the target cannot take "
            + "(as import --skip-invalid does), instead of copying nothing.")
    boolean skipInvalid;

    @Option(names = "--no-progress", description = "Draw no progress bar.")
    boolean noProgress;

    @Override
    public Integer call() {
        if (toProvider.isBlank()) {
            throw new UsageException("--to-provider is empty: name the provider to copy into ('forge-memory providers' lists them).");
        }
        ConflictPolicy policy = ConflictPolicy.parse(onConflict);
        Memories.Builder source = cli.memories();
        Memories.Builder target = cli.memoriesFor(toProvider.strip(), toConfig);
        ResolvedConfig from = source.resolve(source.registry());
        ResolvedConfig to = target.resolve(target.registry());
        if (from.provider().equals(to.provider()) && from.maskedConfig().equals(to.maskedConfig())) {
            throw new InvalidRequestException("The target is the source itself (provider '" + to.provider()
                    + "' with the same settings); give the target other settings with --to-config.");
        }
        ImportResult result;
        String sourceName;
        try (MemoryProvider in = source.open(); MemoryProvider out = target.open();
             TransferProgressBar progress = new TransferProgressBar(cli.err(), !noProgress)) {
            sourceName = "'" + in.name() + "'";
            result = Importer.builder().conflictPolicy(policy).skipInvalid(skipInvalid).progress(progress).build()
                    .migrate(in, scopes.isEmpty() ? EnumSet.allOf(Scope.class) : EnumSet.copyOf(scopes), out);
        }
        TransferSummary.print(cli, "Migrated", sourceName, result);
        return ExitCodes.OK;
    }
}
