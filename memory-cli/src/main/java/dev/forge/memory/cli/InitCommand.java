package dev.forge.memory.cli;

import dev.forge.memory.config.Memories;
import dev.forge.memory.spi.MemoryProviderFactory;
import dev.forge.memory.spi.ProviderRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code init}: writes a commented {@code .forge/config.yaml}. */
@Command(name = "init", mixinStandardHelpOptions = true,
        description = {"Write <project>/.forge/config.yaml selecting a provider, with its settings and their defaults "
                + "as comments. Refuses to overwrite an existing file without --force."})
final class InitCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Spec
    CommandSpec spec;

    @Option(names = "--provider", paramLabel = "NAME",
            description = "The provider to configure (default: the one --memory-provider names, else the built-in "
                    + "default); 'forge-memory providers' lists them.")
    String provider;

    @Option(names = "--force", description = "Overwrite an existing config file.")
    boolean force;

    @Override
    public Integer call() {
        if (provider != null && provider.isBlank()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--provider is empty: give a provider name "
                    + "('forge-memory providers' lists them), or leave the option out to use the built-in default.");
        }
        // seed 004 writes 'init --memory-provider vector': the shared option names the provider to configure here
        String named = provider != null ? provider.trim() : cli.provider != null ? cli.provider.trim() : null;
        if (provider != null && cli.provider != null && !provider.trim().equals(cli.provider.trim())) {
            throw new UsageException("--provider " + provider.trim() + " and --memory-provider " + cli.provider.trim()
                    + " name two providers; give one of them.");
        }
        ProviderRegistry registry = cli.memories().registry();
        String name = named != null ? named
                : registry.names().contains(Memories.DEFAULT_PROVIDER) ? Memories.DEFAULT_PROVIDER : Memories.FALLBACK_PROVIDER;
        MemoryProviderFactory factory = registry.factory(name);
        Path project = cli.projectDirectory();
        Path file = project.resolve(Memories.PROJECT_CONFIG);
        if (Files.exists(file) && !force) {
            throw new UsageException(file + " already exists; add --force to overwrite it.");
        }
        String projectName = project.getFileName() == null ? "my-project" : project.getFileName().toString();
        String yaml = ConfigTemplates.render(factory, projectName);
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, yaml, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CliIoException(file + " cannot be written", e);
        }
        if (cli.json) {
            cli.printJson(Json.object().put("file", file.toString()).put("provider", name));
        } else {
            cli.println("Wrote " + file + " for the '" + name + "' provider.");
        }
        return ExitCodes.OK;
    }
}
