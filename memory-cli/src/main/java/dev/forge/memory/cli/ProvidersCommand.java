package dev.forge.memory.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.Capability;
import dev.forge.memory.MemoryException;
import dev.forge.memory.spi.MemoryProviderFactory;
import dev.forge.memory.spi.ProviderRegistry;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code providers}: what can be selected, and what failed to load. */
@Command(name = "providers", mixinStandardHelpOptions = true,
        description = {"List the memory providers found on the class path and in the plugin folders "
                + "(<project>/.forge/plugins, $FORGE_HOME/plugins): name, capabilities, description and the jar or "
                + "directory each was loaded from; then any discovery problems, such as a broken plugin jar."})
final class ProvidersCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    /** One provider as listed. */
    record Listed(String name, Set<Capability> capabilities, String description, String module) {
    }

    @Override
    public Integer call() {
        ProviderRegistry registry = cli.memories().registry();
        List<Listed> listed = new ArrayList<>();
        List<String> problems = new ArrayList<>(registry.problems());
        for (String name : registry.names()) {
            MemoryProviderFactory factory;
            try {
                factory = registry.factory(name);
            } catch (MemoryException e) {
                problems.add(e.getMessage());
                continue;
            }
            listed.add(new Listed(name, capabilities(factory, problems), description(factory, problems), module(factory)));
        }
        if (cli.json) {
            ObjectNode document = Json.object();
            ArrayNode providers = document.putArray("providers");
            for (Listed provider : listed) {
                ObjectNode node = providers.addObject();
                node.put("name", provider.name());
                ArrayNode capabilities = node.putArray("capabilities");
                provider.capabilities().forEach(c -> capabilities.add(id(c)));
                node.put("description", provider.description());
                node.put("module", provider.module());
            }
            ArrayNode problemList = document.putArray("problems");
            problems.forEach(problemList::add);
            cli.printJson(document);
        } else {
            int width = listed.stream().mapToInt(p -> p.name().length()).max().orElse(0);
            String indent = " ".repeat(width + 2);
            for (Listed provider : listed) {
                cli.out().println(String.format(Locale.ROOT, "%-" + width + "s  %s", provider.name(),
                        provider.capabilities().isEmpty() ? "(no optional capabilities)"
                                : String.join(", ", provider.capabilities().stream().map(ProvidersCommand::id).toList())));
                cli.out().println(indent + provider.description());
                cli.out().println(indent + "module: " + provider.module());
            }
            if (listed.isEmpty()) {
                cli.out().println("No memory providers found.");
            }
            if (!problems.isEmpty()) {
                cli.out().println();
                cli.out().println("Problems:");
                problems.forEach(p -> cli.out().println("  " + p));
            }
            cli.out().flush();
        }
        return ExitCodes.OK;
    }

    /** The capability's lower-case name, as users write it. */
    static String id(Capability capability) {
        return capability.name().toLowerCase(Locale.ROOT);
    }

    // A plugin's factory is someone else's code: a failure in one listing method is reported, not fatal.
    private static Set<Capability> capabilities(MemoryProviderFactory factory, List<String> problems) {
        try {
            Set<Capability> reported = factory.capabilities();
            return reported.isEmpty() ? Set.of() : EnumSet.copyOf(reported);
        } catch (RuntimeException | LinkageError e) {
            problems.add(factory.getClass().getName() + ".capabilities() failed: " + e);
            return Set.of();
        }
    }

    private static String description(MemoryProviderFactory factory, List<String> problems) {
        try {
            return String.valueOf(factory.description());
        } catch (RuntimeException | LinkageError e) {
            problems.add(factory.getClass().getName() + ".description() failed: " + e);
            return "";
        }
    }

    /** The jar or class directory the factory class was loaded from. */
    static String module(MemoryProviderFactory factory) {
        CodeSource source = factory.getClass().getProtectionDomain().getCodeSource();
        URL location = source == null ? null : source.getLocation();
        if (location == null) {
            return "(unknown)";
        }
        try {
            return Path.of(location.toURI()).toString();
        } catch (URISyntaxException | IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            return location.toString();
        }
    }
}
